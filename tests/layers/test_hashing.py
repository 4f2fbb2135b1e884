"""Hashing and HashedCrossing against buckets recorded from Keras 3.15.1 on TensorFlow.

`keras_hashing_fixtures.json` (written by `keras_hashing_fixtures.py`) holds
TensorFlow's FarmHash and SipHash buckets for strings of 0 to 300 bytes,
ASCII and multi-byte UTF-8, and Keras's layer outputs for integers, floats,
masks, salts and every output mode.
"""

import json
from pathlib import Path

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.layers.preprocessing.categorical.farmhash import fingerprint64
from hikeras.layers.preprocessing.categorical.siphash import siphash24
from hikeras.layers.preprocessing.categorical.string_hashing import hash_bytes
from tests.helpers.layer_test import run_layer_test
from tests.helpers.multi_input_layer_test import (
    call_with_list,
    run_multi_input_layer_test,
)

FIXTURE = json.loads((Path(__file__).parent / "keras_hashing_fixtures.json")
                     .read_text(encoding="utf-8"))
STRINGS = [s.encode("utf-8") for s in FIXTURE["strings"]]


def test_the_fixture_covers_every_length_branch():
    lengths = np.array([len(s) for s in STRINGS])
    assert {0, 1, 3, 4, 7, 8, 16, 17, 32, 33} <= set(lengths.tolist())
    # FarmHash's branches, and one, two and several 64-byte blocks beyond them
    for low, high in [(1, 3), (4, 7), (8, 16), (17, 32), (33, 64), (65, 128), (129, 192),
                      (193, 400)]:
        assert np.sum((lengths >= low) & (lengths <= high)) >= 3, (low, high)
    assert any(len(s) != len(s.decode()) for s in STRINGS)  # multi-byte UTF-8


@pytest.mark.parametrize("num_bins", sorted(FIXTURE["fast"]))
def test_fingerprint64_matches_tensorflow(num_bins):
    got = hash_bytes(STRINGS, fingerprint64) % np.uint64(int(num_bins))
    np.testing.assert_array_equal(got.astype(np.int64), FIXTURE["fast"][num_bins])


@pytest.mark.parametrize("salt", sorted(FIXTURE["strong"]))
def test_siphash_matches_tensorflow(salt):
    key = json.loads(salt)
    got = hash_bytes(STRINGS, lambda rows: siphash24(rows, key)) % np.uint64(2**63 - 1)
    np.testing.assert_array_equal(got.astype(np.int64), FIXTURE["strong"][salt])


def test_siphash_reference_vector():
    # The SipHash paper's test vector: key 00..0f, message 00..0e.
    key = (0x0706050403020100, 0x0F0E0D0C0B0A0908)
    rows = np.arange(15, dtype=np.uint8).reshape(1, 15)
    assert int(siphash24(rows, key)[0]) == 0xA129CA6149BE45E5


def test_hashing_per_row_equals_hashing_together():
    one_by_one = [int(fingerprint64(np.frombuffer(s, np.uint8).reshape(1, len(s)))[0])
                  for s in STRINGS]
    np.testing.assert_array_equal(hash_bytes(STRINGS), np.array(one_by_one, dtype=np.uint64))


@pytest.mark.parametrize("index", range(len(FIXTURE["layers"])))
def test_hashing_layer_matches_keras(index):
    case = FIXTURE["layers"][index]
    layer = layers.Hashing(**case["kwargs"])
    got = layer(np.array(case["inputs"]))
    want = np.array(case["outputs"])
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.dtype(case["config"]["dtype"]["config"]["name"])
    config = layer.get_config()
    for key in ("num_bins", "salt", "mask_value", "output_mode", "sparse"):
        assert config[key] == case["config"][key]


@pytest.mark.parametrize("index", range(len(FIXTURE["crossings"])))
def test_hashed_crossing_matches_keras(index):
    case = FIXTURE["crossings"][index]
    got = layers.HashedCrossing(**case["kwargs"])(tuple(np.array(x) for x in case["inputs"]))
    np.testing.assert_array_equal(got, np.array(case["outputs"]))


def test_inputs_of_every_kind_hash_as_keras_describes():
    layer = layers.Hashing(num_bins=2**63 - 1)
    text = layer(np.array(["12", "-3", "true"]))
    np.testing.assert_array_equal(layer(np.array([12, -3])), text[:2])
    np.testing.assert_array_equal(layer(np.array([12.9, -3.2])), text[:2])  # truncated
    np.testing.assert_array_equal(layer(np.array([True])), text[2:])
    np.testing.assert_array_equal(layer(np.array([b"12", "-3"], dtype=object)), text[:2])
    np.testing.assert_array_equal(layer(hikeras.ops.convert_to_tensor(np.array([12, -3]))),
                                  text[:2])


