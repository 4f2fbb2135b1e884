"""MultiHeadAttention: Keras's weight layout, values against a numpy reference, masks."""

import numpy as np
import pytest

from hikeras import layers
from tests.backend.test_ops_attention import reference_attention
from tests.helpers.multi_input_layer_test import run_multi_input_layer_test


def data(rng, *shape):
    return rng.standard_normal(shape).astype("float32")


def randomize(rng, layer):
    """Random biases too (they initialise to zero), so the reference sees them."""
    layer.set_weights([rng.standard_normal(w.shape) * 0.5 for w in layer.weights])


def reference_mha(layer, query, value, key=None, mask=None, causal=False):
    """MultiHeadAttention from its definition, reading Keras-layout weights."""
    key = value if key is None else key
    wq, bq, wk, bk, wv, bv, wo, bo = [w.astype(np.float64) for w in layer.get_weights()]
    q = np.einsum("btd,dnh->btnh", query, wq) + bq
    k = np.einsum("bsd,dnh->bsnh", key, wk) + bk
    v = np.einsum("bsd,dnh->bsnh", value, wv) + bv
    heads_mask = None if mask is None else mask[:, None]
    out, probs = reference_attention(q, k, v, mask=heads_mask, causal=causal)
    return np.einsum("btnh,nhe->bte", out, wo) + bo, probs


def test_layer_checks_self_attention(rng):
    run_multi_input_layer_test(
        layers.MultiHeadAttention, {"num_heads": 2, "key_dim": 3},
        [data(rng, 2, 4, 5), data(rng, 2, 4, 5)], expected_output_shape=(2, 4, 5),
        expected_num_trainable_weights=8)


def test_layer_checks_cross_attention_with_key_value_dim_and_output_shape(rng):
    run_multi_input_layer_test(
        layers.MultiHeadAttention,
        {"num_heads": 3, "key_dim": 2, "value_dim": 4, "output_shape": 6},
        [data(rng, 2, 3, 5), data(rng, 2, 4, 7), data(rng, 2, 4, 2)],
        call_kwargs={"return_attention_scores": True},
        expected_output_shape=[(2, 3, 6), (2, 3, 3, 4)], expected_num_trainable_weights=8)


def test_layer_checks_without_bias(rng):
    layer = run_multi_input_layer_test(
        layers.MultiHeadAttention, {"num_heads": 2, "key_dim": 2, "use_bias": False},
        [data(rng, 2, 3, 4), data(rng, 2, 5, 4)], expected_num_trainable_weights=4)
    assert [w.shape for w in layer.weights] == [(4, 2, 2)] * 3 + [(2, 2, 4)]


def test_weights_have_keras_names_shapes_and_order(rng):
    layer = layers.MultiHeadAttention(num_heads=4, key_dim=3, value_dim=5)
    layer(data(rng, 2, 6, 8), data(rng, 2, 7, 10))
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("query/kernel", (8, 4, 3)), ("query/bias", (4, 3)),
        ("key/kernel", (10, 4, 3)), ("key/bias", (4, 3)),
        ("value/kernel", (10, 4, 5)), ("value/bias", (4, 5)),
        ("attention_output/kernel", (4, 5, 8)), ("attention_output/bias", (8,)),
    ]
    assert [type(s).__name__ for s in layer.layers] == ["EinsumDense"] * 4
    assert layer.layers[0].equation == "abc,cde->abde"
    assert layer.layers[3].equation == "abcd,cde->abe"


@pytest.mark.parametrize("with_key", [False, True])
def test_values_match_the_reference(with_key, rng):
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3)
    query, value, key = data(rng, 2, 4, 5), data(rng, 2, 6, 5), data(rng, 2, 6, 5)
    args = (query, value, key) if with_key else (query, value)
    layer(*args)
    randomize(rng, layer)
    out, scores = layer(*args, return_attention_scores=True)
    expected, probs = reference_mha(layer, query, value, key if with_key else None)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(scores, probs, rtol=1e-4, atol=1e-6)


def test_masks_are_merged_as_in_keras(rng):
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3)
    query, value = data(rng, 2, 4, 5), data(rng, 2, 4, 5)
    layer(query, value)
    randomize(rng, layer)
    query_mask = np.array([[1, 1, 1, 0], [1, 1, 1, 1]], bool)
    value_mask = np.array([[1, 1, 0, 0], [1, 0, 1, 1]], bool)
    pair_mask = rng.random((2, 4, 4)) > 0.2
    pair_mask[:, :, 0] = True  # key 0 stays visible, so no query's row is fully masked
    out, scores = layer(query, value, query_mask=query_mask, value_mask=value_mask,
                        attention_mask=pair_mask, use_causal_mask=True,
                        return_attention_scores=True)
    merged = query_mask[:, :, None] & value_mask[:, None, :] & pair_mask
    expected, probs = reference_mha(layer, query, value, mask=merged, causal=True)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(scores, probs, rtol=1e-4, atol=1e-6)
    assert np.all(scores[0, :, 0, 1:] == 0)  # causal: the first query sees only key 0


def test_attention_mask_broadcasts_over_batch_and_heads(rng):
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=2)
    query, value = data(rng, 3, 4, 5), data(rng, 3, 6, 5)
    mask = rng.random((4, 6)) > 0.3
    mask[:, 0] = True
    _, scores = layer(query, value, attention_mask=mask, return_attention_scores=True)
    assert np.all(scores[:, :, ~mask] == 0)
    assert np.all(scores[:, :, mask] > 0)


