"""Categorical preprocessing layers: CategoryEncoding, Discretization, IntegerLookup,
StringLookup. Values are worked by hand; the adapt results quoted from Keras
were printed by Keras 3.15.1 on the same data. `test_layers_keras.py` checks
given vocabularies and boundaries against real Keras outputs."""

from pathlib import Path

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test


# ------------------------------------------------------------------ harness
@pytest.mark.parametrize("layer_cls, kwargs, input_shape, output_shape", [
    (layers.CategoryEncoding, {"num_tokens": 5}, (3, 4), (3, 5)),
    (layers.CategoryEncoding, {"num_tokens": 5, "output_mode": "one_hot"}, (3, 4), (3, 4, 5)),
    (layers.CategoryEncoding, {"num_tokens": 5, "output_mode": "count"}, (3, 4), (3, 5)),
    (layers.IntegerLookup, {"vocabulary": [1, 2, 3]}, (3, 4), (3, 4)),
    (layers.IntegerLookup, {"vocabulary": [1, 2, 3], "output_mode": "multi_hot"}, (3, 4),
     (3, 4)),
    (layers.IntegerLookup, {"vocabulary": [4, 2], "invert": True}, (3, 4), (3, 4)),
])
def test_integer_input_layers_pass_the_harness(layer_cls, kwargs, input_shape, output_shape):
    run_layer_test(layer_cls, kwargs, input_shape=input_shape, input_dtype="int64",
                   expected_output_shape=output_shape, expected_num_trainable_weights=0,
                   expected_num_non_trainable_weights=0, check_gradients=False)


@pytest.mark.parametrize("output_mode, output_shape", [
    ("int", (3, 4)), ("one_hot", (3, 4, 4)), ("multi_hot", (3, 4)), ("count", (3, 4))])
def test_discretization_passes_the_harness(output_mode, output_shape):
    run_layer_test(layers.Discretization, {"bin_boundaries": [-1.0, 0.0, 1.0],
                                           "output_mode": output_mode},
                   input_shape=(3, 4), expected_output_shape=output_shape,
                   expected_num_trainable_weights=0, check_gradients=False)


@pytest.mark.parametrize("output_mode, output_shape", [("int", (2, 3)), ("count", (2, 4))])
def test_string_lookup_passes_the_harness(output_mode, output_shape):
    data = np.array([["a", "b", "zz"], ["c", "c", "a"]])
    run_layer_test(layers.StringLookup, {"vocabulary": ["a", "b", "c"],
                                         "output_mode": output_mode},
                   input_data=data, expected_output_shape=output_shape,
                   expected_num_trainable_weights=0, check_gradients=False)


# --------------------------------------------------------- CategoryEncoding
def test_category_encoding_modes_by_hand():
    ids = np.array([[0, 1, 1], [3, 3, 2]])
    count = layers.CategoryEncoding(4, output_mode="count")
    np.testing.assert_array_equal(count(ids), [[1, 2, 0, 0], [0, 0, 1, 2]])
    multi = layers.CategoryEncoding(4)
    np.testing.assert_array_equal(multi(ids), [[1, 1, 0, 0], [0, 0, 1, 1]])
    one = layers.CategoryEncoding(4, output_mode="one_hot")
    np.testing.assert_array_equal(one(np.array([3, 0])), [[0, 0, 0, 1], [1, 0, 0, 0]])
    np.testing.assert_array_equal(one(np.array([[3], [0]])), [[0, 0, 0, 1], [1, 0, 0, 0]])
    assert one(ids).shape == (2, 3, 4)
    np.testing.assert_array_equal(multi(np.array([1, 3])), [0, 1, 0, 1])  # one sample
    np.testing.assert_array_equal(multi(2), [0, 0, 1, 0])
    assert count(ids).dtype == np.float32


def test_category_encoding_count_weights():
    layer = layers.CategoryEncoding(4, output_mode="count")
    out = layer(np.array([[0, 1, 0], [3, 2, 3]]), count_weights=np.array([[0.5, 0.25, 1.0],
                                                                          [1.0, 2.0, 4.0]]))
    np.testing.assert_allclose(out, [[1.5, 0.25, 0, 0], [0, 0, 2.0, 5.0]])


