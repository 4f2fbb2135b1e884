"""The error function and its inverse, as ops with gradients.

`erf` is built on the backend's vectorised `erfc` (`_special.py`), switching
form at |x| = 0.5 so that both the centre (where erf is small) and the
tails (where it is close to +-1) keep their accuracy. `erfinv` has no
closed form: a rough closed-form guess is polished by Newton steps on
`erfc(y) = 1 - |x|`, which keeps relative accuracy near +-1. The VJPs are
written with registered ops, so these support gradients of any order.
"""

import math

import numpy as np

from .. import shape_rules as rules
from ._registry import define
from ._special import erfc
from ._traced import ops

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _float(x):
    x = np.asarray(x)
    return x if x.dtype in (np.float32, np.float64) else x.astype(np.float32)


def erf_values(x):
    """`erf(x)` for an array, in its float dtype."""
    x = _float(x)
    centre = np.abs(x) < 0.5
    # erf = 1 - erfc loses the centre's relative accuracy; the Taylor-free
    # form there uses erfc of the mirrored argument: erf(x) = erfc(-x) - 1.
    tail = np.sign(x) * (1.0 - erfc(np.abs(x)))
    small = erfc(-x.astype(np.float64)) - 1.0
    return np.where(centre, small, tail).astype(x.dtype)


@define("erf", shape=rules.elementwise_float, save_inputs=(0,))
def erf(x):
    return erf_values(x)


@erf.defvjp(traceable=True)
def _erf_vjp(node, g):
    x = node.inputs[0]
    return (g * (ops.exp(-(x * x)) * _TWO_OVER_SQRT_PI),)


@define("erfc", shape=rules.elementwise_float, save_inputs=(0,))
def erfc_(x):
    """`1 - erf(x)`, accurate in the upper tail where it is tiny."""
    return erfc(_float(x))


@erfc_.defvjp(traceable=True)
def _erfc_vjp(node, g):
    x = node.inputs[0]
    return (g * (ops.exp(-(x * x)) * -_TWO_OVER_SQRT_PI),)


def _initial_guess(a):
    """A closed-form approximation of erfinv on [0, 1), good to about 2e-3."""
    k = 0.147
    log_term = np.log1p(-a * a)
    first = 2.0 / (math.pi * k) + 0.5 * log_term
    return np.sqrt(np.sqrt(first * first - log_term / k) - first)


@define("erfinv", shape=rules.elementwise_float, save_outputs=(0,))
def erfinv(x):
    x = _float(x)
    a = np.abs(x.astype(np.float64))
    inside = a < 1.0
    target = np.where(inside, 1.0 - a, 0.5)  # erfc(y) must reach 1 - |x|
    with np.errstate(divide="ignore", invalid="ignore"):
        y = _initial_guess(np.where(inside, a, 0.5))
        for _ in range(4):
            step = (erfc(y) - target) / (_TWO_OVER_SQRT_PI * np.exp(-y * y))
            y = y + step
        y = np.where(inside, y, np.where(a == 1.0, np.inf, np.nan))
    return (np.sign(x) * y).astype(x.dtype)


@erfinv.defvjp(traceable=True)
def _erfinv_vjp(node, g):
    y = node.outputs[0]
    return (g * (ops.exp(y * y) * (1.0 / _TWO_OVER_SQRT_PI)),)