def test_dropout_only_in_training_and_scores_are_before_dropout(rng):
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, dropout=0.5, seed=1)
    query, value = data(rng, 2, 5, 4), data(rng, 2, 5, 4)
    inference, scores = layer(query, value, return_attention_scores=True)
    again = layer(query, value, training=False)
    trained, train_scores = layer(query, value, training=True, return_attention_scores=True)
    np.testing.assert_array_equal(inference, again)
    assert not np.allclose(trained, inference)
    np.testing.assert_allclose(train_scores, scores, rtol=1e-6)


def test_two_attention_axes_match_an_einsum_reference(rng):
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=(1, 2))
    x = data(rng, 2, 3, 4, 5)
    layer(x, x)
    randomize(rng, layer)
    out, scores = layer(x, x, return_attention_scores=True)
    wq, bq, wk, bk, wv, bv, wo, bo = layer.get_weights()
    q = np.einsum("bxyd,dnh->bxynh", x, wq) + bq
    k = np.einsum("bxyd,dnh->bxynh", x, wk) + bk
    v = np.einsum("bxyd,dnh->bxynh", x, wv) + bv
    logits = np.einsum("bxynh,buvnh->bnxyuv", q, k) / np.sqrt(3)
    flat = logits.reshape(2, 2, 12, 12)
    probs = np.exp(flat - flat.max(-1, keepdims=True))
    probs = (probs / probs.sum(-1, keepdims=True)).reshape(logits.shape)
    expected = np.einsum("bnxyuv,buvnh->bxynh", probs, v)
    expected = np.einsum("bxynh,nhe->bxye", expected, wo) + bo
    assert scores.shape == (2, 2, 3, 4, 3, 4)
    np.testing.assert_allclose(scores, probs, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_attention_over_one_of_two_inner_axes(rng):
    # Axis 1 attended, axis 2 acts like a batch axis.
    layer = layers.MultiHeadAttention(num_heads=1, key_dim=2, attention_axes=-3)
    x = data(rng, 2, 3, 4, 5)
    out, scores = layer(x, x, return_attention_scores=True)
    assert out.shape == (2, 3, 4, 5) and scores.shape == (2, 4, 1, 3, 3)
    # Each position along axis 2 is attended independently.
    single = layer(x[:, :, 1:2], x[:, :, 1:2])
    np.testing.assert_allclose(out[:, :, 1:2], single, rtol=1e-5, atol=1e-6)


def test_float64_inputs_to_a_float32_layer_give_float32():
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=2)
    out = layer(np.ones((1, 2, 3)), np.ones((1, 4, 3)))
    assert out.dtype == np.float32


@pytest.mark.parametrize("kwargs, message", [
    ({"num_heads": 0, "key_dim": 2}, "num_heads"),
    ({"num_heads": 2, "key_dim": 2.5}, "key_dim"),
    ({"num_heads": 2, "key_dim": 2, "dropout": 1.0}, "dropout"),
    ({"num_heads": 2, "key_dim": 2, "attention_axes": "1"}, "attention_axes"),
])
def test_bad_constructor_arguments(kwargs, message):
    with pytest.raises(ValueError, match=f"{message}.*Received"):
        layers.MultiHeadAttention(**kwargs)


@pytest.mark.parametrize("shapes, message", [
    ([(2, 5), (2, 5)], "rank"),
    ([(2, 3, 4), (2, 5, 4), (2, 6, 4)], "value and key"),
])
def test_bad_input_shapes(shapes, message):
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=2)
    with pytest.raises(ValueError, match=f"{message}.*Received"):
        layer(*[np.ones(s, "float32") for s in shapes])


def test_attention_axes_must_be_inner_axes():
    layer = layers.MultiHeadAttention(num_heads=2, key_dim=2, attention_axes=(2,))
    with pytest.raises(ValueError, match="attention_axes.*Received"):
        layer(np.ones((2, 3, 4), "float32"), np.ones((2, 3, 4), "float32"))


def test_called_without_a_value():
    with pytest.raises(ValueError, match="query and a value"):
        layers.MultiHeadAttention(num_heads=2, key_dim=2)(np.ones((2, 3, 4), "float32"))


def test_gate_and_sliding_window_are_written_only_when_on():
    default = layers.MultiHeadAttention(num_heads=2, key_dim=2).get_config()
    assert "use_gate" not in default and "sliding_window" not in default  # Keras 2 reads it
    on = layers.MultiHeadAttention(num_heads=2, key_dim=2, use_gate=True, sliding_window=3)
    config = on.get_config()
    assert config["use_gate"] is True and config["sliding_window"] == 3
    assert layers.MultiHeadAttention.from_config(config).get_config() == config
    with pytest.raises(ValueError, match="sliding_window.*Received"):
        layers.MultiHeadAttention(num_heads=2, key_dim=2, sliding_window=0)


def test_gate_sits_between_key_and_value_and_scales_each_head(rng):
    query, value = data(rng, 2, 3, 4), data(rng, 2, 5, 4)
    gated = layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=2, use_gate=True)
    gated(query, value)
    randomize(rng, gated)
    assert [w.path for w in gated.weights][4:6] == ["gate/kernel", "gate/bias"]
    wq, bq, wk, bk, wg, bg, wv, bv, wo, bo = [w.astype(np.float64) for w in gated.get_weights()]
    q = np.einsum("btd,dnh->btnh", query, wq) + bq
    k = np.einsum("bsd,dnh->bsnh", value, wk) + bk
    v = np.einsum("bsd,dnh->bsnh", value, wv) + bv
    heads, _ = reference_attention(q, k, v)
    gate = 1 / (1 + np.exp(-(np.einsum("btd,dnh->btnh", query, wg) + bg)))
    want = np.einsum("btnh,nhe->bte", heads * gate, wo) + bo
    np.testing.assert_allclose(gated(query, value), want, rtol=1e-4, atol=1e-5)