def test_hashing_in_a_functional_model_and_saved(tmp_path):
    inputs = hikeras.Input((3,), dtype="string")
    outputs = layers.Hashing(num_bins=11, mask_value="", name="h")(inputs)
    model = hikeras.Model(inputs, outputs)
    words = np.array(FIXTURE["layers"][4]["inputs"])
    want = np.array(FIXTURE["layers"][4]["outputs"])  # num_bins=11, mask_value=""
    np.testing.assert_array_equal(model.predict(words, verbose=0), want)
    model.save(tmp_path / "m.keras")
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_array_equal(loaded.predict(words, verbose=0), want)


@pytest.mark.parametrize("kwargs, shape", [
    ({"num_bins": 5}, (3, 4)), ({"num_bins": 5, "output_mode": "multi_hot"}, (3, 5)),
    ({"num_bins": 5, "output_mode": "one_hot"}, (3, 4, 5)),
    ({"num_bins": 5, "output_mode": "count", "salt": 3, "mask_value": 0}, (3, 5))])
def test_hashing_passes_the_harness(kwargs, shape):
    run_layer_test(layers.Hashing, kwargs, input_shape=(3, 4), input_dtype="int64",
                   expected_output_shape=shape, expected_num_trainable_weights=0,
                   expected_num_non_trainable_weights=0, check_gradients=False)


@pytest.mark.parametrize("kwargs, shape", [({"num_bins": 7}, (4, 1)),
                                           ({"num_bins": 7, "output_mode": "one_hot"}, (4, 7))])
def test_hashed_crossing_passes_the_harness(kwargs, shape):
    inputs = [np.array([["a"], ["b"], ["a"], ["zz"]]), np.array([["x"], ["y"], ["y"], ["x"]])]
    run_multi_input_layer_test(layers.HashedCrossing, kwargs, inputs, call=call_with_list,
                               expected_output_shape=shape, expected_num_trainable_weights=0,
                               check_gradients=False)


def test_hashed_crossing_shapes():
    layer = layers.HashedCrossing(num_bins=5, output_mode="one_hot")
    assert layer((np.array("a"), np.array(3))).shape == (5,)
    assert layer((np.array([["a"], ["b"]]), np.array([[1], [2]]))).shape == (2, 5)
    assert layers.HashedCrossing(5)((np.array("a"), np.array(3))).shape == ()


@pytest.mark.parametrize("kwargs, match", [
    ({"num_bins": 0}, r"num_bins.*Received: num_bins=0"),
    ({"num_bins": None}, r"Received: num_bins=None"),
    ({"num_bins": 3, "salt": "pepper"}, r"salt.*Received: salt='pepper'"),
    ({"num_bins": 3, "salt": [1, 2, 3]}, r"Received: salt=\[1, 2, 3\]"),
    ({"num_bins": 3, "output_mode": "tf_idf"}, r"output_mode.*Received: output_mode='tf_idf'"),
    ({"num_bins": 3, "output_mode": "count", "sparse": True}, r"sparse.*Received: sparse=True"),
    ({"num_bins": 3, "dtype": "float32"}, r"dtype.*Received: dtype='float32'"),
])
def test_hashing_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.Hashing(**kwargs)


def test_hashing_refuses_inputs_it_cannot_hash():
    with pytest.raises(TypeError, match=r"'h' \(Hashing\).*Received: inputs of dtype complex"):
        layers.Hashing(3, name="h")(np.array([1j]))


@pytest.mark.parametrize("inputs, match", [
    (np.array(["a"]), r"list or tuple of at least two"),
    ([np.array(["a"])], r"at least two inputs"),
    ([np.array(["a", "b"]), np.array([1])], r"same shape.*Received: shapes \[\(2,\), \(1,\)\]"),
    ([np.ones((2, 3), dtype=int), np.ones((2, 3), dtype=int)], r"\(batch_size, 1\)"),
    ([np.array([1.5]), np.array([2])], r"integers or strings.*float64"),
])
def test_hashed_crossing_refuses_bad_inputs(inputs, match):
    with pytest.raises(ValueError, match=match):
        layers.HashedCrossing(5)(inputs)


@pytest.mark.parametrize("kwargs, match", [
    ({"num_bins": 5, "output_mode": "multi_hot"}, r"Received: output_mode='multi_hot'"),
    ({"num_bins": 5, "sparse": True}, r"Received: sparse=True"),
    ({"num_bins": -2}, r"Received: num_bins=-2"),
])
def test_hashed_crossing_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.HashedCrossing(**kwargs)
