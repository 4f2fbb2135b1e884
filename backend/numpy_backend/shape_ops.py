"""Ops that rearrange elements without arithmetic: reshape, transpose, tiling.

Forward kernels return numpy views where numpy does (reshape, transpose,
expand_dims, squeeze, broadcast_to), so they cost no copy. A view is never
written to by any kernel; `broadcast_to` views are read-only. All VJPs but
`repeat`'s and `pad`'s are traced (gradients of any order).
"""

import math as _math

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor, is_unknown_dim
from ._grad import unbroadcast
from ._registry import define
from ._traced import ops


def _target_shape(shape):
    """A reshape target as a tuple of ints; `None` entries mean -1 (inferred)."""
    target = tuple(-1 if is_unknown_dim(d) else int(d) for d in shape)
    if target.count(-1) > 1:
        raise ValueError(f"reshape can infer at most one dimension. Received: shape={shape}")
    return target


def _reshape_shape(x, shape, **_):
    """The reshaped spec. Unknown entries of `shape` (`None`, or a `SymbolicDim` while a
    layer is traced) stay unknown; with an unknown input dimension, so does -1."""
    source = rules.shape_of(x)
    if isinstance(shape, (int, np.integer)) or is_unknown_dim(shape):
        shape = (shape,)
    unknown = [is_unknown_dim(d) or d == -1 for d in shape]
    if sum(d is not None and not is_unknown_dim(d) and d == -1 for d in shape) > 1:
        raise ValueError(f"reshape can infer at most one dimension. Received: shape={shape}")
    if None in source or sum(unknown) > 1:
        known = _math.prod(int(d) for d, u in zip(shape, unknown) if not u)
        if None not in source and known and _math.prod(source) % known:
            raise ValueError(
                f"Cannot reshape a tensor of shape {source}. Received: shape={shape}")
        target = tuple(None if u else int(d) for d, u in zip(shape, unknown))
        return SymbolicTensor(target, rules.dtype_of(x))
    target = _target_shape(shape)
    total = _math.prod(source)
    known = _math.prod(d for d in target if d != -1)
    if -1 in target:
        if known == 0 or total % known:
            raise ValueError(f"Cannot reshape a tensor of shape {source}. Received: shape={shape}")
        target = tuple(total // known if d == -1 else d for d in target)
    elif known != total:
        raise ValueError(f"Cannot reshape a tensor of shape {source}. Received: shape={shape}")
    return SymbolicTensor(target, rules.dtype_of(x))


@define("reshape", shape=_reshape_shape)
def reshape(x, shape):
    """Reshapes; one entry of `shape` may be -1 (or `None`) to be inferred."""
    return np.reshape(x, _target_shape(shape))


def _reshape_back_vjp(node, g):
    return (ops.reshape(g, shape=node.input_shapes[0]),)


reshape.defvjp(_reshape_back_vjp, traceable=True)


def _transpose_axes(axes, ndim):
    if axes is None:
        return tuple(range(ndim - 1, -1, -1))
    axes = tuple(int(a) % ndim if ndim else int(a) for a in axes)
    if sorted(axes) != list(range(ndim)):
        raise ValueError(f"axes must be a permutation of range({ndim}). Received: axes={axes}")
    return axes


def _transpose_shape(x, axes=None, **_):
    shape = rules.shape_of(x)
    return SymbolicTensor(tuple(shape[a] for a in _transpose_axes(axes, len(shape))),
                          rules.dtype_of(x))


@define("transpose", shape=_transpose_shape)
def transpose(x, axes=None):
    return np.transpose(x, axes)


@transpose.defvjp(traceable=True)
def _transpose_vjp(node, g):
    axes = _transpose_axes(node.attrs.get("axes"), len(node.input_shapes[0]))
    return (ops.transpose(g, axes=tuple(int(a) for a in np.argsort(axes))),)


def _axes_tuple(axis):
    return (int(axis),) if isinstance(axis, (int, np.integer)) else tuple(int(a) for a in axis)


def _expand_dims_shape(x, axis, **_):
    shape = rules.shape_of(x)
    axes = rules.normalize_axes(_axes_tuple(axis), len(shape) + len(_axes_tuple(axis)))
    dims = iter(shape)
    out = tuple(1 if i in axes else next(dims) for i in range(len(shape) + len(axes)))
    return SymbolicTensor(out, rules.dtype_of(x))


@define("expand_dims", shape=_expand_dims_shape)
def expand_dims(x, axis):
    return np.expand_dims(x, _axes_tuple(axis))


expand_dims.defvjp(_reshape_back_vjp, traceable=True)


def _squeeze_shape(x, axis=None, **_):
    shape = rules.shape_of(x)
    if axis is None:
        # An unknown dimension is assumed not to be 1.
        out = tuple(d for d in shape if d != 1)
    else:
        axes = rules.normalize_axes(axis, len(shape))
        for a in axes:
            if shape[a] not in (1, None):
                raise ValueError(
                    f"Cannot squeeze axis {a} of size {shape[a]}. Received: axis={axis}"
                )
        out = tuple(d for i, d in enumerate(shape) if i not in axes)
    return SymbolicTensor(out, rules.dtype_of(x))


@define("squeeze", shape=_squeeze_shape)
def squeeze(x, axis=None):
    return np.squeeze(x, None if axis is None else _axes_tuple(axis))


squeeze.defvjp(_reshape_back_vjp, traceable=True)


def _broadcast_to_shape(x, shape, **_):
    shape = tuple(None if is_unknown_dim(d) else int(d) for d in shape)
    try:
        result = rules.broadcast_shapes(rules.shape_of(x), shape)
    except ValueError:
        result = None
    if result is None or len(result) != len(shape) or any(
            want is not None and got != want for got, want in zip(result, shape)):
        raise ValueError(
            f"Cannot broadcast a tensor of shape {rules.shape_of(x)} to {shape}. "
            f"Received: shape={shape}"
        )
    return SymbolicTensor(result, rules.dtype_of(x))


@define("broadcast_to", shape=_broadcast_to_shape)
def broadcast_to(x, shape):
    """A read-only broadcast view of `x` with `shape`."""
    return np.broadcast_to(x, tuple(shape))


@broadcast_to.defvjp(traceable=True)
def _broadcast_to_vjp(node, g):
    return (unbroadcast(g, node.input_shapes[0]),)


def _tile_layout(shape, repeats):
    """Input shape and repeats, both left-padded with ones to a common rank."""
    repeats = _axes_tuple(repeats)
    ndim = max(len(shape), len(repeats))
    return ((1,) * (ndim - len(shape)) + tuple(shape),
            (1,) * (ndim - len(repeats)) + repeats)


def _tile_shape(x, repeats, **_):
    """Tiled spec; an unknown repeat count (a `SymbolicDim`) makes its axis unknown."""
    entries = repeats if isinstance(repeats, (tuple, list)) else (repeats,)
    shape, reps = _tile_layout(rules.shape_of(x), [0 if is_unknown_dim(r) else r
                                                   for r in entries])
    reps = reps[:len(reps) - len(entries)] + tuple(
        None if is_unknown_dim(r) else rep for r, rep in zip(entries, reps[-len(entries):]))
    out = tuple(None if d is None or r is None else d * r for d, r in zip(shape, reps))
    return SymbolicTensor(out, rules.dtype_of(x))


@define("tile", shape=_tile_shape)
def tile(x, repeats):
    return np.tile(x, repeats)


@tile.defvjp(traceable=True)
def _tile_vjp(node, g):
    shape, reps = _tile_layout(node.input_shapes[0], node.attrs["repeats"])
    # Output axis i enumerates (copy r, element j) as r * shape[i] + j.
    interleaved = tuple(v for pair in zip(reps, shape) for v in pair)
    summed = ops.sum(ops.reshape(g, shape=interleaved),
                     axis=tuple(range(0, 2 * len(shape), 2)))
    return (ops.reshape(summed, shape=node.input_shapes[0]),)


def _repeat_shape(x, repeats, axis=None, **_):
    shape = rules.shape_of(x)
    if axis is None:
        shape = (None if None in shape else _math.prod(shape),)
        axis = 0
    axis = rules.normalize_axes(axis, len(shape))[0]
    reps = np.asarray(repeats)
    if reps.size == 1:
        size = None if shape[axis] is None else shape[axis] * int(reps.reshape(()))
    else:
        size = int(reps.sum())
    out = shape[:axis] + (size,) + shape[axis + 1:]
    return SymbolicTensor(out, rules.dtype_of(x))


@define("repeat", shape=_repeat_shape)
def repeat(x, repeats, axis=None):
    return np.repeat(x, repeats, axis=axis)


@repeat.defvjp
def _repeat_vjp(node, g):
    in_shape = node.input_shapes[0]
    axis = node.attrs.get("axis")
    shape = (_math.prod(in_shape),) if axis is None else in_shape
    axis = 0 if axis is None else int(axis) % len(in_shape)
    reps = np.asarray(node.attrs["repeats"]).reshape(-1)
    n = shape[axis]
    if reps.size == 1:
        grouped = np.reshape(g, shape[:axis] + (n, int(reps[0])) + shape[axis + 1:])
        return (grouped.sum(axis=axis + 1).reshape(in_shape),)
    # Sum each run of copies; entries repeated zero times get no gradient.
    reps = np.broadcast_to(reps, (n,))
    kept = np.flatnonzero(reps)
    starts = (np.cumsum(reps) - reps)[kept]
    gx = np.zeros(shape, dtype=g.dtype)
    index = (slice(None),) * axis + (kept,)
    gx[index] = np.add.reduceat(g, starts, axis=axis) if kept.size else 0
    return (gx.reshape(in_shape),)


# Modes whose padding copies input elements, so the adjoint is a scatter-add.
_COPYING_PAD_MODES = ("edge", "reflect", "symmetric", "wrap")


def _pad_pairs(pad_width, ndim):
    """`pad_width` in any form numpy accepts, as `ndim` (before, after) pairs."""
    pairs = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (ndim, 2))
    return tuple((int(b), int(a)) for b, a in pairs)


