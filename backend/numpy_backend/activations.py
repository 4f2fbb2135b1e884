"""Smooth activations: sigmoid, tanh, softplus, softsign, silu, gelu, softmax.

All are computed in forms that neither overflow nor lose relative accuracy
in the tails (e.g. sigmoid through `exp(-|x|)`, softmax shifted by its
maximum). Each VJP reads whatever is cheapest to keep: the output when the
derivative is a function of it, otherwise the input or a residual. All but
`gelu` have traced VJPs, so they support gradients of any order.
"""

import math

import numpy as np

from .. import shape_rules as rules
from ._inplace import as_float, scratch
from ._registry import define
from ._special import erfc
from ._traced import ops


def stable_sigmoid(x):
    """`1 / (1 + exp(-x))` as `exp(min(x, 0)) / (1 + exp(-|x|))`.

    Both exponents are <= 0, so nothing overflows and both tails keep their
    relative accuracy; and there is no `np.where` on the sign, which is
    several times slower than arithmetic on unpredictable data.
    """
    x = as_float(x)
    denominator = np.abs(x)
    denominator = np.negative(denominator, out=scratch(denominator))
    denominator = np.exp(denominator, out=scratch(denominator))
    denominator += 1.0
    out = np.minimum(x, 0.0)
    out = np.exp(out, out=scratch(out))
    out /= denominator
    return out


@define("sigmoid", shape=rules.elementwise_float, save_outputs=(0,))
def sigmoid(x):
    return stable_sigmoid(x)


@sigmoid.defvjp(traceable=True)
def _sigmoid_vjp(node, g):
    s = node.outputs[0]
    return (g * (s * (1.0 - s)),)


@define("tanh", shape=rules.elementwise_float, save_outputs=(0,))
def tanh(x):
    return np.tanh(x)


@tanh.defvjp(traceable=True)
def _tanh_vjp(node, g):
    t = node.outputs[0]
    return (g * (1.0 - t * t),)


@define("softplus", shape=rules.elementwise_float, save_inputs=(0,))
def softplus(x):
    """`log(1 + exp(x))` as `max(x, 0) + log1p(exp(-|x|))`, which never overflows.

    (`np.logaddexp(x, 0)` is equivalent but an order of magnitude slower.)
    """
    x = as_float(x)
    out = np.abs(x)
    out = np.negative(out, out=scratch(out))
    out = np.exp(out, out=scratch(out))
    out = np.log1p(out, out=scratch(out))
    out += np.maximum(x, 0.0)
    return out


@softplus.defvjp(traceable=True)
def _softplus_vjp(node, g):
    return (g * ops.sigmoid(node.inputs[0]),)


@define("softsign", shape=rules.elementwise_float, save_inputs=(0,))
def softsign(x):
    x = as_float(x)
    return x / (np.abs(x) + 1.0)


@softsign.defvjp(traceable=True)
def _softsign_vjp(node, g):
    return (g / ops.square(ops.abs(node.inputs[0]) + 1.0),)


@define("silu", shape=rules.elementwise_float, save_inputs=(0,), residual=True)
def silu(x):
    """`x * sigmoid(x)` (Keras's `swish`); the sigmoid is kept for backward."""
    x = as_float(x)
    s = stable_sigmoid(x)
    return x * s, s


@silu.defvjp
def _silu_vjp(node, g):
    x, s = node.inputs[0], node.residual
    # d/dx x s(x) = s (1 + x (1 - s))
    d = 1.0 - s
    d *= x
    d += 1.0
    d *= s
    return (g * d,)


@silu.deftracedvjp
def _silu_traced_vjp(node, g):
    x = node.inputs[0]
    s = ops.sigmoid(x)  # recomputed: the residual is not a tracked function of x
    return (g * (s * (1.0 + x * (1.0 - s))),)


_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_CUBIC = 0.044715


@define("gelu", shape=rules.elementwise_float, save_inputs=(0,), residual=True)
def gelu(x, approximate=False):
    """`x * Phi(x)` (Gaussian CDF), exactly via erfc or with Keras's tanh formula.

    The exact form uses `Phi(x) = erfc(-x / sqrt(2)) / 2` (see `_special`);
    the approximation is `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3)))`.
    The residual is `Phi(x)`, respectively the tanh term.
    """
    x = as_float(x)
    if approximate:
        inner = x * x
        inner *= _GELU_CUBIC
        inner += 1.0
        inner *= x
        inner *= _SQRT_2_OVER_PI
        t = np.tanh(inner, out=scratch(inner))
        out = t + 1.0
        out *= x
        out *= 0.5
        return out, t
    cdf = erfc(x, scale=-_SQRT_HALF)
    cdf *= 0.5
    return x * cdf, cdf


@gelu.defvjp
def _gelu_vjp(node, g):
    x = node.inputs[0]
    if node.attrs.get("approximate", False):
        t = node.residual
        # d/dx = 0.5 (1 + t) + 0.5 x (1 - t**2) sqrt(2/pi) (1 + 3 c x**2)
        slope = x * x
        slope *= 3.0 * _GELU_CUBIC
        slope += 1.0
        slope *= x
        slope *= (1.0 - t * t) * (0.5 * _SQRT_2_OVER_PI)
        slope += 0.5 * (1.0 + t)
        return (g * slope,)
    # d/dx x Phi(x) = Phi(x) + x phi(x)
    pdf = x * x
    pdf *= -0.5
    pdf = np.exp(pdf, out=scratch(pdf))
    pdf *= _INV_SQRT_2PI
    pdf *= x
    pdf += node.residual
    return (g * pdf,)


def _shift(x, axis):
    """`x - max(x, axis)`, with an all -inf slice shifted by 0 instead of -inf."""
    peak = np.max(x, axis=axis, keepdims=True)
    return np.subtract(x, np.where(np.isfinite(peak), peak, 0))


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@define("softmax", shape=rules.elementwise_float, save_outputs=(0,))
def softmax(x, axis=-1):
    """`exp(x) / sum(exp(x), axis)`, shifted by the maximum for stability."""
    axis = _axis(axis)
    e = _shift(as_float(x), axis)
    e = np.exp(e, out=scratch(e))
    e /= np.sum(e, axis=axis, keepdims=True)
    return e


@softmax.defvjp(traceable=True)
def _softmax_vjp(node, g):
    p = node.outputs[0]
    gp = g * p
    return (gp - p * ops.sum(gp, axis=node.attrs.get("axis", -1), keepdims=True),)


@define("log_softmax", shape=rules.elementwise_float, save_outputs=(0,))
def log_softmax(x, axis=-1):
    """`x - logsumexp(x, axis)`, computed from the shifted input."""
    axis = _axis(axis)
    shifted = _shift(as_float(x), axis)
    total = np.sum(np.exp(shifted), axis=axis, keepdims=True)
    shifted -= np.log(total, out=scratch(total))
    return shifted


@log_softmax.defvjp(traceable=True)
def _log_softmax_vjp(node, g):
    total = ops.sum(g, axis=node.attrs.get("axis", -1), keepdims=True)
    return (g - ops.exp(node.outputs[0]) * total,)
