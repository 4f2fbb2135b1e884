"""Geometric image transforms of `keras.ops.image`: affine and perspective maps,
`map_coordinates` and `elastic_transform`.

`affine_transform` and `perspective_transform` run the backend's projective
resampling kernel (TensorFlow's `ImageProjectiveTransformV3` semantics);
`map_coordinates` the `map_coordinates` kernel, and `elastic_transform` a
kernel that draws its field when it runs. All
are differentiable with respect to the images; `map_coordinates` (order 1)
also with respect to the coordinates.
"""

import numpy as np

from .. import backend
from ..utils.rng import make_generator
from .core import convert_to_numpy, shape, tensor_operand
from .image_layout import channels_last_batch, data_format_of, restore_layout
from .math import float_operand

_apply = backend.apply

INTERPOLATIONS = ("nearest", "bilinear")
FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _check(interpolation, fill_mode, op):
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            f"{op}: interpolation must be one of {INTERPOLATIONS}. "
            f"Received: interpolation={interpolation!r}")
    if fill_mode not in FILL_MODES:
        raise ValueError(
            f"{op}: fill_mode must be one of {FILL_MODES}. Received: fill_mode={fill_mode!r}")


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0, data_format=None):
    """Each image resampled through its projective `transform` `[a0, a1, a2, b0, b1, b2, c0, c1]`.

    The transform maps an output pixel `(x, y)` to the input point
    `((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)`, `k = c0 x + c1 y + 1`;
    `transform` is `(8,)` or one row per image.
    """
    _check(interpolation, fill_mode, "affine_transform")
    data_format = data_format_of(data_format)
    x, unbatched = channels_last_batch(float_operand(images), data_format, "affine_transform")
    transform = tensor_operand(transform)
    if len(shape(transform)) not in (1, 2) or shape(transform)[-1] not in (None, 8):
        raise ValueError(
            "affine_transform needs transform of shape (8,) or (batch, 8). "
            f"Received: transform.shape={shape(transform)}")
    out = _apply("affine_transform", x, transform, interpolation=interpolation,
                 fill_mode=fill_mode, fill_value=float(fill_value))
    return restore_layout(out, data_format, unbatched)


def homography(start_points, end_points):
    """The 8-parameter transforms taking each `end_points` quad to its `start_points` quad."""
    start = np.asarray(start_points, np.float64).reshape(-1, 4, 2)
    end = np.asarray(end_points, np.float64).reshape(-1, 4, 2)
    rows = np.zeros((start.shape[0], 8, 8))
    rhs = np.zeros((start.shape[0], 8))
    for k in range(4):
        (ex, ey), (sx, sy) = end[:, k].T, start[:, k].T
        ones, zeros = np.ones_like(ex), np.zeros_like(ex)
        rows[:, 2 * k] = np.stack([ex, ey, ones, zeros, zeros, zeros, -sx * ex, -sx * ey], -1)
        rows[:, 2 * k + 1] = np.stack([zeros, zeros, zeros, ex, ey, ones, -sy * ex, -sy * ey], -1)
        rhs[:, 2 * k], rhs[:, 2 * k + 1] = sx, sy
    return np.linalg.solve(rows, rhs[..., None])[..., 0]


def perspective_transform(images, start_points, end_points, interpolation="bilinear",
                          fill_value=0, data_format=None):
    """Images warped so that the quad `start_points` lands on `end_points`.

    Points are `(4, 2)` `(x, y)` corners, or one set per image; they must
    be concrete (the warp itself is differentiable in the images).
    """
    _check(interpolation, "constant", "perspective_transform")
    start, end = (convert_to_numpy(p) for p in (start_points, end_points))
    if start.shape != end.shape or start.shape[-2:] != (4, 2) or start.ndim not in (2, 3):
        raise ValueError(
            "perspective_transform needs start_points and end_points of one shape, (4, 2) or "
            f"(batch, 4, 2). Received: {start.shape} and {end.shape}")
    transform = homography(start, end).astype(np.float32)
    if start.ndim == 2:
        transform = transform[0]
    return affine_transform(images, transform, interpolation, "constant", fill_value,
                            data_format)


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """`inputs` sampled at `coordinates` (one row per input axis), order 0 or 1.

    >>> map_coordinates(np.arange(4.0), np.array([[0.5, 2.25]]), order=1).tolist()
    [0.5, 2.25]
    """
    if order not in (0, 1):
        raise ValueError(f"map_coordinates supports order 0 or 1. Received: order={order}")
    if fill_mode not in FILL_MODES:
        raise ValueError(
            f"map_coordinates: fill_mode must be one of {FILL_MODES}. "
            f"Received: fill_mode={fill_mode!r}")
    x = tensor_operand(inputs)
    if isinstance(coordinates, (list, tuple)) and not np.isscalar(coordinates[0]):
        coordinates = _apply("stack", *[float_operand(c) for c in coordinates], axis=0)
    coordinates = float_operand(coordinates)
    if shape(coordinates)[0] != len(shape(x)):
        raise ValueError(
            "map_coordinates needs one row of coordinates per input axis. "
            f"Received: inputs.shape={shape(x)}, coordinates.shape={shape(coordinates)}")
    return _apply("map_coordinates", x, coordinates, order=int(order), fill_mode=fill_mode,
                  fill_value=float(fill_value))


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear",
                      fill_mode="reflect", fill_value=0.0, seed=None, data_format=None):
    """Images displaced by a smooth random field: Gaussian noise blurred with `sigma`, times `alpha`.

    Keras's construction: a `(6 int(sigma)) | 1` Gaussian window, one field
    per image shared by its channels. The field comes from hikeras's
    generators, so its numbers differ from Keras's TensorFlow draws: an int
    `seed` gives the same field on every call; without one, each call (also
    of a model built with this op) draws a new field from a generator spawned
    from the global one (`hikeras.utils.set_random_seed` makes it repeatable).
    """
    _check(interpolation, fill_mode, "elastic_transform")
    data_format = data_format_of(data_format)
    x, unbatched = channels_last_batch(float_operand(images), data_format, "elastic_transform")
    seed = make_generator(None) if seed is None else int(seed)
    out = _apply("elastic_transform", x, alpha=float(alpha), sigma=float(sigma),
                 order=INTERPOLATIONS.index(interpolation), fill_mode=fill_mode,
                 fill_value=float(fill_value), seed=seed)
    return restore_layout(out, data_format, unbatched)
