"""TextVectorization. Values are worked by hand; where a test says so, the
expected values were also printed by Keras 3.15.1 (TensorFlow) on the same
data. `test_layers_keras.py` checks given vocabularies against real Keras
outputs."""

import json
from pathlib import Path

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.saving import register_keras_serializable
from tests.helpers.layer_test import run_layer_test

TextVectorization = layers.TextVectorization


@register_keras_serializable(package="test_text")
def drop_x(strings):
    return np.char.replace(strings, "x", "")


@register_keras_serializable(package="test_text")
def split_on_commas(strings):
    return [s.split(",") for s in strings]


def _tokens(layer, strings):
    """The padded token rows the layer looks up (padding is the mask token "")."""
    return [[t for t in row if t] for row in layer._tokens(np.array(strings)).tolist()]


# ------------------------------------------------------------------ harness
@pytest.mark.parametrize("kwargs, output_shape", [
    ({"output_sequence_length": 4}, (2, 4)),
    ({"output_mode": "count"}, (2, 4)),
    ({"output_mode": "multi_hot", "max_tokens": 8, "pad_to_max_tokens": True}, (2, 8)),
])
def test_passes_the_harness(kwargs, output_shape):
    run_layer_test(TextVectorization, dict(kwargs, vocabulary=["a", "b", "c"]),
                   input_data=np.array([["a b zz"], ["c c a"]]),
                   expected_output_shape=output_shape, expected_num_trainable_weights=0,
                   expected_num_non_trainable_weights=0, check_gradients=False)


# -------------------------------------------------------------- standardize
def test_standardize_modes_by_hand():
    text = ["ÉCOLE Ab-c, d'e! ¿Qué? «x» a\\b"]
    cases = {
        "lower_and_strip_punctuation": ["École", "abc", "de", "¿qué", "«x»", "ab"],
        "lower": ["École", "ab-c,", "d'e!", "¿qué?", "«x»", "a\\b"],
        "strip_punctuation": ["ÉCOLE", "Abc", "de", "¿Qué", "«x»", "ab"],
        None: ["ÉCOLE", "Ab-c,", "d'e!", "¿Qué?", "«x»", "a\\b"],
    }
    for standardize, expected in cases.items():  # Keras: ASCII-only, as printed by Keras
        assert _tokens(TextVectorization(standardize=standardize), text) == [expected]
    every_mark = "".join(chr(c) for c in range(33, 127) if not chr(c).isalnum())
    assert _tokens(TextVectorization(split=None), [every_mark]) == [[]]


def test_standardize_callable_gets_a_numpy_str_array():
    seen = []

    def upper(strings):
        seen.append(strings.dtype.kind)
        return np.char.upper(strings)

    layer = TextVectorization(standardize=upper, vocabulary=["AB", "C"])
    np.testing.assert_array_equal(layer(np.array([b"ab c", b"q"], dtype=object)),
                                  [[2, 3], [1, 0]])
    assert seen == ["U"]


# ------------------------------------------------------------------- split
def test_split_modes_by_hand():
    text = ["  a\u00a0b\tc\n\nd\x0be\x0cf\rg\x1ch  "]
    # tf.strings.split breaks only at ASCII whitespace
    assert _tokens(TextVectorization(standardize=None), text) == [
        ["a\u00a0b", "c", "d", "e", "f", "g\x1ch"]]
    assert _tokens(TextVectorization(split="character", standardize=None), ["é a"]) == [
        ["é", " ", "a"]]
    assert _tokens(TextVectorization(split=None, standardize=None), [["x y"], ["z"]]) == [
        ["x y"], ["z"]]
    layer = TextVectorization(split=split_on_commas, standardize="lower", vocabulary=["a", "b c"])
    np.testing.assert_array_equal(layer(np.array([["a,b c"], ["x,a,a"]])),
                                  [[2, 3, 0], [1, 2, 2]])


# ------------------------------------------------------------------ ngrams
def test_ngrams_by_hand():
    layer = TextVectorization(ngrams=3)
    assert _tokens(layer, ["a b c d", "e"]) == [
        ["a", "b", "c", "d", "a b", "b c", "c d", "a b c", "b c d"], ["e"]]
    layer = TextVectorization(ngrams=(2, 1))  # the sizes in the given order
    assert _tokens(layer, ["a b c"]) == [["a b", "b c", "a", "b", "c"]]
    layer = TextVectorization(ngrams=(2,), split="character", standardize=None)
    assert _tokens(layer, ["ab c"]) == [["a b", "b  ", "  c"]]


