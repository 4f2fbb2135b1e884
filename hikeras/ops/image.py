"""Image ops, as `keras.ops.image`: resizing, padding and cropping, colour spaces.

Images are `(height, width, channels)` or a batch `(batch, height, width,
channels)` (`data_format="channels_last"`, the default from
`hikeras.backend.image_data_format()`), or channels first. Every op runs
eagerly, symbolically (the batch may be unknown) and on a tape; the
geometric transforms and filters live in `image_geometry.py` and
`image_filters.py` and are re-exported here; resizing runs the backend's
separable `resample` kernel (`backend/numpy_backend/resampling.py`), which
builds its weights from the sizes it meets, so spatial sizes may be unknown
when a model is built.

>>> import numpy as np
>>> resize(np.ones((4, 4, 1)), (2, 2)).shape
(2, 2, 1)
"""

import numpy as np

from .. import backend
from .core import shape, tensor_operand
from .image_filters import (  # noqa: F401  (the keras.ops.image namespace)
    extract_patches,
    extract_patches_3d,
    gaussian_blur,
    sobel_edges,
    ssim,
)
from .image_geometry import (  # noqa: F401
    affine_transform,
    elastic_transform,
    map_coordinates,
    perspective_transform,
)
from .image_layout import channels_last_batch, data_format_of, restore_layout
from .math import float_operand

_apply = backend.apply

INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")
SCALE_AND_TRANSLATE_METHODS = ("linear", "bilinear", "trilinear", "triangle", "cubic",
                               "bicubic", "tricubic", "lanczos3", "lanczos5")


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


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """Images resized to `size = (height, width)`.

    Args:
        images: 3-D or 4-D images.
        size: `(height, width)` of the result.
        interpolation: `"bilinear"`, `"nearest"`, `"bicubic"`, `"lanczos3"`,
            `"lanczos5"` or `"area"` (TensorFlow's weights).
        antialias: widen the kernel when downscaling (not for `nearest`/`area`).
        crop_to_aspect_ratio: first crop the centre to `size`'s aspect ratio.
        pad_to_aspect_ratio: first pad (with `fill_value`) to that aspect ratio.
        fill_mode: only `"constant"`.
        fill_value: the padding value.
        data_format: `"channels_last"` or `"channels_first"`.

    Integer images give integer results, rounded and saturated, as in Keras.
    """
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            f"resize: interpolation must be one of {INTERPOLATIONS}. "
            f"Received: interpolation={interpolation!r}")
    size = tuple(int(s) for s in size)
    if len(size) != 2:
        raise ValueError(f"resize: size must be (height, width). Received: size={size}")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError(
            "resize: only one of crop_to_aspect_ratio and pad_to_aspect_ratio can be True.")
    if fill_mode != "constant":
        raise ValueError(f"resize supports only fill_mode='constant'. Received: {fill_mode!r}")
    data_format = data_format_of(data_format)
    images = tensor_operand(images)
    x, unbatched = channels_last_batch(float_operand(images), data_format, "resize")
    height, width = shape(x)[1:3]
    if (crop_to_aspect_ratio or pad_to_aspect_ratio) and None in (height, width):
        raise ValueError(
            "resize needs known image sizes to crop or pad to an aspect ratio. "
            f"Received: images.shape={shape(images)}")
    if crop_to_aspect_ratio:
        top, left, h, w = aspect_crop(height, width, *size)
        x = _apply("getitem", x, key=(slice(None), slice(top, top + h), slice(left, left + w)))
    elif pad_to_aspect_ratio:
        top, left, h, w = aspect_pad(height, width, *size)
        x = _apply("pad", x, pad_width=((0, 0), (top, h - height - top),
                                         (left, w - width - left), (0, 0)),
                   constant_values=float(fill_value))
    out = _apply("resample", x, sizes=size, axes=(1, 2), method=interpolation,
                 antialias=bool(antialias))
    return _like_input(restore_layout(out, data_format, unbatched), images, rounded=True)


