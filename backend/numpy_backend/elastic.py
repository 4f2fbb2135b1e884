"""`elastic_transform`: images resampled along a smooth random displacement field.

Each image gets two fields (rows, columns) of Gaussian noise scaled by
`sigma`, smoothed by a Gaussian window of `(6 int(sigma)) | 1` taps (zero
padding), and multiplied by `alpha`; every channel is then sampled at the
displaced pixel positions as `map_coordinates` does (Keras's construction).
The numbers come from `seed`: an int gives the same field on every call, a
`numpy.random.Generator` advances on each. The field is drawn when the op
runs, so the op works in graphs whose batch size is unknown until then.
The gradient flows to the images (the field is random, not learned).
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define
from .map_coordinates import map_coordinates, sampling_gradients


def _gaussian_window(sigma):
    size = (6 * int(sigma)) | 1
    x = np.arange(size) - (size - 1) / 2.0
    window = np.exp(-0.5 * (x / sigma) ** 2)
    return window / window.sum()


def _smooth(field, window):
    """`field` (batch, height, width) convolved with `window` along both axes, zero padded."""
    half = (len(window) - 1) // 2

    def centred(line):  # the "same"-size part of the full convolution, even for short lines
        return np.convolve(line, window, mode="full")[half:half + len(line)]

    for axis in (1, 2):
        field = np.apply_along_axis(centred, axis, field)
    return field


def _coordinates(shape, alpha, sigma, seed):
    batch, height, width, channels = shape
    rng = np.random.default_rng(seed) if isinstance(seed, (int, np.integer)) else seed
    window = _gaussian_window(sigma)
    noise = rng.standard_normal((2, batch, height, width)) * sigma
    rows_shift, cols_shift = (_smooth(n, window) * alpha for n in (noise[1], noise[0]))
    rows, cols = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    b = np.arange(batch)[:, None, None, None]
    c = np.arange(channels)[None, None, None, :]
    return np.stack(np.broadcast_arrays(b, (rows + rows_shift)[..., None],
                                        (cols + cols_shift)[..., None], c))


def _elastic_shape(images, **_):
    shape = rules.shape_of(images)
    if len(shape) != 4:
        raise ValueError(
            f"elastic_transform needs batched images (rank 4). Received: images.shape={shape}")
    dtype = rules.dtype_of(images)
    return SymbolicTensor(shape, dtype if np.issubdtype(dtype, np.floating) else "float32")


@define("elastic_transform", shape=_elastic_shape, save_inputs=(0,), residual=True)
def elastic_transform(images, alpha=20.0, sigma=5.0, order=1, fill_mode="reflect",
                      fill_value=0.0, seed=None):
    images = np.asarray(images)
    if not np.issubdtype(images.dtype, np.floating):
        images = images.astype(np.float32)
    coordinates = _coordinates(images.shape, alpha, sigma,
                               np.random.default_rng() if seed is None else seed)
    out = map_coordinates(images, coordinates, order=order, fill_mode=fill_mode,
                          fill_value=fill_value)
    return out, coordinates


@elastic_transform.defvjp
def _elastic_transform_vjp(node, g):
    attrs = node.attrs
    gx, _ = sampling_gradients(node.inputs[0], node.residual, g, attrs.get("order", 1),
                               attrs.get("fill_mode", "reflect"), attrs.get("fill_value", 0.0))
    return (gx,)