# ------------------------------------------------------------ output modes
def test_int_mode_pads_and_truncates():
    layer = TextVectorization(vocabulary=["the", "cat"])
    assert layer.get_vocabulary() == ["", "[UNK]", "the", "cat"]
    np.testing.assert_array_equal(layer(np.array(["The cat", "a cat the dog", ""])),
                                  [[2, 3, 0, 0], [1, 3, 2, 1], [0, 0, 0, 0]])
    layer = TextVectorization(vocabulary=["the", "cat"], output_sequence_length=3)
    out = layer(np.array([["the cat the cat"], ["cat"]]))
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, [[2, 3, 2], [3, 0, 0]])


def test_vector_modes_by_hand():
    vocab = ["a", "b"]
    data = np.array(["a b a z", "", "b"])
    np.testing.assert_array_equal(
        TextVectorization(vocabulary=vocab, output_mode="multi_hot")(data),
        [[1, 1, 1], [0, 0, 0], [0, 0, 1]])  # [UNK], a, b: no padding slot
    np.testing.assert_array_equal(
        TextVectorization(vocabulary=vocab, output_mode="count", max_tokens=5,
                          pad_to_max_tokens=True)(data),
        [[1, 2, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 0, 0]])
    layer = TextVectorization(vocabulary=vocab, output_mode="tf_idf", idf_weights=[0.5, 2.0])
    # OOV slot weighted by the mean weight 1.25
    np.testing.assert_allclose(layer(data), [[1.25, 1.0, 2.0], [0, 0, 0], [0, 0, 2.0]])


# ------------------------------------------------------------------- adapt
def test_adapt_orders_by_count_then_later_token():
    layer = TextVectorization()
    layer.adapt(["The cat sat.", "the dog sat", "a cat"])
    # the: 2, sat: 2, cat: 2 (ties: descending), then dog, a
    assert layer.get_vocabulary() == ["", "[UNK]", "the", "sat", "cat", "dog", "a"]
    layer = TextVectorization(max_tokens=4, ngrams=2)
    layer.adapt(np.array([["a b"], ["b c"]]))
    # b: 2; then the count-1 tokens descending: c, b c, a b, a; two places left
    assert layer.get_vocabulary() == ["", "[UNK]", "b", "c"]
    layer = TextVectorization(ngrams=(2, 1), standardize=None)
    layer.adapt(["a b c", "b c"])  # printed by Keras 3.15.1
    assert layer.get_vocabulary() == ["", "[UNK]", "c", "b c", "b", "a b", "a"]


def test_adapt_tf_idf_matches_keras():
    layer = TextVectorization(output_mode="tf_idf", max_tokens=5)
    layer.adapt(["a b b", "c a", "d e f"])
    assert layer.get_vocabulary() == ["[UNK]", "b", "a", "f", "e"]
    # idf = log(1 + 3 / (1 + document count)); [UNK] gets the mean of the four
    idf = np.log(1 + 3 / np.array([2.0, 3.0, 2.0, 2.0]))
    expected = [idf.mean(), 2 * idf[0], idf[1], 0, 0]
    np.testing.assert_allclose(layer(np.array(["a b b z"])), [expected], rtol=1e-6)
    np.testing.assert_allclose(expected, [0.86050487, 1.8325815, 0.6931472, 0, 0], rtol=1e-6)


def test_adapt_on_batches_with_steps():
    batches = iter([np.array(["x y"]), np.array(["y", "z"]), np.array(["w w w"])])
    layer = TextVectorization()
    layer.adapt(batches, steps=2)
    assert layer.get_vocabulary() == ["", "[UNK]", "y", "z", "x"]
    with pytest.raises(ValueError, match="cannot adapt"):
        TextVectorization(vocabulary=["a"]).adapt(["a"])


def test_set_vocabulary_and_size():
    layer = TextVectorization(output_mode="count")
    layer.set_vocabulary(["[UNK]", "p", "q"])
    assert layer.get_vocabulary(include_special_tokens=False) == ["p", "q"]
    assert layer.vocabulary_size() == 3
    np.testing.assert_array_equal(layer(np.array(["q q r"])), [[1, 0, 2]])


# ------------------------------------------------------------------ config
def test_config_matches_keras_keys_and_round_trips():
    layer = TextVectorization(max_tokens=10, ngrams=(1, 2), output_sequence_length=6)
    layer.adapt(["b a", "a"])
    config = layer.get_config()
    assert {"max_tokens", "standardize", "split", "ngrams", "output_mode",
            "output_sequence_length", "pad_to_max_tokens", "sparse", "ragged", "vocabulary",
            "idf_weights", "encoding", "vocabulary_size"} <= set(config)
    assert config["vocabulary"] == ["a", "b a", "b"] and config["vocabulary_size"] == 5
    clone = layers.deserialize(json.loads(json.dumps(layers.serialize(layer))))
    data = np.array(["a b a", "b"])
    np.testing.assert_array_equal(clone(data), layer(data))