def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method,
                        antialias=True):
    """`jax.image.scale_and_translate`: the `spatial_dims` of `images` resampled.

    Output index `o` along a spatial axis samples the input at
    `(o + 0.5 - translation) / scale` (pixel centres at half-integers) with
    the kernel of `method` (`linear`, `cubic`, `lanczos3`, `lanczos5`, ...),
    stretched by `1 / scale` when `antialias` and downscaling.
    """
    x = float_operand(images)
    output_shape = tuple(int(s) for s in output_shape)
    spatial_dims = tuple(int(d) % len(shape(x)) for d in spatial_dims)
    scale = np.asarray(scale, dtype=np.float64).reshape(-1)
    translation = np.asarray(translation, dtype=np.float64).reshape(-1)
    if not (len(scale) == len(translation) == len(spatial_dims)):
        raise ValueError(
            "scale_and_translate needs one scale and one translation per spatial dim. "
            f"Received: scale={scale}, translation={translation}, spatial_dims={spatial_dims}")
    if method not in SCALE_AND_TRANSLATE_METHODS:
        raise ValueError(
            f"scale_and_translate: method must be one of {SCALE_AND_TRANSLATE_METHODS}. "
            f"Received: method={method!r}")
    kernel = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic",
              "tricubic": "cubic"}.get(method, method)
    return _apply("resample", x, sizes=tuple(output_shape[d] for d in spatial_dims),
                  axes=spatial_dims, method=kernel, antialias=bool(antialias),
                  scales=tuple(float(v) for v in scale),
                  translations=tuple(float(v) for v in translation))


def _sides(first, second, target, size, op, names):
    """The two margins along an axis from two of (first, second, target size)."""
    given = [v is not None for v in (first, second, target)]
    if sum(given) != 2:
        raise ValueError(
            f"{op} needs exactly two of {names}. Received: "
            + ", ".join(f"{n}={v}" for n, v in zip(names, (first, second, target))))
    if first is None:
        first = target - second - size
    if second is None:
        second = target - first - size
    if first < 0 or second < 0:
        raise ValueError(
            f"{op}: the margins must not be negative. Received: {names[0]}={first}, "
            f"{names[1]}={second} for a size of {size}")
    return int(first), int(second)


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None,
               right_padding=None, target_height=None, target_width=None, data_format=None):
    """Images zero-padded: give two of (top, bottom, target height) and of (left, right, width)."""
    data_format = data_format_of(data_format)
    x, unbatched = channels_last_batch(tensor_operand(images), data_format, "pad_images")
    height, width = shape(x)[1:3]
    top, bottom = _sides(top_padding, bottom_padding, target_height, height, "pad_images",
                         ("top_padding", "bottom_padding", "target_height"))
    left, right = _sides(left_padding, right_padding, target_width, width, "pad_images",
                         ("left_padding", "right_padding", "target_width"))
    out = _apply("pad", x, pad_width=((0, 0), (top, bottom), (left, right), (0, 0)))
    return restore_layout(out, data_format, unbatched)


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None,
                right_cropping=None, target_height=None, target_width=None, data_format=None):
    """Images cropped: give two of (top, bottom, target height) and of (left, right, width)."""
    data_format = data_format_of(data_format)
    x, unbatched = channels_last_batch(tensor_operand(images), data_format, "crop_images")
    height, width = shape(x)[1:3]
    top, bottom = _sides(top_cropping, bottom_cropping, _cropped(target_height, height),
                         height, "crop_images",
                         ("top_cropping", "bottom_cropping", "target_height"))
    left, right = _sides(left_cropping, right_cropping, _cropped(target_width, width), width,
                         "crop_images", ("left_cropping", "right_cropping", "target_width"))
    out = _apply("getitem", x, key=(slice(None), slice(top, height - bottom),
                                     slice(left, width - right)))
    return restore_layout(out, data_format, unbatched)


def _cropped(target, size):
    """A crop's target size as the 'padded size' of `_sides`: the margins are removed, so
    the margins add up to `size - target`, as padding margins add up to `target - size`."""
    return None if target is None else 2 * size - target


_GRAY_WEIGHTS = np.array([0.2989, 0.5870, 0.1140])


