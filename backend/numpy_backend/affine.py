"""`affine_transform`: resampling images through a projective map of pixel coordinates.

The semantics are TensorFlow's `ImageProjectiveTransformV3`, which Keras 3's
`RandomRotation`, `RandomTranslation` and `RandomZoom` call. A transform is
eight numbers `[a0, a1, a2, b0, b1, b2, c0, c1]` mapping each *output* pixel
`(x, y)` (column, row) to the *input* coordinate it reads:

    k = c0 * x + c1 * y + 1
    x_in = (a0 * x + a1 * y + a2) / k,    y_in = (b0 * x + b1 * y + b2) / k

Coordinates are computed in float32, as TensorFlow does. A coordinate
outside `[0, len - 1]` is first brought back by `fill_mode`:

- `"reflect"`: the image mirrored about its edge pixels (`d c b a | a b c d`);
- `"wrap"`: TensorFlow's periodic map (see `_wrap`), which for coordinates
  within one image length of the edge is `a b c d | a b c d`;
- `"nearest"`: clamped to the edge;
- `"constant"`: left as is, so pixels read outside the image take `fill_value`.

Then `"nearest"` interpolation reads the pixel at the coordinate rounded
half away from zero, and `"bilinear"` blends the four pixels around it, each
neighbour outside the image reading `fill_value`. A point where `k == 0` is
`fill_value`.

For fixed transforms the op is linear in the images: each output pixel is a
weighted sum of at most four input pixels (plus `fill_value` times the
weight falling outside). The forward builds that sampling plan once, as flat
pixel indices and weights, keeps it as the residual, and the backward adds
each output gradient back into the pixels it read with one `bincount` per
channel. The transforms get no gradient.
"""

import math

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._inplace import as_float
from ._registry import define

INTERPOLATIONS = ("nearest", "bilinear")
FILL_MODES = ("reflect", "wrap", "constant", "nearest")


# ------------------------------------------------------ coordinate mapping
def _reflect(coord, length):
    """Mirror about the edges: `-1` reads `0`, `length` reads `length - 1`."""
    if length <= 1:
        return np.zeros_like(coord)
    period = np.float32(2 * length)
    out = coord.copy()
    low, high = coord < 0, coord > length - 1
    below = out[low]
    below = period * np.trunc(-below / period) + below  # now in (-period, 0]
    out[low] = np.where(below < -length, below + period, -below - 1)
    above = out[high]
    above = above - period * np.trunc(above / period)
    out[high] = np.where(above >= length, period - above - 1, above)
    return np.clip(out, 0, length - 1)


def _wrap(coord, length):
    """TensorFlow's wrap: shifts by whole image lengths, counted with `length - 1`.

    TensorFlow counts the number of shifts by dividing by `length - 1`
    rather than `length`; far outside the image this over-shifts, and the
    result is clamped to the edge. Reproduced as is, so outputs match.
    """
    if length <= 1:
        return np.zeros_like(coord)
    span = np.float32(length - 1)
    out = coord.copy()
    low, high = coord < 0, coord > length - 1
    out[low] += length * (np.trunc(-out[low] / span) + 1)
    out[high] -= length * np.trunc(out[high] / span)
    return np.clip(out, 0, length - 1)


def _map_coordinates(coord, length, fill_mode):
    if fill_mode == "reflect":
        return _reflect(coord, length)
    if fill_mode == "wrap":
        return _wrap(coord, length)
    if fill_mode == "nearest":
        return np.clip(coord, 0, length - 1)
    # constant: out-of-range reads take the fill value; keep the integer
    # conversions below in range while every corner stays outside.
    return np.clip(coord, -2, length + 1)


def _round_half_away(x):
    """C's `round`: halves go away from zero (numpy's `round` goes to even)."""
    return np.copysign(np.floor(np.abs(x.astype(np.float64)) + 0.5), x)


