"""GroupQueryAttention: Keras's weight layout, values from the definition, windows, gates."""

import numpy as np
import pytest

from hikeras import layers
from tests.backend.test_ops_attention import reference_attention
from tests.helpers.multi_input_layer_test import run_multi_input_layer_test


def data(rng, *shape):
    return rng.standard_normal(shape).astype("float32")


def randomized(rng, layer, *inputs, **kwargs):
    layer(*inputs, **kwargs)
    layer.set_weights([rng.standard_normal(w.shape) * 0.5 for w in layer.weights])
    return layer


def reference_gqa(layer, query, value, mask=None, causal=False):
    """From the definition: key/value head `g` serves query heads `g*r .. g*r + r-1`."""
    weights = [w.astype(np.float64) for w in layer.get_weights()]
    wq, bq, wk, bk, wv, bv, wo, bo = weights
    groups = layer.num_query_heads // layer.num_key_value_heads
    q = np.einsum("btd,dnh->btnh", query, wq) + bq
    k = np.repeat(np.einsum("bsd,dnh->bsnh", value, wk) + bk, groups, axis=2)
    v = np.repeat(np.einsum("bsd,dnh->bsnh", value, wv) + bv, groups, axis=2)
    out, probs = reference_attention(q, k, v, mask=mask, causal=causal)
    return np.einsum("btnh,nhe->bte", out, wo) + bo, probs


def test_layer_checks_self_attention(rng):
    run_multi_input_layer_test(
        layers.GroupQueryAttention,
        {"head_dim": 3, "num_query_heads": 4, "num_key_value_heads": 2},
        [data(rng, 2, 4, 5), data(rng, 2, 4, 5)], expected_output_shape=(2, 4, 5),
        expected_num_trainable_weights=8)


def test_layer_checks_cross_attention_with_key_gate_and_scores(rng):
    run_multi_input_layer_test(
        layers.GroupQueryAttention,
        {"head_dim": 2, "num_query_heads": 3, "num_key_value_heads": 1, "use_gate": True,
         "sliding_window": 2},
        [data(rng, 2, 3, 5), data(rng, 2, 4, 7), data(rng, 2, 4, 2)],
        call_kwargs={"return_attention_scores": True},
        expected_output_shape=[(2, 3, 5), (2, 3, 3, 4)], expected_num_trainable_weights=10)


def test_weights_have_keras_names_shapes_and_order(rng):
    layer = layers.GroupQueryAttention(head_dim=3, num_query_heads=4, num_key_value_heads=2,
                                       use_gate=True)
    layer(data(rng, 2, 6, 8), data(rng, 2, 7, 10))
    assert layer.name == "grouped_query_attention"
    assert [(w.path, w.shape) for w in layer.weights] == [
        ("query/kernel", (8, 4, 3)),
        ("query/bias", (4, 3)),
        ("key/kernel", (10, 2, 3)),
        ("key/bias", (2, 3)),
        ("gate/kernel", (8, 4, 3)),
        ("gate/bias", (4, 3)),
        ("value/kernel", (10, 2, 3)),
        ("value/bias", (2, 3)),
        ("attention_output/kernel", (4, 3, 8)),
        ("attention_output/bias", (8,)),
    ]


@pytest.mark.parametrize("kv_heads", [1, 2, 4])
def test_values_match_the_definition(kv_heads, rng):
    query, value = data(rng, 2, 4, 6), data(rng, 2, 5, 7)
    layer = randomized(rng, layers.GroupQueryAttention(
        head_dim=3, num_query_heads=4, num_key_value_heads=kv_heads), query, value)
    out, scores = layer(query, value, return_attention_scores=True)
    want, probs = reference_gqa(layer, query, value)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(scores, probs, rtol=1e-4, atol=1e-6)


