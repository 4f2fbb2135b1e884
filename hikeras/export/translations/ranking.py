"""The k largest entries along the last axis: `top_k` as ONNX's `TopK`, and `in_top_k`.

`TopK` breaks ties by index, as the backend (and TensorFlow) does; NaN ranks
as +inf there, tied with it.
`in_top_k` counts the entries strictly larger than the target's, so ties
with it count for it, and a non-finite or out-of-range target is never in.
"""

import numpy as np

from ._common import is_float
from .registry import translates


@translates("top_k")
def _top_k(g, op):
    x = op.inputs[0]
    dtype = np.dtype(x.dtype)
    work = dtype if dtype in (np.float32, np.float64, np.int32, np.int64) else np.dtype(
        np.float32 if is_float(dtype) else np.int64)
    value = g.value(x, work)
    key = value
    if is_float(work):  # NaN ranks as +inf (ties with it by index), as in the backend
        key = g.node("Where", [g.node("IsNaN", [value]), g.scalar(np.inf, work), value])
    values, indices = g.node("TopK", [key, g.ints([op.attrs["k"]], "k")], outputs=2, axis=-1,
                             largest=1, sorted=1)
    if is_float(work):
        values = g.node("GatherElements", [value, indices], axis=-1)
    values = values if work == dtype else g.cast(values, dtype)
    return values, g.cast(indices, op.outputs[1].dtype)


@translates("in_top_k")
def _in_top_k(g, op):
    targets, predictions = op.inputs
    scores = g.value(predictions)
    dtype = np.dtype(predictions.dtype)
    ids = g.value(targets, np.int64)
    classes = g.node("Gather", [g.node("Shape", [scores]), g.ints([1], "axis")], axis=0)
    valid = g.node("And", [g.node("GreaterOrEqual", [ids, g.scalar(0, np.int64)]),
                           g.node("Less", [ids, classes])])
    safe = g.node("Where", [valid, ids, g.scalar(0, np.int64)])
    chosen = g.node("GatherElements", [scores, g.node("Unsqueeze", [safe, g.ints([1], "axes")])],
                    axis=1)
    larger = g.cast(g.node("Greater", [scores, chosen]), np.int64)
    count = g.node("ReduceSum", [larger, g.ints([1], "axes")], keepdims=0)
    inside = g.node("And", [valid, g.node("Less", [count, g.scalar(op.attrs["k"], np.int64)])])
    if is_float(dtype):
        chosen = g.node("Squeeze", [chosen, g.ints([1], "axes")])
        finite = g.node("Not", [g.node("Or", [g.node("IsNaN", [chosen]),
                                              g.node("IsInf", [chosen])])])
        inside = g.node("And", [inside, finite])
    return inside
