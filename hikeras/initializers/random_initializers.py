"""Initializers that draw random values, with Keras's distributions and fans.

Seeds: an initializer built with an integer `seed` returns the same values on
every call (it starts a fresh generator from that seed each time). Built with
`seed=None`, every call draws new values from a generator derived from the
global one, so `hikeras.utils.set_random_seed(s)` makes a whole run, model
building included, reproducible.
"""

import math

import numpy as np

from ..utils.rng import make_generator
from .initializer import Initializer, compute_fans, require_float_dtype, standardize_shape

# Standard deviation of a unit normal truncated to [-2, 2]; dividing by it makes
# the truncated draw have the requested standard deviation (Keras's constant).
_TRUNCATED_STDDEV_CORRECTION = 0.87962566103423978


class RandomInitializer(Initializer):
    """Base of the random initializers: holds and validates the seed."""

    def __init__(self, seed=None):
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0
        ):
            raise ValueError(
                f"`seed` must be None or a non-negative integer. Received: seed={seed!r}"
            )
        self.seed = None if seed is None else int(seed)

    def _generator(self):
        return make_generator(self.seed)

    def get_config(self):
        return {"seed": self.seed}


def _draw_dtype(dtype):
    # Sample float32 weights natively (twice as fast); others in float64, then cast.
    return np.float32 if dtype == np.float32 else np.float64


def _normal(rng, shape, mean, stddev, dtype):
    values = rng.standard_normal(shape, dtype=_draw_dtype(dtype))
    values *= stddev
    values += mean
    return values.astype(dtype, copy=False)


def _truncated_normal(rng, shape, mean, stddev, dtype):
    """Normal draws, where any beyond two standard deviations is drawn again."""
    draw_dtype = _draw_dtype(dtype)
    values = rng.standard_normal(int(np.prod(shape)), dtype=draw_dtype)
    redraw = np.flatnonzero(np.abs(values) > 2.0)
    while redraw.size:
        values[redraw] = rng.standard_normal(redraw.size, dtype=draw_dtype)
        redraw = redraw[np.abs(values[redraw]) > 2.0]
    values *= stddev
    values += mean
    return values.reshape(shape).astype(dtype, copy=False)


def _uniform(rng, shape, minval, maxval, dtype):
    values = rng.random(shape, dtype=_draw_dtype(dtype))
    values *= maxval - minval
    values += minval
    return values.astype(dtype, copy=False)


class RandomNormal(RandomInitializer):
    """Draws from a normal distribution `N(mean, stddev**2)`.

    Args:
        mean: mean of the values. Defaults to `0.0`.
        stddev: standard deviation of the values. Defaults to `0.05`.
        seed: integer for the same values on every call, or None.

    >>> RandomNormal(stddev=1.0, seed=3)((2, 2)).shape
    (2, 2)
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        dtype = require_float_dtype(dtype, self)
        return _normal(self._generator(), standardize_shape(shape), self.mean, self.stddev,
                       dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, **super().get_config()}


class TruncatedNormal(RandomInitializer):
    """Like `RandomNormal`, but values beyond two `stddev` of the mean are re-drawn.

    Args:
        mean: mean of the untruncated distribution. Defaults to `0.0`.
        stddev: standard deviation before truncation. Defaults to `0.05`.
        seed: integer for the same values on every call, or None.

    >>> values = TruncatedNormal(stddev=1.0, seed=0)((1000,))
    >>> bool(abs(values).max() <= 2.0)
    True
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        dtype = require_float_dtype(dtype, self)
        return _truncated_normal(self._generator(), standardize_shape(shape), self.mean,
                                 self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, **super().get_config()}


