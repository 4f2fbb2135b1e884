"""`dot_product_attention`: scaled dot-product attention as one op.

Inputs use Keras's multi-head layout: query `(B, T, N, H)`, key
`(B, S, N, H)`, value `(B, S, N, Hv)`. The forward pass is two batched
matrix products around a masked softmax, computed in place on one
`(B, N, T, S)` buffer; the hand-written backward needs only the inputs and
the attention probabilities, so no other intermediate is kept.

Masked positions (mask `False`) get probability exactly 0. A query row whose
every key is masked attends uniformly to all keys, as in Keras's fused path.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define
from .random_ops import _generator


def _check_shapes(q, k, v):
    if len(q) != 4 or len(k) != 4 or len(v) != 4:
        raise ValueError(
            "dot_product_attention expects query, key and value of rank 4, "
            "(batch, length, heads, depth). "
            f"Received: query.shape={q}, key.shape={k}, value.shape={v}"
        )

    def clash(a, b):
        return a is not None and b is not None and a != b

    if (clash(q[0], k[0]) or clash(k[0], v[0]) or clash(q[2], k[2]) or clash(k[2], v[2])
            or clash(q[3], k[3]) or clash(k[1], v[1])):
        raise ValueError(
            "dot_product_attention: query and key must agree in batch, heads and depth, "
            "and key and value in batch, length and heads. "
            f"Received: query.shape={q}, key.shape={k}, value.shape={v}"
        )


def _attention_shape(query, key, value, return_scores=False, **_):
    q, k, v = (rules.shape_of(x) for x in (query, key, value))
    _check_shapes(q, k, v)
    dtype = rules.result_dtype(query, key, value)
    output = SymbolicTensor((q[0], q[1], q[2], v[3]), dtype)
    if not return_scores:
        return (output,)
    return output, SymbolicTensor((q[0], q[2], q[1], k[1]), dtype)


def causal_mask(query_length, key_length):
    """`(T, S)` booleans: query `i` may attend to keys `j <= i`."""
    return np.tril(np.ones((query_length, key_length), dtype=bool))


def _large_negative(dtype):
    # Far below any real score, yet far enough from -inf that subtracting the
    # row maximum cannot overflow.
    return -0.7 * float(np.finfo(dtype).max)


@define("dot_product_attention", shape=_attention_shape, num_outputs=None,
        save_inputs=(0, 1, 2), residual=True)
def dot_product_attention(query, key, value, mask=None, scale=None, is_causal=False,
                          dropout=0.0, rng=None, return_scores=False):
    """`softmax(scale * q k^T, masked) @ v` per batch entry and head.

    Args:
        query, key, value: `(B, T, N, H)`, `(B, S, N, H)`, `(B, S, N, Hv)`.
        mask: booleans broadcastable to `(B, N, T, S)`; `True` attends.
        scale: factor on the scores; default `1 / sqrt(H)`.
        is_causal: also mask keys after each query position.
        dropout: rate at which attention probabilities are dropped (and the
            rest scaled by `1 / (1 - dropout)`); the returned scores are the
            probabilities before dropout.
        rng: `numpy.random.Generator` (or seed) drawing the dropout mask.
        return_scores: also return the `(B, N, T, S)` probabilities.

    Returns:
        A tuple: the `(B, T, N, Hv)` output, then the probabilities if asked.
    """
    _check_shapes(query.shape, key.shape, value.shape)
    dtype = np.result_type(query, key, value)
    scale = 1.0 / np.sqrt(query.shape[-1]) if scale is None else float(scale)
    q = query.transpose(0, 2, 1, 3).astype(dtype, copy=False)
    k = key.transpose(0, 2, 3, 1).astype(dtype, copy=False)
    scores = np.matmul(q, k)
    scores *= scale
    keep = None if mask is None else np.asarray(mask, dtype=bool)
    if is_causal:
        causal = causal_mask(scores.shape[-2], scores.shape[-1])
        keep = causal if keep is None else keep & causal
    if keep is not None:
        np.copyto(scores, _large_negative(dtype), where=~keep)
    scores -= scores.max(axis=-1, keepdims=True)
    probs = np.exp(scores, out=scores)
    probs /= probs.sum(axis=-1, keepdims=True)
    weights, dropped = probs, None
    if dropout:
        kept = _generator(rng).random(probs.shape, dtype=np.float32) >= dropout
        dropped = np.multiply(kept, 1.0 / (1.0 - dropout), dtype=dtype)
        weights = probs * dropped
    v = value.transpose(0, 2, 1, 3).astype(dtype, copy=False)
    # Written straight into the (B, T, N, Hv) layout, so the output projection
    # that follows reads a contiguous array.
    output = np.empty(query.shape[:3] + value.shape[3:], dtype)
    np.matmul(weights, v, out=output.transpose(0, 2, 1, 3))
    outputs = (output, probs) if return_scores else (output,)
    return outputs, (probs, dropped, scale)


@dot_product_attention.defvjp
def _dot_product_attention_vjp(node, g):
    query, key, value = node.inputs
    probs, dropped, scale = node.residual
    dtype = probs.dtype
    g_out = g[0].transpose(0, 2, 1, 3)  # (B, N, T, Hv)
    weights = probs if dropped is None else probs * dropped
    g_value = None
    if node.input_refs[2] is not None:
        g_value = np.matmul(weights.transpose(0, 1, 3, 2), g_out).transpose(0, 2, 1, 3)
        g_value = g_value.astype(value.dtype, copy=False)
    if node.input_refs[0] is None and node.input_refs[1] is None:
        return None, None, g_value
    g_probs = np.matmul(g_out, value.transpose(0, 2, 3, 1).astype(dtype, copy=False))
    if dropped is not None:
        g_probs *= dropped
    if len(g) > 1:
        g_probs += g[1]
    # Softmax backward, then the scale: d scores = scale * p * (dp - sum(dp * p)).
    row = np.sum(g_probs * probs, axis=-1, keepdims=True)
    g_probs -= row
    g_probs *= probs
    g_probs *= scale
    g_query = g_key = None
    if node.input_refs[0] is not None:
        g_query = np.matmul(g_probs, key.transpose(0, 2, 1, 3).astype(dtype, copy=False))
        g_query = g_query.transpose(0, 2, 1, 3).astype(query.dtype, copy=False)
    if node.input_refs[1] is not None:
        g_key = np.matmul(g_probs.transpose(0, 1, 3, 2),
                          query.transpose(0, 2, 1, 3).astype(dtype, copy=False))
        g_key = g_key.transpose(0, 2, 1, 3).astype(key.dtype, copy=False)
    return g_query, g_key, g_value