def rgb_to_grayscale(images, data_format=None):
    """The luma `0.2989 R + 0.5870 G + 0.1140 B`, keeping a channel axis of size 1."""
    data_format = data_format_of(data_format)
    images = tensor_operand(images)
    x = float_operand(images)
    axis = -1 if data_format == "channels_last" else -3
    _check_rgb(x, axis, "rgb_to_grayscale")
    weights = _GRAY_WEIGHTS.astype(np.dtype(x.dtype))
    if data_format == "channels_first":
        weights = weights.reshape(3, 1, 1)
    gray = _apply("sum", _apply("multiply", x, weights), axis=axis, keepdims=True)
    return _like_input(gray, images, rounded=False)


def _like_input(out, images, rounded):
    """`out` in the images' dtype: integer images give integer results (rounded and
    saturated, or truncated), as Keras does; float images keep the float result."""
    dtype = np.dtype(images.dtype)
    if not np.issubdtype(dtype, np.integer):
        return out
    if rounded:
        info = np.iinfo(dtype)
        out = _apply("clip", _apply("round", out), x_min=float(info.min), x_max=float(info.max))
    return _apply("cast", out, dtype=dtype)


def _check_rgb(x, axis, op):
    s = shape(x)
    if len(s) not in (3, 4) or s[axis] not in (None, 3):
        raise ValueError(
            f"{op} needs 3-D or 4-D images with 3 channels. Received: images.shape={s}")


def _channels(x, data_format, op):
    axis = -1 if data_format == "channels_last" else -3
    _check_rgb(x, axis, op)
    parts = _apply("split", x, indices_or_sections=3, axis=axis)
    return parts, axis


def rgb_to_hsv(images, data_format=None):
    """RGB in `[0, 1]` to hue, saturation and value, each in `[0, 1]` (TensorFlow's formulas)."""
    data_format = data_format_of(data_format)
    x = float_operand(images)
    (r, g, b), axis = _channels(x, data_format, "rgb_to_hsv")
    value = _apply("max", x, axis=axis, keepdims=True)
    minimum = _apply("min", x, axis=axis, keepdims=True)
    spread = _apply("subtract", value, minimum)
    positive_value = _apply("greater", value, 0.0)
    saturation = _apply("where", positive_value,
                        _apply("divide", spread, _apply("where", positive_value, value, 1.0)),
                        0.0)
    has_spread = _apply("greater", spread, 0.0)
    safe = _apply("where", has_spread, spread, 1.0)
    hue_r = _apply("divide", _apply("subtract", g, b), safe)
    hue_g = _apply("add", _apply("divide", _apply("subtract", b, r), safe), 2.0)
    hue_b = _apply("add", _apply("divide", _apply("subtract", r, g), safe), 4.0)
    hue = _apply("where", _apply("equal", value, r), hue_r,
                 _apply("where", _apply("equal", value, g), hue_g, hue_b))
    hue = _apply("where", has_spread, _apply("divide", hue, 6.0), 0.0)
    hue = _apply("where", _apply("less", hue, 0.0), _apply("add", hue, 1.0), hue)
    return _apply("concatenate", hue, saturation, value, axis=axis)


def hsv_to_rgb(images, data_format=None):
    """Hue, saturation and value in `[0, 1]` back to RGB."""
    data_format = data_format_of(data_format)
    x = float_operand(images)
    (h, s, v), axis = _channels(x, data_format, "hsv_to_rgb")
    # Each channel is v - v s clip(distance of the hue from that channel's sector, 0, 1).
    channels = []
    for offset in (5.0, 3.0, 1.0):  # red, green, blue
        k = _apply("add", _apply("multiply", h, 6.0), offset)
        k = _apply("subtract", k, _apply("multiply", _apply("floor", _apply("divide", k, 6.0)),
                                         6.0))
        distance = _apply("minimum", k, _apply("subtract", 4.0, k))
        weight = _apply("clip", distance, x_min=0.0, x_max=1.0)
        channels.append(_apply("subtract", v,
                               _apply("multiply", _apply("multiply", v, s), weight)))
    return _apply("concatenate", *channels, axis=axis)
