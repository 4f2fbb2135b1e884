"""Statistics and normalisations of `keras.ops.nn`: `moments`, `batch_normalization`,
`layer_normalization`, `rms_normalization`, `normalize` and `psnr`.

All are composed from registered ops, so they run eagerly, symbolically and
on a tape. Half-precision inputs are computed in float32, as in Keras.

>>> import numpy as np
>>> mean, variance = moments(np.array([1.0, 2.0, 3.0, 4.0]), axes=0)
>>> float(mean), float(variance)
(2.5, 1.25)
"""

import numpy as np

from .. import backend
from .core import cast, shape
from .linalg import norm
from .math import float_operand

_apply = backend.apply


def _compute(x):
    """`(x in at least float32, its original dtype)`."""
    x = float_operand(x)
    original = np.dtype(x.dtype)
    if original.itemsize < 4:
        x = cast(x, "float32")
    return x, original


def _axes(axes, rank, op):
    axes = (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(
                f"{op}: every axis must be in [-{rank}, {rank}). Received: x of rank {rank}, "
                f"axes={axes}")
    return tuple(sorted(a % rank for a in axes))


def moments(x, axes, keepdims=False, synchronized=False):
    """`(mean, variance)` of `x` over `axes`.

    `synchronized` (cross-replica statistics) has no meaning on one process
    and is ignored.
    """
    del synchronized
    x, original = _compute(x)
    axes = _axes(axes, len(shape(x)), "moments")
    mean = _apply("mean", x, axis=axes, keepdims=True)
    centred = _apply("subtract", x, _apply("stop_gradient", mean))
    variance = _apply("mean", _apply("square", centred), axis=axes, keepdims=keepdims)
    if not keepdims:
        mean = _apply("squeeze", mean, axis=axes)
    if original.itemsize < 4:
        mean, variance = cast(mean, original), cast(variance, original)
    return mean, variance


def _along(v, x_rank, axis):
    """A 1-D statistic `v` reshaped to broadcast along `axis` of a rank-`x_rank` input."""
    if v is None:
        return None
    v = float_operand(v)
    if axis % x_rank == x_rank - 1 or len(shape(v)) == x_rank:
        return v
    target = [1] * x_rank
    target[axis] = -1
    return _apply("reshape", v, shape=tuple(target))


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """`(x - mean) / sqrt(variance + epsilon) * scale + offset`, the statistics laid along `axis`."""
    x = float_operand(x)
    rank = len(shape(x))
    if not -rank <= axis < rank:
        raise ValueError(
            f"batch_normalization: axis must be in [-{rank}, {rank}). "
            f"Received: x.shape={shape(x)}, axis={axis}")
    mean, variance = _along(mean, rank, axis), _along(variance, rank, axis)
    offset, scale = _along(offset, rank, axis), _along(scale, rank, axis)
    inv = _apply("rsqrt", _apply("add", variance, float(epsilon)))
    if scale is not None:
        inv = _apply("multiply", inv, scale)
    out = _apply("multiply", _apply("subtract", x, mean), inv)
    return out if offset is None else _apply("add", out, offset)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """`x` normalised over `axis` per example, then scaled by `gamma` and shifted by `beta`.

    `epsilon` defaults to `hikeras.backend.epsilon()`; Keras's deprecated
    `rms_scaling=True` divides by the standard deviation without centring.
    """
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise TypeError(f"layer_normalization got unexpected arguments: {sorted(kwargs)}")
    epsilon = backend.epsilon() if epsilon is None else epsilon
    x, original = _compute(x)
    rank = len(shape(x))
    axes = _axes(axis, rank, "layer_normalization")

    def broadcast(v):
        if v is None:
            return None
        v = cast(float_operand(v), x.dtype)
        if len(shape(v)) == rank or axes == (rank - 1,):
            return v
        return _apply("reshape", v, shape=tuple(
            shape(x)[i] if i in axes else 1 for i in range(rank)))

    gamma, beta = broadcast(gamma), broadcast(beta)
    if rms_scaling:
        variance = _apply("var", x, axis=axes, keepdims=True)
        out = _apply("multiply", x, _apply("rsqrt", _apply("add", variance, epsilon)))
        if gamma is not None:
            out = _apply("multiply", out, gamma)
        return cast(out, original)
    mean, variance = moments(x, axes, keepdims=True)
    inv = _apply("rsqrt", _apply("add", variance, epsilon))
    if gamma is not None:
        inv = _apply("multiply", inv, gamma)
    shift = _apply("negative", _apply("multiply", mean, inv))
    if beta is not None:
        shift = _apply("add", shift, beta)
    return cast(_apply("add", _apply("multiply", x, inv), shift), original)


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """`x * rsqrt(mean(x^2, axis) + epsilon) * scale` (Zhang and Sennrich's RMSNorm)."""
    epsilon = backend.epsilon() if epsilon is None else epsilon
    x, original = _compute(x)
    if len(shape(x)) == 0:
        x = _apply("expand_dims", x, axis=0)
    axes = _axes(axis, len(shape(x)), "rms_normalization")
    mean_square = _apply("mean", _apply("square", x), axis=axes, keepdims=True)
    out = _apply("multiply", x, _apply("rsqrt", _apply("add", mean_square, epsilon)))
    if scale is not None:
        out = _apply("multiply", out, cast(float_operand(scale), x.dtype))
    return cast(out, original)


def normalize(x, axis=-1, order=2, epsilon=None):
    """`x` divided by its `order`-norm along `axis` (the norm kept at least `epsilon`)."""
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"normalize: order must be an int >= 1. Received: order={order}")
    epsilon = backend.epsilon() if epsilon is None else epsilon
    x = float_operand(x)
    if len(shape(x)) == 0:
        x = _apply("expand_dims", x, axis=0)
    if order == 2:
        total = _apply("sum", _apply("square", x), axis=axis, keepdims=True)
        inv = _apply("minimum", _apply("rsqrt", total), 1.0 / epsilon)
        return _apply("multiply", x, inv)
    denominator = _apply("maximum", norm(x, ord=order, axis=axis, keepdims=True), epsilon)
    return _apply("divide", x, denominator)


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio in dB: `20 log10(max_val) - 10 log10(mean((x1 - x2)^2))`."""
    x1, x2 = float_operand(x1), float_operand(x2)
    if shape(x1) != shape(x2):
        raise ValueError(
            f"psnr needs inputs of one shape. Received: x1.shape={shape(x1)}, "
            f"x2.shape={shape(x2)}")
    mse = _apply("mean", _apply("square", _apply("subtract", x1, x2)))
    ten_over_ln10 = 10.0 / float(np.log(10.0))
    peak = 20.0 * float(np.log10(float(max_val)))
    return _apply("subtract", peak, _apply("multiply", _apply("log", mse), ten_over_ln10))