def test_category_encoding_errors_name_the_layer():
    layer = layers.CategoryEncoding(3, name="colours")
    for bad in (3, -1):
        with pytest.raises(ValueError, match=rf"'colours'.*\[0, 3\).*Received: a value of {bad}"):
            layer(np.array([[0, bad]]))
    with pytest.raises(ValueError, match="output_mode='count'.*Received"):
        layer(np.array([[0, 1]]), count_weights=np.ones((1, 2)))
    with pytest.raises(ValueError, match="shape.*Received: count_weights of shape"):
        layers.CategoryEncoding(3, output_mode="count")(np.array([[0, 1]]),
                                                        count_weights=np.ones((2, 2)))
    with pytest.raises(TypeError, match="integer inputs. Received: inputs of dtype float"):
        layer(np.array([[0.5]]))
    with pytest.raises(ValueError, match="sparse tensors.*Received: sparse=True"):
        layers.CategoryEncoding(3, sparse=True)
    with pytest.raises(ValueError, match="num_tokens.*Received: num_tokens=None"):
        layers.CategoryEncoding()
    with pytest.raises(ValueError, match="Received: output_mode='tf_idf'"):
        layers.CategoryEncoding(3, output_mode="tf_idf")


def test_category_encoding_config_matches_keras_keys():
    config = layers.CategoryEncoding(4, output_mode="binary").get_config()
    assert config["output_mode"] == "multi_hot"
    assert {"num_tokens", "output_mode"} <= set(config) and "sparse" not in config


# ----------------------------------------------------------- Discretization
def test_discretization_modes_by_hand():
    x = np.array([[-1.0, 0.0, 0.5, 1.0, 3.0]])
    out = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])(x)
    np.testing.assert_array_equal(out, [[0, 1, 1, 2, 3]])
    assert out.dtype == np.int32
    count = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0], output_mode="count")(x)
    np.testing.assert_array_equal(count, [[1, 2, 1, 1]])
    multi = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0], output_mode="multi_hot")
    np.testing.assert_array_equal(multi(np.array([[0.5, 0.7]])), [[0, 1, 0, 0]])
    one = layers.Discretization(bin_boundaries=[0.0], output_mode="one_hot")
    np.testing.assert_array_equal(one(np.array([[-2.0], [2.0]])), [[1, 0], [0, 1]])


def test_discretization_compares_in_float32():
    # float32(0.7) < 0.7 in float64, but equals the float32 boundary: bin 1, as in Keras.
    layer = layers.Discretization(bin_boundaries=[0.7])
    assert layer(np.array([0.7], "float32")).tolist() == [1]
    assert layer(np.array([1, 0])).tolist() == [1, 0]  # integers are compared as floats


@pytest.mark.parametrize("kwargs, data, expected", [
    # Quantiles of 1..10 into 4 bins.
    ({"num_bins": 4}, np.arange(1.0, 11.0)[:, None], [2.5, 5.0, 7.5]),
    # Values printed by Keras 3.15.1 for the same calls.
    ({"num_bins": 3}, np.arange(7.0), [1.3333332538604736, 3.6666665077209473]),
    ({"num_bins": 5}, np.array([0.1, 0.1, 0.5, 0.9, 2.0]),  # fewer values than bins
     [0.10000000149011612, 0.10000000149011612, 0.4999999403953552, 0.8999999761581421]),
    ({"num_bins": 4, "epsilon": 0.3}, np.linspace(0, 1, 50),
     [0.2857142984867096, 0.5918367505073547]),
])
def test_discretization_adapt_matches_keras(kwargs, data, expected):
    layer = layers.Discretization(**kwargs)
    layer.adapt(data)
    assert layer.bin_boundaries == expected


def test_discretization_adapt_compresses_and_merges_summaries_as_keras():
    # 337 values (with ties) summarised at epsilon=0.05: whole, and as two merged batches.
    data = np.random.default_rng(7).normal(size=337).round(2)
    whole = layers.Discretization(num_bins=4, epsilon=0.05)
    whole.adapt(data)
    assert whole.bin_boundaries == [-0.732499897480011, -0.09500002861022949,
                                    0.4774998724460602]  # printed by Keras 3.15.1
    batched = layers.Discretization(num_bins=4, epsilon=0.05)
    batched.adapt(np.array_split(data, 2))
    assert batched.bin_boundaries == [-0.6694085001945496, -0.06584065407514572,
                                      0.5500000715255737]


def test_discretization_adapt_on_batches_and_config_round_trip():
    whole, batched = layers.Discretization(num_bins=4), layers.Discretization(num_bins=4)
    data = np.arange(1.0, 11.0)
    whole.adapt(data)
    batched.adapt([data[:5], data[5:]])  # a list is a list of batches, as in Keras
    assert batched.bin_boundaries == whole.bin_boundaries == [2.5, 5.0, 7.5]
    config = whole.get_config()
    assert config["num_bins"] == 4 and config["bin_boundaries"] == [2.5, 5.0, 7.5]
    clone = layers.Discretization.from_config(config)
    np.testing.assert_array_equal(clone(data), whole(data))
    assert set(config) == {"bin_boundaries", "num_bins", "epsilon", "output_mode", "sparse",
                           "name", "dtype"}