def test_callables_are_saved_by_registered_name():
    layer = TextVectorization(standardize=drop_x, split=split_on_commas, vocabulary=["ab"])
    config = layer.get_config()
    assert config["standardize"]["config"] == "test_text>drop_x"  # Keras's function form
    assert config["split"]["config"] == "test_text>split_on_commas"
    clone = TextVectorization.from_config(config)
    np.testing.assert_array_equal(clone(np.array(["axb,q"])), [[2, 1]])

    def unregistered(strings):
        return strings

    config = TextVectorization(standardize=unregistered).get_config()
    with pytest.raises(ValueError, match="not registered.*Received: standardize="):
        TextVectorization.from_config(config)
    config = TextVectorization(standardize=unregistered).get_config()
    clone = TextVectorization.from_config(config, custom_objects={"unregistered": unregistered})
    assert clone.standardize is unregistered


# ------------------------------------------------------------------ models
@pytest.mark.parametrize("suffix", ["h5", "keras"])
def test_adapted_model_trains_and_survives_saving(tmp_path, suffix):
    vectorize = TextVectorization(max_tokens=12, output_sequence_length=4)
    vectorize.adapt(np.array(["the cat sat", "the dog ran", "a cat ran fast"]))
    inputs = hikeras.Input(shape=(1,), dtype="string")
    tokens = vectorize(inputs)
    assert tokens.shape == (None, 4)
    x = layers.Embedding(12, 3)(tokens)
    x = layers.GlobalAveragePooling1D()(x)
    model = hikeras.Model(inputs, layers.Dense(1)(x))
    model.compile(optimizer="sgd", loss="mse")
    data = np.array([["the cat"], ["a dog ran"], ["fast"]])
    before = model.predict(data, verbose=0)
    model.fit(data, np.ones((3, 1)), epochs=2, verbose=0)
    after = model.predict(data, verbose=0)
    assert not np.allclose(before, after)
    model.save(tmp_path / f"model.{suffix}")
    loaded = hikeras.models.load_model(tmp_path / f"model.{suffix}")
    np.testing.assert_allclose(loaded.predict(data, verbose=0), after, rtol=1e-6)
    assert loaded.layers[1].get_vocabulary() == vectorize.get_vocabulary()


def test_vector_mode_output_spec():
    inputs = hikeras.Input(shape=(1,), dtype="string")
    layer = TextVectorization(vocabulary=["a", "b"], output_mode="count")
    assert layer(inputs).shape == (None, 3)  # Keras's symbolic shape says (None, 1, 3)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("kwargs, message", [
    ({"ragged": True}, "ragged.*Received: ragged=True"),
    ({"sparse": True}, "sparse.*Received: sparse=True"),
    ({"standardize": "upper"}, "standardize.*Received: standardize='upper'"),
    ({"split": "comma"}, "split.*Received: split='comma'"),
    ({"ngrams": 0}, "ngrams.*Received: ngrams=0"),
    ({"ngrams": (1, "2")}, "ngrams.*Received: ngrams="),
    ({"output_mode": "one_hot"}, "output_mode.*Received: output_mode='one_hot'"),
    ({"output_mode": "count", "output_sequence_length": 3}, "Received: output_sequence_length"),
    ({"max_tokens": 1}, "max_tokens.*Received: max_tokens=1"),
    ({"vocabulary": "vocab.txt"}, "files.*Received: vocabulary='vocab.txt'"),
])
def test_errors_name_the_layer(kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        TextVectorization(name="tv", **kwargs)
    assert "Layer 'tv' (TextVectorization)" in str(info.value)


def test_call_errors():
    layer = TextVectorization(vocabulary=["a"], name="tv")
    with pytest.raises(TypeError, match=r"'tv'.*string inputs.*Received: inputs of dtype int64"):
        layer(np.array([[1], [2]]))
    with pytest.raises(ValueError, match=r"'tv'.*\(batch, 1\).*Received: inputs of shape"):
        layer(np.array([["a", "b"]]))
    with pytest.raises(ValueError, match=r"'tv'.*Received: a vocabulary of 2 tokens"):
        TextVectorization(max_tokens=3, vocabulary=["a", "b"], name="tv")


def test_loads_a_keras_archive_with_adapted_text_vectorization():
    """Keras saves adapted vocabularies as archive assets (`keras_text_archive.py`)."""
    here = Path(__file__).parent
    expected = np.load(here / "keras_text_archive.npz")
    model = hikeras.models.load_model(here / "keras_text_archive.keras")
    sequences, scores = [l for l in model.layers if isinstance(l, TextVectorization)]
    assert sequences.get_vocabulary() == expected["sequences_vocabulary"].tolist()
    assert scores.get_vocabulary() == expected["scores_vocabulary"].tolist()
    assert sequences.get_vocabulary() == ["", "[UNK]", "the", "cat", "sat", "a", "on", "dogs"]
    pooled, vectors = model(expected["text"])
    np.testing.assert_allclose(pooled, expected["pooled"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(vectors, expected["scores"], rtol=1e-5, atol=1e-6)
