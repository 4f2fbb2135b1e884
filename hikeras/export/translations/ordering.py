"""Ops along one axis: running sums and products, sorting and its permutations.

`sort` and `argsort` are ONNX's `TopK` taking every entry in ascending order;
it breaks ties by index, so the order is numpy's stable one. `argpartition`
exports as that full stable sort, which is one of the arrangements
`argpartition` may return (the `kth` entry in its sorted place, no larger entry
before it, no smaller one after it). ONNX has no running product: `cumprod`
is a doubling scan in an ONNX `Loop` (pass `k` multiplies by the partial
products `2^k` places back), exact in integers.
"""

import numpy as np

from ._common import is_float, loop
from .registry import translates

_NATIVE_DTYPES = tuple(np.dtype(t) for t in ("float32", "float64", "int32", "int64"))


def _operand(g, op):
    """The input in a dtype onnxruntime's CumSum/TopK/Mul take, the axis, and the
    output dtype."""
    x = op.inputs[0]
    dtype = np.dtype(x.dtype)
    work = dtype if dtype in _NATIVE_DTYPES else np.dtype(
        np.float32 if is_float(dtype) else np.int64)
    axis = int(op.attrs.get("axis", -1)) % max(len(x.shape), 1)
    return g.value(x, work), axis, work, dtype


def _back(g, value, work, dtype):
    return value if np.dtype(work) == np.dtype(dtype) else g.cast(value, dtype)


@translates("cumsum")
def _cumsum(g, op):
    x, axis, work, dtype = _operand(g, op)
    return _back(g, g.node("CumSum", [x, g.scalar(axis, np.int64, "axis")]), work, dtype)


@translates("cumprod")
def _cumprod(g, op):
    x, axis, work, dtype = _operand(g, op)
    rank = len(op.inputs[0].shape)
    length = g.node("Gather", [g.node("Shape", [x]), g.scalar(axis, np.int64, "axis")], axis=0)
    # Pads that shift by `distance` along the axis: `distance` before, `-distance` after.
    direction = np.zeros(2 * rank, np.int64)
    direction[axis], direction[rank + axis] = 1, -1
    direction = g.ints(direction, "direction")

    def double(carried):
        y, distance = carried
        pads = g.node("Mul", [direction, distance])
        shifted = g.node("Pad", [y, pads, g.scalar(1, work)], mode="constant")
        farther = g.node("Mul", [distance, g.scalar(2, np.int64)])
        return g.node("Less", [farther, length]), [g.node("Mul", [y, shifted]), farther]

    one = g.scalar(1, np.int64, "distance")
    y, _ = loop(g, g.node("Less", [one, length]), [x, one], [work, np.int64], double)
    return _back(g, y, work, dtype)


def _ascending(g, op):
    """`(values, int64 indices)` of the input sorted along its axis, stable."""
    x, axis, work, dtype = _operand(g, op)
    length = g.node("Gather", [g.node("Shape", [x]), g.ints([axis], "axis")], axis=0)
    values, indices = g.node("TopK", [x, length], outputs=2, axis=axis, largest=0, sorted=1)
    return _back(g, values, work, dtype), indices


@translates("sort")
def _sort(g, op):
    return _ascending(g, op)[0]


@translates("argsort", "argpartition")
def _argsort(g, op):
    return g.cast(_ascending(g, op)[1], op.outputs[0].dtype)