def test_discretization_errors():
    with pytest.raises(ValueError, match="exactly one.*Received"):
        layers.Discretization()
    with pytest.raises(ValueError, match="exactly one.*Received"):
        layers.Discretization(bin_boundaries=[0.0], num_bins=2)
    with pytest.raises(ValueError, match="sorted.*Received: bin_boundaries=\\[1.0, 0.0\\]"):
        layers.Discretization(bin_boundaries=[1.0, 0.0])
    with pytest.raises(ValueError, match="num_bins.*Received: num_bins=-1"):
        layers.Discretization(num_bins=-1)
    with pytest.raises(ValueError, match="Received: output_mode='tf_idf'"):
        layers.Discretization(num_bins=2, output_mode="tf_idf")
    with pytest.raises(ValueError, match="no bin boundaries.*adapt"):
        layers.Discretization(num_bins=2)(np.zeros((1, 2)))
    with pytest.raises(ValueError, match="only a layer made with `num_bins` can adapt"):
        layers.Discretization(bin_boundaries=[0.0]).adapt(np.zeros(3))


# ------------------------------------------------------------ IntegerLookup
def test_integer_lookup_layout_mask_and_oov():
    layer = layers.IntegerLookup(vocabulary=[12, 36, 1138, 42], mask_token=0)
    assert layer.get_vocabulary() == [0, -1, 12, 36, 1138, 42]
    assert layer.get_vocabulary(include_special_tokens=False) == [12, 36, 1138, 42]
    assert layer.vocabulary_size() == 6
    out = layer(np.array([[12, 0, 1138, 5]]))
    np.testing.assert_array_equal(out, [[2, 0, 4, 1]])
    assert out.dtype == np.int64
    # Two OOV indices: unknown tokens go to token mod 2 (after the mask index).
    two = layers.IntegerLookup(vocabulary=[12, 36], num_oov_indices=2)
    np.testing.assert_array_equal(two(np.array([[12, 5, 6, -3]])), [[2, 1, 0, 1]])


def test_integer_lookup_vector_modes_by_hand():
    vocab = [12, 36]
    ids = np.array([[12, 12, 5], [36, 7, 7]])  # index layout: OOV 0, 12 -> 1, 36 -> 2
    one = layers.IntegerLookup(vocabulary=vocab, output_mode="one_hot")
    np.testing.assert_array_equal(one(np.array([12, 5])), [[0, 1, 0], [1, 0, 0]])
    multi = layers.IntegerLookup(vocabulary=vocab, output_mode="multi_hot")
    np.testing.assert_array_equal(multi(ids), [[1, 1, 0], [1, 0, 1]])
    count = layers.IntegerLookup(vocabulary=vocab, output_mode="count")
    np.testing.assert_array_equal(count(ids), [[1, 2, 0], [2, 0, 1]])
    padded = layers.IntegerLookup(vocabulary=vocab, output_mode="count", max_tokens=5,
                                  pad_to_max_tokens=True)
    np.testing.assert_array_equal(padded(ids), [[1, 2, 0, 0, 0], [2, 0, 1, 0, 0]])
    # tf_idf: OOV slot weighted by the mean IDF (0.375), as Keras.
    tfidf = layers.IntegerLookup(vocabulary=vocab, output_mode="tf_idf", idf_weights=[0.5, 0.25])
    np.testing.assert_allclose(tfidf(np.array([[12, 12, 5, 36]])), [[0.375, 1.0, 0.25]])
    # A mask token has no slot outside "int" mode: it is dropped.
    masked = layers.IntegerLookup(vocabulary=vocab, mask_token=0, output_mode="multi_hot")
    np.testing.assert_array_equal(masked(np.array([[0, 12]])), [[0, 1, 0]])


def test_integer_lookup_adapt_orders_by_count_then_larger_token():
    layer = layers.IntegerLookup()
    layer.adapt(np.array([[3, 1, 2, 1], [2, 5, 3, 7]]))
    # counts: 1, 2, 3 twice; 5, 7 once. Ties: the larger token first.
    assert layer.get_vocabulary() == [-1, 3, 2, 1, 7, 5]
    np.testing.assert_array_equal(layer(np.array([[3, 9, 1]])), [[1, 0, 3]])
    capped = layers.IntegerLookup(max_tokens=3, mask_token=0)
    capped.adapt(np.array([4, 4, 0, 0, 0, 9, 9, 9, 1, -1]))  # mask and OOV tokens are skipped
    assert capped.get_vocabulary() == [0, -1, 9]