def test_sliding_window_with_causal_mask_is_a_band_below_the_diagonal(rng):
    x = data(rng, 1, 6, 4)
    layer = randomized(rng, layers.GroupQueryAttention(
        head_dim=2, num_query_heads=2, num_key_value_heads=1, sliding_window=3), x, x)
    _, scores = layer(x, x, return_attention_scores=True, use_causal_mask=True)
    i, j = np.indices((6, 6))
    allowed = (j <= i) & (i - j < 3)  # the key itself and the two before it
    assert np.all(np.asarray(scores)[..., ~allowed] == 0)
    assert np.all(np.asarray(scores)[..., allowed] > 0)
    want, _ = reference_gqa(layer, x, x, mask=(np.abs(i - j) < 3)[None, None], causal=True)
    np.testing.assert_allclose(layer(x, x, use_causal_mask=True), want, rtol=1e-4, atol=1e-5)


def test_gate_multiplies_the_heads_by_a_sigmoid_of_the_query(rng):
    query, value = data(rng, 2, 3, 4), data(rng, 2, 5, 4)
    gated = randomized(rng, layers.GroupQueryAttention(
        head_dim=2, num_query_heads=4, num_key_value_heads=2, use_gate=True), query, value)
    wq, bq, wk, bk, wg, bg, wv, bv, wo, bo = [w.astype(np.float64) for w in gated.get_weights()]
    q = np.einsum("btd,dnh->btnh", query, wq) + bq
    k = np.repeat(np.einsum("bsd,dnh->bsnh", value, wk) + bk, 2, axis=2)
    v = np.repeat(np.einsum("bsd,dnh->bsnh", value, wv) + bv, 2, axis=2)
    heads, _ = reference_attention(q, k, v)
    gate = 1 / (1 + np.exp(-(np.einsum("btd,dnh->btnh", query, wg) + bg)))
    want = np.einsum("btnh,nhe->bte", heads * gate, wo) + bo
    np.testing.assert_allclose(gated(query, value), want, rtol=1e-4, atol=1e-5)


def test_masks_from_the_query_and_value(rng):
    query, value = data(rng, 2, 3, 4), data(rng, 2, 5, 4)
    layer = randomized(rng, layers.GroupQueryAttention(
        head_dim=2, num_query_heads=2, num_key_value_heads=2), query, value)
    value_mask = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 1]], bool)
    _, scores = layer(query, value, value_mask=value_mask, return_attention_scores=True)
    assert np.all(np.asarray(scores)[0, :, :, 3:] == 0)
    assert np.all(np.asarray(scores)[1, :, :, 1] == 0)
    want, _ = reference_gqa(layer, query, value, mask=value_mask[:, None, None, :])
    np.testing.assert_allclose(layer(query, value, value_mask=value_mask), want, rtol=1e-4,
                               atol=1e-5)


def test_config_round_trip_keeps_every_argument():
    layer = layers.GroupQueryAttention(head_dim=2, num_query_heads=6, num_key_value_heads=3,
                                       dropout=0.1, use_bias=False, sliding_window=4,
                                       use_gate=True, seed=7)
    config = layer.get_config()
    assert {k: config[k] for k in ("head_dim", "num_query_heads", "num_key_value_heads",
                                   "dropout", "use_bias", "sliding_window", "use_gate",
                                   "seed")} == {
        "head_dim": 2, "num_query_heads": 6, "num_key_value_heads": 3, "dropout": 0.1,
        "use_bias": False, "sliding_window": 4, "use_gate": True, "seed": 7}
    assert layers.GroupQueryAttention.from_config(config).get_config() == config


@pytest.mark.parametrize("kwargs, message", [
    ({"head_dim": 0, "num_query_heads": 2, "num_key_value_heads": 1}, "head_dim"),
    ({"head_dim": 2, "num_query_heads": 3, "num_key_value_heads": 2}, "multiple"),
    ({"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1, "sliding_window": 0},
     "sliding_window"),
    ({"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1, "dropout": 1.5},
     "dropout"),
])
def test_bad_constructor_arguments(kwargs, message):
    with pytest.raises(ValueError, match=f"{message}.*Received"):
        layers.GroupQueryAttention(**kwargs)


def test_inputs_must_be_sequences_of_vectors():
    layer = layers.GroupQueryAttention(head_dim=2, num_query_heads=2, num_key_value_heads=1)
    with pytest.raises(ValueError, match="GroupQueryAttention.*Received"):
        layer(np.ones((2, 3, 4, 5), "float32"), np.ones((2, 3, 4, 5), "float32"))
