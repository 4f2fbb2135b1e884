"""Resampling images: `resize` and `scale_and_translate`.

Every method is a separable linear map: along each spatial axis the output
is a fixed matrix (output samples x input samples) times the input. The
matrices are built here in numpy from the method's kernel and applied with
the `einsum` op, so the result is differentiable with respect to the images
and keeps unknown batch sizes. The weights follow TensorFlow's
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

from .. import backend
from .core import shape

_apply = backend.apply

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


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def apply_along(x, matrix, axis):
    """`matrix` (out, in) applied to `x` along `axis` with the `einsum` op."""
    rank = len(shape(x))
    letters = _LETTERS[:rank]
    out_letters = letters[:axis] + "z" + letters[axis + 1:]
    matrix = matrix.astype(np.dtype(x.dtype))
    return _apply("einsum", matrix, x, equation=f"z{letters[axis]},{letters}->{out_letters}")


def resample(x, sizes, axes, make_matrix):
    """`x` with each of `axes` mapped to its size in `sizes` through `make_matrix(in, out)`."""
    for axis, size in zip(axes, sizes):
        in_size = shape(x)[axis]
        if in_size is None:
            raise ValueError(
                "Resampling needs known spatial sizes. Received: images.shape="
                f"{shape(x)}")
        if in_size == size and make_matrix is None:
            continue
        x = apply_along(x, make_matrix(in_size, size), axis)
    return x


def aspect_crop(height, width, target_height, target_width):
    """`(top, left, crop_height, crop_width)` of the centred crop with the target's aspect."""
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    return (int(float(height - crop_height) / 2), int(float(width - crop_width) / 2),
            crop_height, crop_width)


def aspect_pad(height, width, target_height, target_width):
    """`(top, left, padded_height, padded_width)` of the centred padding to the target's aspect."""
    pad_height = max(height, int(float(width * target_height) / target_width))
    pad_width = max(width, int(float(height * target_width) / target_height))
    return (int(float(pad_height - height) / 2), int(float(pad_width - width) / 2),
            pad_height, pad_width)


def check_interpolation(interpolation, op):
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            f"{op}: interpolation must be one of {INTERPOLATIONS}. "
            f"Received: interpolation={interpolation!r}")


def scale_and_translate_axes(x, output_shape, scale, translation, spatial_dims, method,
                             antialias):
    """`jax.image.scale_and_translate`: each of `spatial_dims` resampled by its scale and shift."""
    kernel = KERNELS.get(method)
    if kernel is None:
        raise ValueError(
            f"scale_and_translate: method must be one of {sorted(KERNELS)}. "
            f"Received: method={method!r}")
    for axis, scale_d, shift_d in zip(spatial_dims, scale, translation):
        in_size = shape(x)[axis]
        matrix = kernel_matrix(in_size, output_shape[axis], float(scale_d), float(shift_d),
                               kernel, antialias)
        x = apply_along(x, matrix, axis)
    return x
