"""Filters over images: patches, Gaussian blur, Sobel edges and SSIM (`keras.ops.image`).

All are convolutions run by the backend's convolution kernel, so they are
differentiable and keep an unknown batch size. Patches use a convolution
with an identity kernel, which lays each patch out as
`(row, column, channel)` in the last axis, as TensorFlow does.

>>> import numpy as np
>>> extract_patches(np.zeros((1, 4, 4, 1)), 2).shape
(1, 2, 2, 4)
"""

import numpy as np

from .. import backend
from .core import shape
from .image_layout import channels_last_batch, data_format_of, restore_layout
from .math import float_operand
from .nn_conv import depthwise_conv

_apply = backend.apply


def _sizes(value, rank, name, op):
    values = (value,) * rank if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) != rank or not all(int(v) > 0 for v in values):
        raise ValueError(
            f"{op}: {name} must be a positive int or {rank} of them. Received: {name}={value!r}")
    return tuple(int(v) for v in values)


def _patches(images, size, strides, dilation_rate, padding, data_format, rank, op):
    data_format = data_format_of(data_format)
    x, unbatched = channels_last_batch(float_operand(images), data_format, op,
                                       ranks=(rank + 1, rank + 2))
    size = _sizes(size, rank, "size", op)
    strides = size if strides is None else _sizes(strides, rank, "strides", op)
    channels = shape(x)[-1]
    if channels is None:
        raise ValueError(f"{op} needs a known number of channels. Received: {shape(images)}")
    taps = int(np.prod(size)) * channels
    kernel = np.eye(taps, dtype=np.dtype(x.dtype)).reshape(size + (channels, taps))
    padding = padding.lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"{op}: padding must be 'valid' or 'same'. Received: {padding!r}")
    out = _apply("conv", x, kernel, strides=strides, padding=padding,
                 dilation_rate=dilation_rate)
    return restore_layout(out, data_format, unbatched)


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                    data_format=None):
    """`(batch, rows, cols, ph * pw * channels)`: the `size` patches of images, `strides` apart."""
    return _patches(images, size, strides, dilation_rate, padding, data_format, 2,
                    "extract_patches")


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid",
                       data_format=None):
    """The 3-D form of `extract_patches`, for `(batch, depth, height, width, channels)` volumes."""
    return _patches(volumes, size, strides, dilation_rate, padding, data_format, 3,
                    "extract_patches_3d")


def _gaussian(size, sigma):
    x = np.arange(size) - (size - 1) / 2.0
    kernel = np.exp(-0.5 * (x / sigma) ** 2)
    return kernel / kernel.sum()


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Each channel convolved with a normalised Gaussian ("same" size, zero padding)."""
    data_format = data_format_of(data_format)
    x, unbatched = channels_last_batch(float_operand(images), data_format, "gaussian_blur")
    kernel_size = _sizes(kernel_size, 2, "kernel_size", "gaussian_blur")
    sigma = tuple(float(s) for s in ((sigma, sigma) if np.isscalar(sigma) else sigma))
    # Keras's layout: the outer product of the second axis' and first axis'
    # profiles, read as (kernel_size[0], kernel_size[1]).
    kernel = np.outer(_gaussian(kernel_size[1], sigma[1]), _gaussian(kernel_size[0], sigma[0]))
    kernel = kernel.reshape(kernel_size)
    channels = shape(x)[-1]
    kernel = np.tile(kernel[:, :, None, None], (1, 1, channels, 1)).astype(np.dtype(x.dtype))
    out = depthwise_conv(x, kernel, padding="same", data_format="channels_last")
    return restore_layout(out, data_format, unbatched)


_SOBEL_Y = np.array([[-1.0, -2.0, -1.0], [0.0, 0.0, 0.0], [1.0, 2.0, 1.0]])


def sobel_edges(images, data_format=None):
    """`(batch, height, width, channels, 2)`: the Sobel derivatives `[d/dy, d/dx]`, edges reflected."""
    data_format = data_format_of(data_format)
    x, _ = channels_last_batch(float_operand(images), data_format, "sobel_edges", ranks=(4,))
    channels = shape(x)[-1]
    padded = _apply("pad", x, pad_width=((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect")
    edges = []
    for kernel in (_SOBEL_Y, _SOBEL_Y.T):
        tiled = np.tile(kernel[:, :, None, None], (1, 1, channels, 1)).astype(np.dtype(x.dtype))
        edges.append(depthwise_conv(padded, tiled, data_format="channels_last"))
    out = _apply("stack", *edges, axis=-1)
    if data_format == "channels_first":
        out = _apply("transpose", out, axes=(0, 3, 1, 2, 4))
    return out


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         data_format=None):
    """Structural similarity per image pair (Wang et al. 2004), averaged over channels.

    Local statistics use a `filter_size` Gaussian window (valid positions
    only). Returns `(batch,)`, or a scalar for single images.
    """
    data_format = data_format_of(data_format)
    a, unbatched = channels_last_batch(float_operand(image1), data_format, "ssim")
    b, _ = channels_last_batch(float_operand(image2), data_format, "ssim")
    if shape(a) != shape(b):
        raise ValueError(
            f"ssim needs images of one shape. Received: image1.shape={shape(image1)}, "
            f"image2.shape={shape(image2)}")
    channels = shape(a)[-1]
    if channels is None:
        raise ValueError(f"ssim needs a known number of channels. Received: {shape(image1)}")
    window = np.outer(_gaussian(filter_size, filter_sigma), _gaussian(filter_size, filter_sigma))
    kernel = np.tile(window[:, :, None, None], (1, 1, channels, 1)).astype(np.dtype(a.dtype))

    def blur(x):  # each channel on its own, valid windows only
        return depthwise_conv(x, kernel, padding="valid", data_format="channels_last")

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu_a, mu_b = blur(a), blur(b)
    mu_aa, mu_bb, mu_ab = mu_a * mu_a, mu_b * mu_b, mu_a * mu_b
    var_a = blur(_apply("square", a)) - mu_aa
    var_b = blur(_apply("square", b)) - mu_bb
    cov = blur(_apply("multiply", a, b)) - mu_ab
    numerator = (2.0 * mu_ab + c1) * (2.0 * cov + c2)
    denominator = (mu_aa + mu_bb + c1) * (var_a + var_b + c2)
    # The mean over positions and channels: every channel has as many positions.
    per_image = _apply("mean", numerator / denominator, axis=(1, 2, 3))
    return _apply("squeeze", per_image, axis=0) if unbatched else per_image