class RandomUniform(RandomInitializer):
    """Draws uniformly from `[minval, maxval)`.

    Args:
        minval: lower bound (inclusive). Defaults to `-0.05`.
        maxval: upper bound (exclusive). Defaults to `0.05`.
        seed: integer for the same values on every call, or None.

    >>> values = RandomUniform(0.0, 1.0, seed=1)((100,))
    >>> bool(values.min() >= 0.0 and values.max() < 1.0)
    True
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval = minval
        self.maxval = maxval
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        dtype = require_float_dtype(dtype, self)
        return _uniform(self._generator(), standardize_shape(shape), self.minval,
                        self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, **super().get_config()}


class VarianceScaling(RandomInitializer):
    """Draws with a variance of `scale / n`, `n` being a fan of the weight's shape.

    `n` is `fan_in`, `fan_out` or their mean, depending on `mode` (see
    `compute_fans`: convolution kernels count the receptive field). With
    `"truncated_normal"` the standard deviation *after* truncation is
    `sqrt(scale / n)`; `"untruncated_normal"` uses a plain normal; `"uniform"`
    draws from `[-limit, limit]` with `limit = sqrt(3 * scale / n)`.

    Args:
        scale: positive scaling factor. Defaults to `1.0`.
        mode: `"fan_in"` (default), `"fan_out"` or `"fan_avg"`.
        distribution: `"truncated_normal"` (default; `"normal"` is an alias),
            `"untruncated_normal"` or `"uniform"`.
        seed: integer for the same values on every call, or None.

    >>> init = VarianceScaling(scale=2.0, mode="fan_in", distribution="uniform", seed=0)
    >>> bool(abs(init((50, 10))).max() <= (3 * 2.0 / 50) ** 0.5)
    True
    """

    _MODES = ("fan_in", "fan_out", "fan_avg")
    _DISTRIBUTIONS = ("truncated_normal", "untruncated_normal", "uniform")

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0.0:
            raise ValueError(
                f"Argument `scale` must be a positive float. Received: scale={scale}")
        if mode not in self._MODES:
            raise ValueError(
                f"Invalid `mode`; expected one of {self._MODES}. Received: mode={mode!r}")
        distribution = str(distribution).lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in self._DISTRIBUTIONS:
            raise ValueError(
                f"Invalid `distribution`; expected one of {self._DISTRIBUTIONS}. "
                f"Received: distribution={distribution!r}"
            )
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        dtype = require_float_dtype(dtype, self)
        shape = standardize_shape(shape)
        fan_in, fan_out = compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out,
               "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, fan)
        rng = self._generator()
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(variance) / _TRUNCATED_STDDEV_CORRECTION
            return _truncated_normal(rng, shape, 0.0, stddev, dtype)
        if self.distribution == "untruncated_normal":
            return _normal(rng, shape, 0.0, math.sqrt(variance), dtype)
        limit = math.sqrt(3.0 * variance)
        return _uniform(rng, shape, -limit, limit, dtype)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                **super().get_config()}


class _FixedVarianceScaling(VarianceScaling):
    """A `VarianceScaling` preset: only the seed is configurable."""

    _PRESET = {}

    def __init__(self, seed=None):
        super().__init__(seed=seed, **self._PRESET)

    def get_config(self):
        return {"seed": self.seed}


class GlorotUniform(_FixedVarianceScaling):
    """Uniform in `[-limit, limit]`, `limit = sqrt(6 / (fan_in + fan_out))` (Xavier).

    >>> GlorotUniform(seed=0)((3, 4)).shape
    (3, 4)
    """

    _PRESET = {"scale": 1.0, "mode": "fan_avg", "distribution": "uniform"}


class GlorotNormal(_FixedVarianceScaling):
    """Truncated normal with `stddev = sqrt(2 / (fan_in + fan_out))`.

    >>> GlorotNormal(seed=0)((3, 4)).shape
    (3, 4)
    """

    _PRESET = {"scale": 1.0, "mode": "fan_avg", "distribution": "truncated_normal"}


class HeUniform(_FixedVarianceScaling):
    """Uniform in `[-limit, limit]`, `limit = sqrt(6 / fan_in)`.

    >>> HeUniform(seed=0)((3, 4)).shape
    (3, 4)
    """

    _PRESET = {"scale": 2.0, "mode": "fan_in", "distribution": "uniform"}


class HeNormal(_FixedVarianceScaling):
    """Truncated normal with `stddev = sqrt(2 / fan_in)`.

    >>> HeNormal(seed=0)((3, 4)).shape
    (3, 4)
    """

    _PRESET = {"scale": 2.0, "mode": "fan_in", "distribution": "truncated_normal"}


class LecunUniform(_FixedVarianceScaling):
    """Uniform in `[-limit, limit]`, `limit = sqrt(3 / fan_in)`.

    >>> LecunUniform(seed=0)((3, 4)).shape
    (3, 4)
    """

    _PRESET = {"scale": 1.0, "mode": "fan_in", "distribution": "uniform"}


class LecunNormal(_FixedVarianceScaling):
    """Truncated normal with `stddev = sqrt(1 / fan_in)` (pairs with `selu`).

    >>> LecunNormal(seed=0)((3, 4)).shape
    (3, 4)
    """

    _PRESET = {"scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal"}


class Orthogonal(RandomInitializer):
    """A random orthogonal matrix (rows or columns orthonormal), times `gain`.

    The weight is viewed as a matrix `(prod(shape[:-1]), shape[-1])`. A normal
    matrix is QR-factorised and the columns of Q are sign-corrected by the
    diagonal of R, so the result is uniformly distributed over orthogonal
    matrices.

    Args:
        gain: multiplicative factor. Defaults to `1.0`.
        seed: integer for the same values on every call, or None.

    >>> import numpy as np
    >>> w = Orthogonal(seed=0)((4, 4))
    >>> bool(np.allclose(w.T @ w, np.eye(4), atol=1e-5))
    True
    """

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        dtype = require_float_dtype(dtype, self)
        shape = standardize_shape(shape)
        if len(shape) < 2:
            raise ValueError(
                "The tensor to initialize must be at least two-dimensional. "
                f"Received: shape={shape} of rank {len(shape)}."
            )
        num_rows = int(np.prod(shape[:-1]))
        num_cols = shape[-1]
        flat = self._generator().standard_normal((max(num_rows, num_cols),
                                                  min(num_rows, num_cols)))
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))  # makes the factorisation unique
        if num_rows < num_cols:
            q = q.T
        return (self.gain * q).reshape(shape).astype(dtype, copy=False)

    def get_config(self):
        return {"gain": self.gain, **super().get_config()}
