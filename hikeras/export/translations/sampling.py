"""`map_coordinates`: the input sampled at computed coordinates, as `GatherND`s.

Each tap (one for order 0, `2**rank` corners for order 1) computes its integer
index per axis, maps indices outside the input back as `fill_mode` says (or
marks them to read `fill_value`), gathers the entries and adds them weighted.
The arithmetic runs in float64, as the backend's does; the input's sizes must
be known at export time.
"""

import itertools

import numpy as np

from .registry import translates


def _mirror(g, index, size):
    """|((index + span) mod 2 span) - span|, span = size - 1: reflection, edges once."""
    if size == 1:
        return g.node("Mul", [index, g.scalar(0, np.int64)])
    span = g.scalar(size - 1, np.int64)
    folded = g.node("Mod", [g.node("Add", [index, span]), g.scalar(2 * (size - 1), np.int64)])
    return g.node("Abs", [g.node("Sub", [folded, span])])


def _fix(g, index, size, fill_mode):
    """`(index inside the axis, bool value: whether the entry exists, or None)`."""
    if fill_mode == "nearest":
        return g.node("Clip", [index, g.scalar(0, np.int64), g.scalar(size - 1, np.int64)]), None
    if fill_mode == "wrap":
        return g.node("Mod", [index, g.scalar(size, np.int64)]), None
    if fill_mode == "mirror":
        return _mirror(g, index, size), None
    if fill_mode == "reflect":  # edges repeated: mirror on the half-sample grid
        doubled = g.node("Add", [g.node("Mul", [index, g.scalar(2, np.int64)]),
                                 g.scalar(1, np.int64)])
        mirrored = _mirror(g, doubled, 2 * size + 1)
        return g.node("Div", [g.node("Sub", [mirrored, g.scalar(1, np.int64)]),
                              g.scalar(2, np.int64)]), None
    valid = g.node("And", [g.node("GreaterOrEqual", [index, g.scalar(0, np.int64)]),
                           g.node("Less", [index, g.scalar(size, np.int64)])])
    return g.node("Where", [valid, index, g.scalar(0, np.int64)]), valid


@translates("map_coordinates")
def _map_coordinates(g, op):
    x, coordinates = op.inputs
    sizes = tuple(x.shape)
    if any(s is None for s in sizes):
        raise g.error(f"an input of unknown size ({sizes}) to sample from")
    order = int(op.attrs.get("order", 1))
    fill_mode = op.attrs.get("fill_mode", "constant")
    table = g.value(x)
    coords = g.value(coordinates, np.float64)
    per_axis = []
    for axis, size in enumerate(sizes):
        row = g.node("Gather", [coords, g.scalar(axis, np.int64)], axis=0)
        if order == 0:
            per_axis.append([(g.cast(g.node("Round", [row]), np.int64), None)])
            continue
        lower = g.node("Floor", [row])
        frac = g.node("Sub", [row, lower])
        lower = g.cast(lower, np.int64)
        upper = g.node("Add", [lower, g.scalar(1, np.int64)])
        per_axis.append([(lower, g.node("Sub", [g.scalar(1, np.float64), frac])),
                         (upper, frac)])
    fixed = [[(*_fix(g, index, size, fill_mode), weight) for index, weight in taps]
             for taps, size in zip(per_axis, sizes)]
    total = None
    for corner in itertools.product(*fixed):
        where = g.node("Concat", [g.node("Unsqueeze", [index, g.ints([-1], "axes")])
                                  for index, _, _ in corner], axis=-1)
        values = g.cast(g.node("GatherND", [table, where]), np.float64)
        valid = [v for _, v, _ in corner if v is not None]
        if valid:
            inside = valid[0]
            for v in valid[1:]:
                inside = g.node("And", [inside, v])
            fill = g.scalar(op.attrs.get("fill_value", 0.0), np.float64)
            values = g.node("Where", [inside, values, fill])
        for _, _, weight in corner:
            if weight is not None:
                values = g.node("Mul", [values, weight])
        total = values if total is None else g.node("Add", [total, values])
    return g.cast(total, op.outputs[0].dtype)