# ----------------------------------------------------------- sampling plan
def _transforms(transform, batch):
    transform = np.asarray(transform, dtype=np.float32)
    if transform.ndim == 1:
        transform = transform[None]
    if transform.ndim != 2 or transform.shape[1] != 8 or transform.shape[0] not in (1, batch):
        raise ValueError(
            "affine_transform expects `transform` of shape (8,), (1, 8) or "
            f"(batch, 8) with batch={batch}. Received: transform.shape={transform.shape}")
    return np.broadcast_to(transform, (batch, 8))


def _axis_taps(coord, length, interpolation):
    """Per output pixel, the input positions read along one axis and their weights.

    Returns `[(position, weight, inside), ...]`: one tap for nearest, two
    (floor and floor + 1) for bilinear. Positions are clamped into the image
    so they can always be indexed; `inside` says whether the unclamped one
    was in it (outside, TensorFlow reads `fill_value` instead).
    """
    if interpolation == "nearest":
        taps = [(_round_half_away(coord).astype(np.intp), np.float32(1))]
    else:
        low = np.floor(coord)
        first = low.astype(np.intp)
        taps = [(first, (low + 1) - coord), (first + 1, coord - low)]
    return [(np.clip(position, 0, length - 1), weight, (position >= 0) & (position < length))
            for position, weight in taps]


def _sampling_plan(transform, batch, height, width, interpolation, fill_mode):
    """The input pixels each output pixel reads, and with what weights.

    Returns `(indices, weights, fill)`: `indices` and `weights` of shape
    `(taps, batch * height * width)` (flat indices into the
    `batch * height * width` input pixels; weight 0 where a tap lies
    outside), and `fill`, the weight of `fill_value` per output pixel (`None`
    when it is zero everywhere).
    """
    t = _transforms(transform, batch)[:, :, None, None]
    xs = np.arange(width, dtype=np.float32)[None, None, :]
    ys = np.arange(height, dtype=np.float32)[None, :, None]
    a0, a1, a2, b0, b1, b2, c0, c1 = (t[:, i] for i in range(8))
    x, y = a0 * xs + a1 * ys + a2, b0 * xs + b1 * ys + b2
    degenerate = None
    if np.any(t[:, 6:] != 0):
        projection = c0 * xs + c1 * ys + np.float32(1)
        degenerate = projection == 0
        projection[degenerate] = 1
        x, y = x / projection, y / projection
    shape = (batch, height, width)
    x = _map_coordinates(np.broadcast_to(x, shape), width, fill_mode)
    y = _map_coordinates(np.broadcast_to(y, shape), height, fill_mode)
    rows = _axis_taps(y, height, interpolation)
    cols = _axis_taps(x, width, interpolation)

    image_start = (np.arange(batch) * (height * width))[:, None, None]
    taps = len(rows) * len(cols)
    indices = np.empty((taps,) + shape, np.intp)
    weights = np.empty((taps,) + shape, np.float32)
    # Only in constant mode can a tap fall outside the image and read fill_value.
    fill = np.zeros(shape, np.float32) if fill_mode == "constant" else None
    k = 0
    for row, row_weight, row_inside in rows:
        row_start = image_start + row * width
        for col, col_weight, col_inside in cols:
            np.add(row_start, col, out=indices[k])
            np.multiply(row_weight, col_weight, out=weights[k])
            inside = row_inside & col_inside
            if fill is not None:
                fill += np.where(inside, np.float32(0), weights[k])
            weights[k] *= inside
            if degenerate is not None:
                weights[k][degenerate] = 0
            k += 1
    if degenerate is not None:
        fill = np.where(degenerate, np.float32(1), 0 if fill is None else fill)
    indices, weights = indices.reshape(taps, -1), weights.reshape(taps, -1)
    return indices, weights, None if fill is None else np.broadcast_to(fill, shape).ravel()


