"""The fused `dot_product_attention` op against a per-head numpy loop."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(5)


def r(*shape):
    return random_array(_TABLE_RNG, *shape, low=-1.5, high=1.5)


def reference_attention(q, k, v, mask=None, scale=None, causal=False, keep=None):
    """Attention for each batch entry and head separately, from the definition.

    `keep` is an optional `(B, N, T, S)` dropout multiplier applied to the
    probabilities before they weight the values.
    """
    batch, length, heads, depth = q.shape
    source = k.shape[1]
    scale = 1.0 / np.sqrt(depth) if scale is None else scale
    allowed = np.ones((batch, heads, length, source), dtype=bool)
    if mask is not None:
        allowed &= np.broadcast_to(mask, allowed.shape)
    if causal:
        allowed &= np.arange(length)[:, None] >= np.arange(source)[None, :]
    out = np.zeros((batch, length, heads, v.shape[-1]))
    probs = np.zeros((batch, heads, length, source))
    for b in range(batch):
        for h in range(heads):
            for t in range(length):
                scores = np.array([scale * np.dot(q[b, t, h], k[b, s, h]) for s in range(source)])
                live = allowed[b, h, t]
                if live.any():
                    e = np.where(live, np.exp(scores - scores[live].max()), 0.0)
                else:  # nothing to attend to: uniform over all keys
                    e = np.ones(source)
                p = e / e.sum()
                probs[b, h, t] = p
                weights = p if keep is None else p * keep[b, h, t]
                out[b, t, h] = sum(weights[s] * v[b, s, h] for s in range(source))
    return out, probs


def _ref(**kw):
    return lambda q, k, v: reference_attention(q, k, v, **kw)


def _ref_output(**kw):
    return lambda q, k, v: reference_attention(q, k, v, **kw)[:1]


def _dropout_keep(seed, shape, rate):
    kept = np.random.default_rng(seed).random(shape, dtype=np.float32) >= rate
    return kept / (1.0 - rate)


_padding = np.array([[True, True, True, False, False], [True, True, True, True, True]])
_pair_mask = _TABLE_RNG.random((2, 1, 3, 5)) > 0.3
_pair_mask[..., 0] = True
CASES = [
    case("dot_product_attention", r(2, 3, 2, 4), r(2, 5, 2, 4), r(2, 5, 2, 3),
         attrs={"return_scores": True}, reference=_ref(), label="scores"),
    case("dot_product_attention", r(2, 3, 2, 4), r(2, 5, 2, 4), r(2, 5, 2, 3),
         reference=_ref_output(), label="output-only"),
    case("dot_product_attention", r(2, 3, 2, 4), r(2, 5, 2, 4), r(2, 5, 2, 4),
         attrs={"mask": _padding[:, None, None, :], "return_scores": True},
         reference=_ref(mask=_padding[:, None, None, :]), label="padding-mask"),
    case("dot_product_attention", r(2, 3, 2, 4), r(2, 5, 2, 4), r(2, 5, 2, 4),
         attrs={"mask": _pair_mask, "scale": 0.7, "return_scores": True},
         reference=_ref(mask=_pair_mask, scale=0.7), label="pair-mask-scale"),
    case("dot_product_attention", r(2, 4, 1, 3), r(2, 4, 1, 3), r(2, 4, 1, 2),
         attrs={"is_causal": True, "return_scores": True},
         reference=_ref(causal=True), label="causal"),
    case("dot_product_attention", r(2, 3, 2, 4), r(2, 5, 2, 4), r(2, 5, 2, 3),
         attrs={"dropout": 0.4, "rng": 3, "return_scores": True},
         reference=_ref(keep=_dropout_keep(3, (2, 2, 3, 5), 0.4)), label="dropout"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_masked_keys_get_exactly_zero_probability_and_gradient(rng):
    q, k, v = (rng.uniform(-1.5, 1.5, shape)
               for shape in [(1, 2, 1, 3), (1, 4, 1, 3), (1, 4, 1, 2)])
    mask = np.array([True, False, True, False])
    with GradientTape() as tape:
        tape.watch(k)
        tape.watch(v)
        out, probs = apply("dot_product_attention", q, k, v, mask=mask, return_scores=True)
    assert np.all(probs.value[..., ~mask] == 0.0)
    g_key, g_value = tape.gradient(out, [k, v])
    assert np.all(g_key[:, ~mask] == 0.0) and np.all(g_value[:, ~mask] == 0.0)


def test_fully_masked_rows_attend_uniformly(rng):
    q, k, v = (rng.uniform(-1.5, 1.5, shape)
               for shape in [(1, 2, 1, 3), (1, 4, 1, 3), (1, 4, 1, 2)])
    mask = np.array([[True, True, False, False], [False, False, False, False]])
    _, probs = apply("dot_product_attention", q, k, v, mask=mask, return_scores=True)
    np.testing.assert_allclose(probs[0, 0, 1], np.full(4, 0.25))


def test_float32_stays_float32_with_huge_scores():
    q = np.full((1, 2, 1, 2), 1e4, np.float32)
    mask = np.array([True, False])
    out, probs = apply("dot_product_attention", q, q, q, mask=mask, return_scores=True)
    assert out.dtype == np.float32 and np.isfinite(out).all()
    np.testing.assert_array_equal(probs[0, 0], [[1.0, 0.0], [1.0, 0.0]])


@pytest.mark.parametrize("shapes", [
    [(2, 3, 4), (2, 5, 4), (2, 5, 4)],
    [(2, 3, 2, 4), (2, 5, 2, 3), (2, 5, 2, 4)],
    [(2, 3, 2, 4), (2, 5, 2, 4), (2, 6, 2, 4)],
])
def test_mismatched_shapes_are_rejected(shapes):
    with pytest.raises(ValueError, match="Received: query.shape"):
        apply("dot_product_attention", *[np.ones(s) for s in shapes])
