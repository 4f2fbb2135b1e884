"""Ops that move entries without changing them: flip, roll, diagonals, gathers along
an axis.

`flip` is a `Slice` with step -1; `roll` joins the two slices the shift cuts
(its shift taken modulo the axis length, read from the shape at run time);
`diagonal` gathers the flat positions of the diagonal from the last two axes
(whose lengths must be known); `take_along_axis` is `GatherElements` after
both operands are broadcast against each other on the other axes.
"""

import numpy as np

from ._common import positive_axes, rank_of
from .registry import translates

_END = np.iinfo(np.int64).max


@translates("flip")
def _flip(g, op):
    x = op.inputs[0]
    axes = positive_axes(op.attrs.get("axis"), rank_of(x))
    n = len(axes)
    return g.node("Slice", [g.value(x), g.ints([-1] * n, "starts"), g.ints([-_END] * n, "ends"),
                            g.ints(axes, "axes"), g.ints([-1] * n, "steps")])


def _roll_axis(g, x, shift, axis):
    """`x` rolled by `shift` along `axis`: the last `shift % n` entries move to the front."""
    n = g.node("Gather", [g.node("Shape", [x]), g.ints([axis], "axis")], axis=0)
    cut = g.node("Sub", [n, g.node("Mod", [g.ints([shift], "shift"), n])])
    axes = g.ints([axis], "axes")
    tail = g.node("Slice", [x, cut, g.ints([_END], "ends"), axes])
    head = g.node("Slice", [x, g.ints([0], "starts"), cut, axes])
    return g.node("Concat", [tail, head], axis=axis)


@translates("roll")
def _roll(g, op):
    x = op.inputs[0]
    shift, axis = op.attrs["shift"], op.attrs.get("axis")
    value = g.value(x)
    flat = axis is None
    if flat:
        value, axis = g.node("Reshape", [value, g.ints([-1], "shape")]), 0
    shifts, axes = np.broadcast_arrays(np.asarray(shift).reshape(-1),
                                       np.asarray(axis).reshape(-1))
    for s, a in zip(shifts, axes):
        value = _roll_axis(g, value, int(s), int(a) % max(rank_of(x), 1) if not flat else 0)
    if flat:
        value = g.node("Reshape", [value, g.node("Shape", [g.value(x)])])
    return value


@translates("diagonal")
def _diagonal(g, op):
    x = op.inputs[0]
    rank = rank_of(x)
    offset = int(op.attrs.get("offset", 0))
    a1, a2 = (int(op.attrs.get(k, d)) % rank for k, d in (("axis1", 0), ("axis2", 1)))
    rows, cols = x.shape[a1], x.shape[a2]
    if rows is None or cols is None:
        raise g.error(f"a diagonal of planes of unknown size ({x.shape}, axes {a1}, {a2})")
    rest = [i for i in range(rank) if i not in (a1, a2)]
    planes = g.node("Transpose", [g.value(x)], perm=rest + [a1, a2])
    flat = g.node("Reshape", [planes, g.ints([0] * len(rest) + [rows * cols], "shape")])
    length = op.outputs[0].shape[-1]
    i = np.arange(length)
    positions = (i + max(-offset, 0)) * cols + i + max(offset, 0)
    return g.node("Gather", [flat, g.ints(positions, "positions")], axis=len(rest))


@translates("take_along_axis")
def _take_along_axis(g, op):
    x, indices = op.inputs
    axis = op.attrs.get("axis", -1)
    if axis is None:
        flat = g.node("Reshape", [g.value(x), g.ints([-1], "shape")])
        return g.node("Gather", [flat, g.value(indices)], axis=0)
    rank = rank_of(x)
    axis = int(axis) % rank
    # Broadcast both to their common shape on every axis but `axis` (Expand broadcasts
    # both ways, so a 1 there keeps each operand's own length).
    keep = np.ones(rank, np.int64)
    keep[axis] = 0
    x_value, index_value = g.value(x), g.value(indices)
    common = g.node("Max", [g.node("Shape", [x_value]), g.node("Shape", [index_value])])
    target = g.node("Add", [g.node("Mul", [common, g.ints(keep, "keep")]),
                            g.ints(1 - keep, "axis")])
    return g.node("GatherElements", [g.node("Expand", [x_value, target]),
                                     g.node("Expand", [index_value, target])], axis=axis)