def test_integer_lookup_invert_round_trip():
    forward = layers.IntegerLookup(vocabulary=[12, 36, 1138], mask_token=0)
    inverse = layers.IntegerLookup(vocabulary=[12, 36, 1138], mask_token=0, invert=True)
    tokens = np.array([[12, 0, 1138], [36, 36, 12]])
    np.testing.assert_array_equal(inverse(forward(tokens)), tokens)
    # Unknown tokens come back as the OOV token; indices beyond the vocabulary too.
    np.testing.assert_array_equal(inverse(forward(np.array([[99]]))), [[-1]])
    np.testing.assert_array_equal(inverse(np.array([[7, -2]])), [[-1, -1]])


def test_integer_lookup_set_vocabulary_accepts_special_tokens_prefix():
    layer = layers.IntegerLookup(mask_token=0)
    layer.set_vocabulary([0, -1, 5, 6])
    assert layer.get_vocabulary() == [0, -1, 5, 6]
    layer.set_vocabulary(np.array([7, 8]))
    assert layer.get_vocabulary() == [0, -1, 7, 8]


def test_integer_lookup_errors():
    with pytest.raises(ValueError, match="'ids'.*num_oov_indices=0.*Received: out-of-vocabulary"):
        layers.IntegerLookup(vocabulary=[1, 2], num_oov_indices=0, name="ids")(np.array([3]))
    with pytest.raises(ValueError, match="repeats tokens.*Received: repeated tokens \\[2\\]"):
        layers.IntegerLookup(vocabulary=[1, 2, 2])
    with pytest.raises(ValueError, match="mask_token 0 is among.*Received: mask_token=0"):
        layers.IntegerLookup(vocabulary=[1, 0], mask_token=0)
    with pytest.raises(ValueError, match="more than max_tokens=3"):
        layers.IntegerLookup(vocabulary=[1, 2, 3], max_tokens=3)
    with pytest.raises(ValueError, match="invert=True.*Received: output_mode='count'"):
        layers.IntegerLookup(invert=True, output_mode="count")
    with pytest.raises(ValueError, match="idf_weights.*Received: output_mode='int'"):
        layers.IntegerLookup(vocabulary=[1], idf_weights=[1.0])
    with pytest.raises(ValueError, match="needs `idf_weights` too"):
        layers.IntegerLookup(vocabulary=[1], output_mode="tf_idf")
    with pytest.raises(ValueError, match="Received: vocabulary_dtype='int32'"):
        layers.IntegerLookup(vocabulary_dtype="int32")
    with pytest.raises(ValueError, match="vocabulary files.*Received"):
        layers.IntegerLookup(vocabulary="/etc/passwd")
    with pytest.raises(ValueError, match="cannot adapt"):
        layers.IntegerLookup(vocabulary=[1]).adapt(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="needs a vocabulary"):
        layers.IntegerLookup(output_mode="count")(np.array([[1]]))
    with pytest.raises(TypeError, match="integer inputs. Received: inputs of dtype float"):
        layers.IntegerLookup(vocabulary=[1])(np.array([0.5]))


# ------------------------------------------------------------- StringLookup
def test_string_lookup_adapt_and_tf_idf_by_hand():
    docs = np.array([["b", "a", "c", "a"], ["c", "d", "b", "e"]])
    layer = layers.StringLookup()
    layer.adapt(docs)
    # a, b, c twice; d, e once; ties go to the token that sorts last.
    assert layer.get_vocabulary() == ["[UNK]", "c", "b", "a", "e", "d"]
    tfidf = layers.StringLookup(output_mode="tf_idf")
    tfidf.adapt(docs)
    # idf = log(1 + documents / (1 + document count)); OOV gets the mean.
    idf = {t: np.log(1 + 2 / (1 + n)) for t, n in dict(a=1, b=2, c=2, d=1, e=1).items()}
    mean = np.mean(list(idf.values()))
    out = tfidf(np.array([["a", "a", "z"]]))
    np.testing.assert_allclose(out, [[mean, 0, 0, 2 * idf["a"], 0, 0]], rtol=1e-6)


