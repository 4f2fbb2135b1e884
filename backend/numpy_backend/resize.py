"""Image resizing: `resize_bilinear` (separable linear interpolation) and
`resize_nearest`.

Sampling follows TensorFlow's and JAX's `resize` (what Keras's
`UpSampling2D(interpolation="bilinear")` calls): half-pixel centres, so
output pixel `o` reads input coordinate `(o + 0.5) * in / out - 0.5`,
clamped to the edge pixels, and interpolates linearly between the two
neighbouring pixels. Along one axis this is a small `(out, in)` matrix `W`;
the forward applies `W` to each spatial axis in turn and the backward applies
`W.T` in reverse order. Viewing the input as `(before, axis, after)` makes
each step one batched `matmul` on contiguous memory, with no transposes.

`resize_nearest` follows TensorFlow's half-pixel nearest neighbour (what
Keras's `Resizing(interpolation="nearest")` calls): output pixel `o` copies
input pixel `floor((o + 0.5) * in / out)`, computed in float32 as TensorFlow
does, so that ties fall on the same side. The forward gathers (exact, and it
keeps integer dtypes); the backward sums each output's gradient back into
the pixel it copied.
"""

import math

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._inplace import as_float
from ._registry import define


def interpolation_matrix(in_size, out_size, dtype=np.float64):
    """The `(out_size, in_size)` matrix of half-pixel linear interpolation."""
    source = (np.arange(out_size) + 0.5) * (in_size / out_size) - 0.5
    source = np.clip(source, 0, in_size - 1)
    low = np.floor(source).astype(np.intp)
    high = np.minimum(low + 1, in_size - 1)
    frac = source - low
    matrix = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    matrix[rows, low] += 1.0 - frac
    matrix[rows, high] += frac
    return matrix.astype(dtype, copy=False)


def nearest_indices(in_size, out_size):
    """The input pixel each of `out_size` half-pixel nearest-neighbour outputs copies."""
    scale = np.float32(in_size) / np.float32(out_size)
    source = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * scale
    return np.minimum(np.floor(source).astype(np.intp), in_size - 1)


def _apply_along(x, matrix, axis):
    """Contracts axis `axis` of `x` with the columns of `matrix`."""
    shape = x.shape
    lead, trail = math.prod(shape[:axis]), math.prod(shape[axis + 1:])
    out = np.matmul(matrix, x.reshape(lead, shape[axis], trail))
    return out.reshape(shape[:axis] + (matrix.shape[0],) + shape[axis + 1:])


def _resize_layout(shape, size, axes, op="resize_bilinear"):
    axes = rules.normalize_axes(axes, len(shape)) if len(shape) else ()
    size = tuple(int(s) for s in size)
    if len(size) != len(axes) or any(s <= 0 for s in size):
        raise ValueError(
            f"{op} needs one positive output size per resized axis. "
            f"Received: size={size}, axes={axes}"
        )
    return size, axes


def _resize_bilinear_shape(x, size, axes=(1, 2)):
    shape = list(rules.shape_of(x))
    size, axes = _resize_layout(shape, size, axes)
    for s, a in zip(size, axes):
        shape[a] = s
    dtype = np.dtype(rules.dtype_of(x))
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.dtype("float64") if dtype.itemsize >= 4 else np.dtype("float32")
    return SymbolicTensor(shape, dtype)


@define("resize_bilinear", shape=_resize_bilinear_shape)
def resize_bilinear(x, size, axes=(1, 2)):
    """Resizes the `axes` of `x` to `size` by linear interpolation along each.

    Args:
        x: input, e.g. NHWC images.
        size: the output length of each resized axis.
        axes: the axes to resize (default the H and W of NHWC).
    """
    out = as_float(x)
    size, axes = _resize_layout(out.shape, size, axes)
    for s, a in zip(size, axes):
        if s != out.shape[a]:
            out = _apply_along(out, interpolation_matrix(out.shape[a], s, out.dtype), a)
    return out.copy() if out is x else out


@resize_bilinear.defvjp
def _resize_bilinear_vjp(node, g):
    in_shape = node.input_shapes[0]
    size, axes = _resize_layout(in_shape, node.attrs["size"], node.attrs.get("axes", (1, 2)))
    for s, a in reversed(list(zip(size, axes))):
        if s != in_shape[a]:
            g = _apply_along(g, interpolation_matrix(in_shape[a], s, g.dtype).T, a)
    return (g,)


def _resize_nearest_shape(x, size, axes=(1, 2)):
    shape = list(rules.shape_of(x))
    size, axes = _resize_layout(shape, size, axes, "resize_nearest")
    for s, a in zip(size, axes):
        shape[a] = s
    return SymbolicTensor(shape, rules.dtype_of(x))


@define("resize_nearest", shape=_resize_nearest_shape)
def resize_nearest(x, size, axes=(1, 2)):
    """Resizes the `axes` of `x` to `size` by copying the nearest input pixel.

    Args:
        x: input, e.g. NHWC images; any dtype (kept).
        size: the output length of each resized axis.
        axes: the axes to resize (default the H and W of NHWC).
    """
    out = np.asarray(x)
    size, axes = _resize_layout(out.shape, size, axes, "resize_nearest")
    for s, a in zip(size, axes):
        if s != out.shape[a]:
            out = np.take(out, nearest_indices(out.shape[a], s), axis=a)
    return out.copy() if out is x else out


@resize_nearest.defvjp
def _resize_nearest_vjp(node, g):
    in_shape = node.input_shapes[0]
    size, axes = _resize_layout(in_shape, node.attrs["size"], node.attrs.get("axes", (1, 2)),
                                "resize_nearest")
    for s, a in reversed(list(zip(size, axes))):
        if s != in_shape[a]:
            # The transpose of the one-hot gather matrix sums each output's
            # gradient into the pixel it copied.
            picks = np.zeros((s, in_shape[a]), dtype=g.dtype)
            picks[np.arange(s), nearest_indices(in_shape[a], s)] = 1
            g = _apply_along(g, picks.T, a)
    return (g,)
