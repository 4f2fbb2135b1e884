"""Separable resampling: the kernel of `resize` and `scale_and_translate`.

Every method is a separable linear map: along each resampled axis the output
is a matrix (output samples x input samples) times the input. The op builds
the matrices when it runs, from the input's actual sizes, so it also works in
graphs whose spatial sizes are unknown until then; its VJP applies the
transposed matrices. The weights follow TensorFlow's
`tf.image.resize`, which Keras uses: pixel centres at half-integers;
`bilinear`, `bicubic` (Keys, a = -0.5, its offsets rounded to 1/1024 as
TensorFlow's table does), `lanczos3`/`lanczos5` drop the taps
that fall outside the image and renormalise the rest; `antialias` widens
the kernel by the downscaling factor; `area` averages the exact input area
each output pixel covers; `nearest` picks the input pixel under the
output's centre.

>>> nearest_matrix(2, 4).tolist()
[[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define

INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def _triangle(x):
    return np.maximum(0.0, 1.0 - np.abs(x))


def _keys_cubic(x, a=-0.5):
    x = np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def _lanczos(radius):
    def kernel(x):
        x = np.abs(x)
        # sinc(x) sinc(x / radius), 1 at 0, 0 beyond the radius.
        return np.where(x < radius, np.sinc(x) * np.sinc(x / radius), 0.0)

    return kernel


def _box(x):
    return np.where((x >= -0.5) & (x < 0.5), 1.0, 0.0)


KERNELS = {
    "bilinear": _triangle, "linear": _triangle, "triangle": _triangle,
    "bicubic": _keys_cubic, "cubic": _keys_cubic, "keyscubic": _keys_cubic,
    "lanczos3": _lanczos(3), "lanczos5": _lanczos(5), "box": _box,
}


def kernel_matrix(in_size, out_size, scale, translation, kernel, antialias):
    """`(out_size, in_size)` weights sampling input pixel centres through `kernel`.

    Output pixel `o` samples the input at `(o + 0.5 - translation) / scale`
    (continuous coordinates, pixel `i` centred at `i + 0.5`). When
    antialiasing a downscale the kernel is stretched by `1 / scale`. Weights
    are renormalised over the input's pixels; an output sampling outside the
    image gets none.
    """
    sample = (np.arange(out_size) + 0.5 - translation) / scale
    stretch = max(1.0 / scale, 1.0) if antialias else 1.0
    distance = (np.arange(in_size)[None, :] + 0.5 - sample[:, None]) / stretch
    weights = kernel(distance)
    totals = weights.sum(axis=1, keepdims=True)
    usable = np.abs(totals) > 1000.0 * np.finfo(np.float32).eps
    weights = np.where(usable, weights / np.where(totals == 0, 1.0, totals), 0.0)
    inside = (sample >= 0.0) & (sample <= in_size)
    return np.where(inside[:, None], weights, 0.0)


def area_matrix(in_size, out_size):
    """`(out_size, in_size)` weights averaging the input span each output pixel covers."""
    step = in_size / out_size
    starts = np.arange(out_size)[:, None] * step
    pixels = np.arange(in_size)[None, :]
    overlap = np.clip(np.minimum(pixels + 1, starts + step) - np.maximum(pixels, starts), 0, None)
    return overlap / step


def nearest_matrix(in_size, out_size):
    """`(out_size, in_size)` one-hot rows: the input pixel under each output centre."""
    index = np.minimum(np.floor((np.arange(out_size) + 0.5) * in_size / out_size),
                       in_size - 1).astype(np.int64)
    matrix = np.zeros((out_size, in_size))
    matrix[np.arange(out_size), index] = 1.0
    return matrix


def bicubic_matrix(in_size, out_size):
    """TensorFlow's bicubic weights without antialiasing: Keys' kernel at the four
    nearest pixels, the fractional offset rounded to 1/1024 (TensorFlow reads the
    kernel from a 1024-entry table), taps outside the image dropped and the rest
    renormalised."""
    sample = (np.arange(out_size) + 0.5) * in_size / out_size - 0.5
    base = np.floor(sample)
    offset = np.round((sample - base) * 1024.0) / 1024.0
    matrix = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    for tap in (-1, 0, 1, 2):
        index = base.astype(np.int64) + tap
        weight = _keys_cubic(offset - tap)
        inside = (index >= 0) & (index < in_size)
        np.add.at(matrix, (rows[inside], index[inside]), weight[inside])
    return matrix / matrix.sum(axis=1, keepdims=True)


def resize_matrix(in_size, out_size, interpolation, antialias):
    if interpolation == "bicubic" and not antialias:
        return bicubic_matrix(in_size, out_size)
    if interpolation == "nearest":
        return nearest_matrix(in_size, out_size)
    if interpolation == "area":
        return area_matrix(in_size, out_size)
    return kernel_matrix(in_size, out_size, out_size / in_size, 0.0, KERNELS[interpolation],
                         antialias)


def _matrix(in_size, out_size, method, antialias, scale, translation):
    if scale is None:
        return resize_matrix(in_size, out_size, method, antialias)
    return kernel_matrix(in_size, out_size, scale, translation, KERNELS[method], antialias)


def _apply_along(x, matrix, axis):
    moved = np.moveaxis(x, axis, -1)
    return np.moveaxis(moved @ matrix.T.astype(x.dtype), -1, axis)


def _check(method, scale):
    known = INTERPOLATIONS if scale is None else tuple(KERNELS)
    if method not in known:
        raise ValueError(f"resample: method must be one of {known}. Received: method={method!r}")


def _resample_shape(x, sizes, axes, method="bilinear", antialias=False, scales=None,
                    translations=None):
    _check(method, scales)
    shape = list(rules.shape_of(x))
    for axis, size in zip(axes, sizes):
        if not -len(shape) <= axis < len(shape):
            raise ValueError(f"resample: axis {axis} is out of range. Received: x.shape={shape}")
        shape[axis] = size
    dtype = rules.dtype_of(x)
    dtype = dtype if np.issubdtype(dtype, np.floating) else np.dtype("float32")
    return SymbolicTensor(shape, dtype)


@define("resample", shape=_resample_shape)
def resample(x, sizes, axes, method="bilinear", antialias=False, scales=None,
             translations=None):
    """`x` resampled to `sizes` along `axes`; `scales`/`translations` give
    `scale_and_translate`'s sampling, else `resize`'s (`method` an interpolation)."""
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float32)
    for k, (axis, size) in enumerate(zip(axes, sizes)):
        scale = None if scales is None else float(scales[k])
        shift = None if translations is None else float(translations[k])
        x = _apply_along(x, _matrix(x.shape[axis], size, method, antialias, scale, shift), axis)
    return x


@resample.defvjp
def _resample_vjp(node, g):
    attrs = node.attrs
    axes, sizes = attrs["axes"], attrs["sizes"]
    scales, translations = attrs.get("scales"), attrs.get("translations")
    in_shape = node.input_shapes[0]
    # The forward applied M_1, then M_2, ...: the adjoint applies the
    # transposes in reverse order, each from the size that axis had.
    matrices = []
    for k, (axis, size) in enumerate(zip(axes, sizes)):
        scale = None if scales is None else float(scales[k])
        shift = None if translations is None else float(translations[k])
        matrices.append((axis, _matrix(in_shape[axis], size, attrs.get("method", "bilinear"),
                                       attrs.get("antialias", False), scale, shift)))
    for axis, matrix in reversed(matrices):
        g = _apply_along(g, matrix.T, axis)
    return (g.astype(node.output_dtypes[0]),)
