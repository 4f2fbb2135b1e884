"""Random ops. Randomness is explicit: a `numpy.random.Generator` is an attribute."""

import numpy as np

from .. import shape_rules as rules
from ._registry import define


def _generator(rng):
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, (int, np.integer)):
        return np.random.default_rng(rng)
    raise TypeError(
        "rng must be a numpy.random.Generator, an integer seed or None. "
        f"Received: rng of type {type(rng).__name__}"
    )


@define("dropout", shape=rules.same, residual=True)
def dropout(x, rate, rng=None, noise_shape=None):
    """Zeroes each entry with probability `rate` and scales the rest by `1 / (1 - rate)`.

    Args:
        x: input array.
        rate: drop probability in `[0, 1)`; 0 returns `x` unchanged.
        rng: the `numpy.random.Generator` drawing the mask (an int seeds a
            new one; `None` draws fresh entropy).
        noise_shape: shape of the mask, broadcast against `x` (e.g. one mask
            per channel); defaults to `x.shape`.

    The residual is the scaled mask, so backward is one multiplication.
    """
    rate = float(rate)
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"dropout rate must be in [0, 1). Received: rate={rate}")
    if rate == 0.0:
        return x, None
    x = np.asarray(x)
    shape = x.shape if noise_shape is None else tuple(
        x.shape[i] if d is None else int(d) for i, d in enumerate(noise_shape))
    dtype = x.dtype if np.issubdtype(x.dtype, np.inexact) else np.dtype("float32")
    keep = _generator(rng).random(shape, dtype=np.float32) >= rate
    mask = np.multiply(keep, 1.0 / (1.0 - rate), dtype=dtype)
    return x * mask, mask


@dropout.defvjp
def _dropout_vjp(node, g):
    mask = node.residual
    return (g if mask is None else g * mask,)