def test_string_lookup_inputs_and_invert_round_trip():
    forward = layers.StringLookup(vocabulary=["a", "b"], mask_token="")
    np.testing.assert_array_equal(forward(np.array([["a", "", "b", "q"]])), [[2, 0, 3, 1]])
    np.testing.assert_array_equal(forward(np.array([[b"a", b"q"]])), [[2, 1]])  # bytes
    np.testing.assert_array_equal(forward(np.array([["b", "a"]], dtype=object)), [[3, 2]])
    np.testing.assert_array_equal(forward(["a", "b"]), [2, 3])
    inverse = layers.StringLookup(vocabulary=["a", "b"], mask_token="", invert=True)
    words = np.array([["a", "", "b"]])
    np.testing.assert_array_equal(inverse(forward(words)), words)
    np.testing.assert_array_equal(inverse(np.array([1, 9])), ["[UNK]", "[UNK]"])
    with pytest.raises(TypeError, match="string inputs.*Received: inputs of dtype int64"):
        forward(np.array([1, 2]))
    with pytest.raises(ValueError, match="FarmHash.*Received: num_oov_indices=2"):
        layers.StringLookup(num_oov_indices=2)


def test_adapted_vocabulary_is_in_the_config_and_survives_saving(tmp_path):
    layer = layers.StringLookup(output_mode="tf_idf")
    layer.adapt(np.array([["x", "y", "x"], ["y", "z", "z"]]))
    config = layer.get_config()
    assert config["vocabulary"] == ["z", "y", "x"] and config["vocabulary_size"] == 4
    assert len(config["idf_weights"]) == 3
    clone = layers.StringLookup.from_config(config)
    assert clone.get_vocabulary() == layer.get_vocabulary()
    data = np.array([["x", "q", "z"]])
    np.testing.assert_allclose(clone(data), layer(data), rtol=1e-6)

    inputs = hikeras.Input((3,), dtype="string")
    model = hikeras.Model(inputs, layer(inputs))
    model.save(tmp_path / "model.h5")
    loaded = hikeras.models.load_model(tmp_path / "model.h5")
    np.testing.assert_allclose(loaded(data), model(data), rtol=1e-6)
    assert loaded.layers[-1].get_vocabulary() == layer.get_vocabulary()


def test_integer_inputs_through_a_trained_functional_model():
    inputs = hikeras.Input((3,), dtype="int64")
    encoded = layers.IntegerLookup(vocabulary=[5, 6, 7], output_mode="count")(inputs)
    assert encoded.shape == (None, 4)
    model = hikeras.Model(inputs, layers.Dense(2)(encoded))
    model.compile(optimizer="sgd", loss="mse")
    x = np.array([[5, 7, 9], [6, 6, 6]])
    model.fit(x, np.zeros((2, 2)), verbose=0)
    assert model.predict(x, verbose=0).shape == (2, 2)
    clone = hikeras.models.model_from_json(model.to_json())
    assert clone.layers[1].get_vocabulary() == [-1, 5, 6, 7]


def test_discretization_then_category_encoding_in_sequential():
    model = hikeras.Sequential([layers.Discretization(bin_boundaries=[0.0, 1.0]),
                                layers.CategoryEncoding(3, output_mode="one_hot")])
    np.testing.assert_array_equal(model(np.array([[0.5], [2.0], [-1.0]])),
                                  [[0, 1, 0], [0, 0, 1], [1, 0, 0]])


def test_loads_a_keras_archive_with_adapted_lookup_layers():
    """Keras saves adapted vocabularies as archive assets (`keras_lookup_archive.py`)."""
    here = Path(__file__).parent
    expected = np.load(here / "keras_lookup_archive.npz")
    model = hikeras.models.load_model(here / "keras_lookup_archive.keras")
    words = next(l for l in model.layers if isinstance(l, layers.StringLookup))
    assert words.get_vocabulary() == expected["vocabulary"].tolist()
    assert words.get_vocabulary() == ["", "[UNK]", "a", "c", "b"]  # the mask token first
    indices, scores = model([expected["text"], expected["numbers"]])
    np.testing.assert_array_equal(indices, expected["indices"])
    np.testing.assert_allclose(scores, expected["scores"], rtol=1e-5, atol=1e-6)


def test_string_inputs_train_through_a_sequential_model():
    model = hikeras.Sequential([layers.StringLookup(vocabulary=["a", "b"],
                                                    output_mode="multi_hot"),
                                layers.Dense(1)])
    x = np.array([["a", "b"], ["b", "q"]])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, np.ones((2, 1)), batch_size=1, verbose=0)
    assert model.predict(x, verbose=0).shape == (2, 1)