# ------------------------------------------------------------------ layout
def _check_layout(shape, axes, interpolation, fill_mode):
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"affine_transform supports interpolation {INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation!r}")
    if fill_mode not in FILL_MODES:
        raise ValueError(f"affine_transform supports fill_mode {FILL_MODES}. "
                         f"Received: fill_mode={fill_mode!r}")
    axes = tuple(rules.normalize_axes(axes, len(shape)))
    if len(shape) < 3 or len(axes) != 2 or 0 in axes or axes[0] == axes[1]:
        raise ValueError(
            "affine_transform expects a batch of images (batch first) and two distinct "
            f"spatial axes after it. Received: shape={tuple(shape)}, axes={axes}")
    return axes


def _to_pixel_rows(x, axes):
    """`x` as `(batch * height * width, channels)`, and how to undo that."""
    moved = np.moveaxis(x, axes, (1, 2))
    rows = moved.reshape(math.prod(moved.shape[:3]), math.prod(moved.shape[3:]))
    return rows, moved.shape


def _from_pixel_rows(rows, moved_shape, axes):
    return np.moveaxis(rows.reshape(moved_shape), (1, 2), axes)


def _affine_transform_shape(images, transform, interpolation="bilinear", fill_mode="constant",
                            fill_value=0.0, axes=(1, 2)):
    shape = rules.shape_of(images)
    _check_layout(shape, axes, interpolation, fill_mode)
    t_shape = rules.shape_of(transform)
    if len(t_shape) not in (1, 2) or t_shape[-1] not in (None, 8):
        raise ValueError("affine_transform expects `transform` of shape (8,) or (batch, 8). "
                         f"Received: transform.shape={tuple(t_shape)}")
    dtype = np.dtype(rules.dtype_of(images))
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.dtype("float64") if dtype.itemsize >= 4 else np.dtype("float32")
    return SymbolicTensor(shape, dtype)


@define("affine_transform", shape=_affine_transform_shape, residual=True)
def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0.0, axes=(1, 2)):
    """Resamples each image through its projective transform (see the module docstring).

    Args:
        images: a batch of images, batch first, e.g. NHWC.
        transform: `(8,)` for every image, or `(batch, 8)`: output pixel ->
            input coordinate, as TensorFlow's `ImageProjectiveTransformV3`.
        interpolation: `"bilinear"` or `"nearest"`.
        fill_mode: `"reflect"`, `"wrap"`, `"constant"` or `"nearest"`.
        fill_value: what pixels read outside the image take in `"constant"` mode.
        axes: the height and width axes (default those of NHWC).
    """
    images = as_float(images)
    axes = _check_layout(images.shape, axes, interpolation, fill_mode)
    height, width = images.shape[axes[0]], images.shape[axes[1]]
    indices, weights, fill = _sampling_plan(transform, images.shape[0], height, width,
                                            interpolation, fill_mode)
    rows, moved_shape = _to_pixel_rows(images, axes)
    weights = weights.astype(images.dtype, copy=False)
    out, taken = np.zeros_like(rows), np.empty_like(rows)
    for index, weight in zip(indices, weights):
        np.take(rows, index, axis=0, out=taken)
        taken *= weight[:, None]
        out += taken
    if fill is not None and fill_value != 0:
        out += fill.astype(images.dtype)[:, None] * np.asarray(fill_value, images.dtype)
    return _from_pixel_rows(out, moved_shape, axes), (indices, weights)


@affine_transform.defvjp
def _affine_transform_vjp(node, g):
    indices, weights = node.residual
    axes = _check_layout(node.input_shapes[0], node.attrs.get("axes", (1, 2)),
                         node.attrs.get("interpolation", "bilinear"),
                         node.attrs.get("fill_mode", "constant"))
    g_rows, moved_shape = _to_pixel_rows(g, axes)
    pixels, channels = g_rows.shape
    # Each output pixel p adds weight * g[p] into every input pixel it read:
    # one bincount per channel sums all the taps at once.
    slots = indices.ravel()
    grad = np.empty_like(g_rows)
    for c in range(channels):
        grad[:, c] = np.bincount(slots, weights=(weights * g_rows[:, c]).ravel(),
                                 minlength=pixels)
    return _from_pixel_rows(grad, moved_shape, axes), None
