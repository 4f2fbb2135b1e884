"""`dot_product_attention` composed from MatMul, Softmax and Where.

The backend's layout is Keras's: query `(B, T, N, H)`, key `(B, S, N, H)`,
value `(B, S, N, Hv)`, scores `(B, N, T, S)`.
"""

import math

import numpy as np

from .registry import translates


@translates("dot_product_attention")
def _dot_product_attention(g, op):
    query, key, value = op.inputs[:3]
    dtype = op.outputs[0].dtype
    mask = op.attrs.get("mask")
    scale = op.attrs.get("scale")
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    q = g.node("Transpose", [g.value(query, dtype)], perm=[0, 2, 1, 3])
    k = g.node("Transpose", [g.value(key, dtype)], perm=[0, 2, 3, 1])
    v = g.node("Transpose", [g.value(value, dtype)], perm=[0, 2, 1, 3])
    scores = g.node("Mul", [g.node("MatMul", [q, k]), g.scalar(scale, dtype)])
    keep = None if mask is None else g.value(mask, np.bool_)
    if op.attrs.get("is_causal"):
        t, s = query.shape[1], key.shape[1]
        if t is None or s is None:
            raise g.error("a causal mask over sequences of unknown length")
        causal = g.constant(np.tril(np.ones((t, s), dtype=bool)), hint="causal_mask")
        keep = causal if keep is None else g.node("And", [keep, causal])
    if keep is not None:
        lowest = g.scalar(-0.7 * float(np.finfo(dtype).max), dtype)
        scores = g.node("Where", [keep, scores, lowest])
    probs = g.node("Softmax", [scores], axis=-1)
    out = g.node("Transpose", [g.node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    return (out, probs) if len(op.outputs) > 1 else (out,)
