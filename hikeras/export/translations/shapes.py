"""Shape and indexing ops: reshape, transpose, expand/squeeze, joining, slicing, gathers."""

import numpy as np

from ._common import positive_axes, rank_of
from .registry import translates

_END = np.iinfo(np.int64).max


@translates("reshape")
def _reshape(g, op):
    shape = op.attrs["shape"]
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if any(d is None for d in shape):
        raise g.error(f"a reshape to a shape with unknown dimensions ({shape})")
    return g.node("Reshape", [g.value(op.inputs[0]), g.ints(shape, "shape")])


@translates("transpose")
def _transpose(g, op):
    axes = op.attrs.get("axes")
    rank = rank_of(op.inputs[0])
    perm = list(reversed(range(rank))) if axes is None else [int(a) % rank for a in axes]
    return g.node("Transpose", [g.value(op.inputs[0])], perm=perm)


@translates("expand_dims")
def _expand_dims(g, op):
    rank = len(op.outputs[0].shape)
    axes = positive_axes(op.attrs["axis"], rank)
    return g.node("Unsqueeze", [g.value(op.inputs[0]), g.ints(axes, "axes")])


@translates("squeeze")
def _squeeze(g, op):
    x = op.inputs[0]
    axis = op.attrs.get("axis")
    if axis is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    else:
        axes = positive_axes(axis, rank_of(x))
    return g.node("Squeeze", [g.value(x), g.ints(axes, "axes")])


@translates("broadcast_to")
def _broadcast_to(g, op):
    shape = [1 if d is None else d for d in op.attrs["shape"]]
    dtype = op.outputs[0].dtype
    return g.node("Expand", [g.value(op.inputs[0], dtype), g.ints(shape, "shape")])


@translates("tile")
def _tile(g, op):
    x = op.inputs[0]
    reps = op.attrs["repeats"]
    reps = [reps] if isinstance(reps, (int, np.integer)) else list(reps)
    value = g.value(x)
    rank = rank_of(x)
    if len(reps) > rank:  # numpy prepends axes to the input
        value = g.node("Unsqueeze", [value, g.ints(range(len(reps) - rank), "axes")])
    reps = [1] * (rank - len(reps)) + reps
    return g.node("Tile", [value, g.ints(reps, "repeats")])


@translates("repeat")
def _repeat(g, op):
    x = op.inputs[0]
    repeats, axis = op.attrs["repeats"], op.attrs.get("axis")
    if axis is None or not isinstance(repeats, (int, np.integer)):
        raise g.error(f"repeat with repeats={repeats!r}, axis={axis!r} (only an integer count "
                      "along one axis exports)")
    rank = rank_of(x)
    axis = int(axis) % rank
    out_shape = op.outputs[0].shape
    if any(d is None for d in out_shape[axis + 1:]) or out_shape[axis] is None:
        raise g.error("repeat along or before an axis of unknown length")
    # (..., n, ...) -> (..., n, 1, ...) -> tiled (..., n, r, ...) -> (..., n * r, ...)
    spread = g.node("Unsqueeze", [g.value(x), g.ints([axis + 1], "axes")])
    reps = [1] * (rank + 1)
    reps[axis + 1] = int(repeats)
    tiled = g.node("Tile", [spread, g.ints(reps, "repeats")])
    target = [0] * axis + list(out_shape[axis:])
    return g.node("Reshape", [tiled, g.ints(target, "shape")])


@translates("pad")
def _pad(g, op):
    x = op.inputs[0]
    rank = rank_of(x)
    width = np.broadcast_to(np.asarray(op.attrs["pad_width"], dtype=np.int64), (rank, 2))
    mode = op.attrs.get("mode", "constant")
    modes = {"constant": "constant", "reflect": "reflect", "edge": "edge"}
    if mode not in modes:
        raise g.error(f"pad mode {mode!r}")
    dtype = op.outputs[0].dtype
    inputs = [g.value(x, dtype), g.ints(list(width[:, 0]) + list(width[:, 1]), "pads")]
    if mode == "constant":
        inputs.append(g.scalar(op.attrs.get("constant_values", 0), dtype))
    return g.node("Pad", inputs, mode=modes[mode])


@translates("concatenate")
def _concatenate(g, op):
    dtype = op.outputs[0].dtype
    rank = len(op.outputs[0].shape)
    axis = int(op.attrs.get("axis", 0)) % rank
    return g.node("Concat", [g.value(x, dtype) for x in op.inputs], axis=axis)


@translates("stack")
def _stack(g, op):
    dtype = op.outputs[0].dtype
    rank = len(op.outputs[0].shape)
    axis = int(op.attrs.get("axis", 0)) % rank
    parts = [g.node("Unsqueeze", [g.value(x, dtype), g.ints([axis], "axes")]) for x in op.inputs]
    return g.node("Concat", parts, axis=axis)


@translates("split")
def _split(g, op):
    sizes = [o.shape[int(op.attrs.get("axis", 0))] for o in op.outputs]
    if any(s is None for s in sizes):
        raise g.error("a split along an axis of unknown length")
    rank = rank_of(op.inputs[0])
    axis = int(op.attrs.get("axis", 0)) % rank
    outs = g.node("Split", [g.value(op.inputs[0]), g.ints(sizes, "split")], outputs=len(sizes),
                  axis=axis)
    return tuple(outs) if len(sizes) > 1 else (outs,)


@translates("gather_rows")
def _gather_rows(g, op):
    table, indices = op.inputs
    return g.node("Gather", [g.value(table), g.value(indices)], axis=0)


@translates("take")
def _take(g, op):
    x, indices = op.inputs
    axis = op.attrs.get("axis")
    value = g.value(x)
    if axis is None:
        value, axis = g.node("Reshape", [value, g.ints([-1], "shape")]), 0
    axis = int(axis) % max(rank_of(x), 1)
    return g.node("Gather", [value, g.value(indices)], axis=axis)


@translates("getitem")
def _getitem(g, op):
    x = op.inputs[0]
    key = op.attrs["key"]
    key = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, (np.ndarray, list)) for k in key):
        raise g.error("indexing with arrays")
    rank = rank_of(x)
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if Ellipsis in key:
        i = key.index(Ellipsis)
        key = key[:i] + (slice(None),) * (rank - consumed) + key[i + 1:]
    else:
        key = key + (slice(None),) * (rank - consumed)
    starts, ends, axes, steps, drop, new = [], [], [], [], [], []
    axis = pos = 0  # the input axis a key item reads; the output axis it makes
    for k in key:
        if k is None:
            new.append(pos)
            pos += 1
            continue
        if isinstance(k, (int, np.integer)):
            k = int(k)
            starts.append(k), ends.append(k + 1 if k != -1 else _END), axes.append(axis)
            steps.append(1)
            drop.append(axis)
        elif k != slice(None):
            step = 1 if k.step is None else int(k.step)
            default_start, default_end = (0, _END) if step > 0 else (-1, -_END)
            starts.append(default_start if k.start is None else int(k.start))
            ends.append(default_end if k.stop is None else int(k.stop))
            axes.append(axis), steps.append(step)
        if not isinstance(k, (int, np.integer)):
            pos += 1
        axis += 1
    value = g.value(x)
    if axes:
        value = g.node("Slice", [value, g.ints(starts, "starts"), g.ints(ends, "ends"),
                                 g.ints(axes, "axes"), g.ints(steps, "steps")])
    if drop:
        value = g.node("Squeeze", [value, g.ints(drop, "axes")])
    if new:
        value = g.node("Unsqueeze", [value, g.ints(new, "axes")])
    return value