def _pad_shape(x, pad_width, mode="constant", constant_values=0, **_):
    shape = rules.shape_of(x)
    pairs = _pad_pairs(pad_width, len(shape))
    out = tuple(None if d is None else d + b + a for d, (b, a) in zip(shape, pairs))
    return SymbolicTensor(out, rules.dtype_of(x))


@define("pad", shape=_pad_shape)
def pad(x, pad_width, mode="constant", constant_values=0):
    """Pads like `np.pad`; `mode` is "constant" or one of the copying modes."""
    if mode == "constant":
        return np.pad(x, pad_width, mode="constant", constant_values=constant_values)
    if mode not in _COPYING_PAD_MODES:
        raise ValueError(
            f"pad supports modes {('constant',) + _COPYING_PAD_MODES}. Received: mode={mode!r}"
        )
    return np.pad(x, pad_width, mode=mode)


@pad.defvjp
def _pad_vjp(node, g):
    shape = node.input_shapes[0]
    pairs = _pad_pairs(node.attrs["pad_width"], len(shape))
    mode = node.attrs.get("mode", "constant")
    inner = tuple(slice(b, b + d) for d, (b, _) in zip(shape, pairs))
    if mode == "constant":
        return (g[inner],)
    # Padding is separable: undo it one axis at a time. Along an axis, the
    # padded positions copy the input positions `np.pad(arange(d), ...)`.
    for axis, (d, (b, a)) in enumerate(zip(shape, pairs)):
        if b == 0 and a == 0:
            continue
        source = np.pad(np.arange(d), (b, a), mode=mode)
        moved = np.moveaxis(g, axis, 0)
        gx = moved[b:b + d].copy()
        np.add.at(gx, source[:b], moved[:b])
        np.add.at(gx, source[b + d:], moved[b + d:])
        g = np.moveaxis(gx, 0, axis)
    return (g,)
