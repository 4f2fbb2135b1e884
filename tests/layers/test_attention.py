"""Attention (Luong) and AdditiveAttention (Bahdanau) against numpy formulas."""

import numpy as np
import pytest

from hikeras import layers
from tests.helpers.multi_input_layer_test import call_with_list, run_multi_input_layer_test


def data(rng, *shape):
    return rng.standard_normal(shape).astype("float32")


def reference(scores, value, query_mask=None, value_mask=None, causal=False):
    """Masked softmax over the last axis, weighted sum of `value`, then the query mask."""
    keep = np.ones(scores.shape, bool)
    if value_mask is not None:
        keep &= value_mask[:, None, :]
    if causal:
        keep &= np.tril(np.ones(scores.shape[-2:], bool))
    weights = np.zeros(scores.shape)
    for b, t in np.ndindex(*scores.shape[:2]):
        live = keep[b, t]
        e = np.exp(scores[b, t] - scores[b, t][live].max()) * live
        weights[b, t] = e / e.sum()
    out = weights @ value
    if query_mask is not None:
        out = out * query_mask[:, :, None]
    return out, weights


@pytest.mark.parametrize("init_kwargs, weights", [
    ({}, 0),
    ({"use_scale": True}, 1),
    ({"score_mode": "concat"}, 1),
    ({"score_mode": "concat", "use_scale": True}, 2),
])
def test_attention_layer_checks(init_kwargs, weights, rng):
    run_multi_input_layer_test(
        layers.Attention, init_kwargs, [data(rng, 2, 3, 4), data(rng, 2, 5, 4), data(rng, 2, 5, 4)],
        call=call_with_list, expected_output_shape=(2, 3, 4),
        expected_num_trainable_weights=weights)


@pytest.mark.parametrize("use_scale, weights", [(True, 1), (False, 0)])
def test_additive_attention_layer_checks(use_scale, weights, rng):
    layer = run_multi_input_layer_test(
        layers.AdditiveAttention, {"use_scale": use_scale},
        [data(rng, 2, 3, 4), data(rng, 2, 5, 4)],
        call=call_with_list, call_kwargs={"return_attention_scores": True},
        expected_output_shape=[(2, 3, 4), (2, 3, 5)], expected_num_trainable_weights=weights)
    if use_scale:
        assert layer.weights[0].name == "scale" and layer.weights[0].shape == (4,)


def test_dot_scores_with_learned_scale_masks_and_causal_mask(rng):
    query, value, key = data(rng, 2, 4, 3), data(rng, 2, 4, 2), data(rng, 2, 4, 3)
    query_mask = np.array([[1, 1, 1, 0], [1, 1, 1, 1]], bool)
    value_mask = np.array([[1, 0, 1, 1], [1, 1, 0, 1]], bool)
    layer = layers.Attention(use_scale=True)
    layer([query, value, key])
    layer.set_weights([np.array(1.7)])
    out, weights = layer([query, value, key], mask=[query_mask, value_mask],
                         use_causal_mask=True, return_attention_scores=True)
    scores = 1.7 * np.einsum("btd,bsd->bts", query, key)
    expected, expected_weights = reference(scores, value, query_mask, value_mask, causal=True)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-5, atol=1e-7)
    assert np.all(out[0, 3] == 0)  # masked query


def test_concat_scores(rng):
    query, value = data(rng, 2, 3, 4), data(rng, 2, 5, 4)
    layer = layers.Attention(score_mode="concat", use_scale=True)
    layer([query, value])
    layer.set_weights([np.array(0.5), np.array(2.0)])  # scale, concat_score_weight
    out = layer([query, value])
    scores = 2.0 * np.tanh(0.5 * (query[:, :, None, :] + value[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(out, reference(scores, value)[0], rtol=1e-5, atol=1e-6)


def test_additive_scores_with_masks(rng):
    query, value = data(rng, 2, 3, 4), data(rng, 2, 5, 4)
    value_mask = np.array([[1, 1, 0, 0, 1], [0, 1, 1, 1, 1]], bool)
    layer = layers.AdditiveAttention()
    layer([query, value])
    scale = rng.standard_normal(4)
    layer.set_weights([scale])
    out = layer([query, value], mask=[None, value_mask])
    scores = (scale * np.tanh(query[:, :, None, :] + value[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(out, reference(scores, value, value_mask=value_mask)[0],
                               rtol=1e-5, atol=1e-6)


def test_dropout_applies_only_in_training(rng):
    layer = layers.Attention(dropout=0.5, seed=2)
    query, value = data(rng, 2, 6, 4), data(rng, 2, 6, 4)
    inference = layer([query, value])
    np.testing.assert_allclose(inference, reference(np.einsum("btd,bsd->bts", query, value),
                                                    value)[0], rtol=1e-5, atol=1e-6)
    assert not np.allclose(layer([query, value], training=True), inference)


def test_configs_match_keras():
    assert layers.Attention(use_scale=True, dropout=0.1).get_config().items() >= {
        "use_scale": True, "score_mode": "dot", "dropout": 0.1, "seed": None}.items()
    assert "score_mode" not in layers.AdditiveAttention().get_config()
    assert layers.AdditiveAttention().get_config()["use_scale"] is True


@pytest.mark.parametrize("inputs, mask, message", [
    ("one", None, "must be called on a list"),
    ([np.ones((2, 3, 4), "float32")], None, "must be called on a list"),
    ([np.ones((2, 3), "float32"), np.ones((2, 3), "float32")], None, "rank 3"),
    ([np.ones((2, 3, 4), "float32")] * 2, np.ones((2, 3), bool), "mask must be a list"),
])
def test_bad_inputs(inputs, mask, message):
    with pytest.raises(ValueError, match=f"{message}.*Received"):
        layers.Attention()(inputs, mask=mask)


def test_bad_score_mode():
    with pytest.raises(ValueError, match="score_mode.*Received: score_mode='sum'"):
        layers.Attention(score_mode="sum")


