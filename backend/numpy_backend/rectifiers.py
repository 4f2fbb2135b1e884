"""Piecewise activations: the ReLU family, ELU/SELU and the hard sigmoids.

At a kink the gradient takes the value of the flat side (e.g. relu'(0) = 0),
as TensorFlow does. Constants are Python floats so float32 stays float32.
Every op has a traced VJP (gradients of any order): the piecewise-constant
slopes are masks of the input's values, and the ELU family and hard SiLU
also have a separate traced form of their input-dependent slope.
"""

import numpy as np

from .. import shape_rules as rules
from ._inplace import as_float
from ._registry import define
from ._traced import constant


@define("relu", shape=rules.same, save_inputs=(0,))
def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Keras's generalised ReLU.

    `x` above `threshold` (else 0), clipped to `[0, max_value]` when a
    maximum is given, minus `negative_slope * max(threshold - x, 0)`. With
    the defaults this is `max(x, 0)`.
    """
    if negative_slope == 0 and max_value is None and threshold == 0:
        return np.maximum(x, 0)
    if negative_slope:
        x = as_float(x)
    out = np.where(np.greater(x, threshold), x, 0)
    if max_value is not None:
        np.clip(out, 0, max_value, out=out)
    if negative_slope:
        out -= negative_slope * np.maximum(np.subtract(threshold, x), 0)
    return out


@relu.defvjp(traceable=True)
def _relu_vjp(node, g):
    x = constant(node.inputs[0])
    slope = node.attrs.get("negative_slope", 0.0)
    max_value = node.attrs.get("max_value")
    threshold = node.attrs.get("threshold", 0.0)
    passes = np.greater(x, threshold)
    if max_value is not None:  # the clip to [0, max_value] passes only its interior
        passes &= np.greater(x, 0)
        passes &= np.less(x, max_value)
    if not slope:
        return (g * passes,)
    return (g * _weights(passes, np.less(x, threshold), 1.0, slope, g.dtype),)


def _weights(first, second, first_value, second_value, dtype):
    """`first_value` where `first`, `second_value` where `second`, else 0.

    Masks are turned into weights by arithmetic: `np.where` is several times
    slower on unpredictable masks. The dtype is explicit because a bool mask
    times a Python float would be float64.
    """
    w = np.multiply(first, first_value, dtype=dtype)
    w += np.multiply(second, second_value, dtype=dtype)
    return w


@define("relu6", shape=rules.same, save_inputs=(0,))
def relu6(x):
    out = np.maximum(x, 0)
    return np.minimum(out, 6, out=out) if isinstance(out, np.ndarray) else min(out, 6)


@relu6.defvjp(traceable=True)
def _relu6_vjp(node, g):
    x = constant(node.inputs[0])
    return (g * ((x > 0) & (x < 6)),)


@define("leaky_relu", shape=rules.same, save_inputs=(0,))
def leaky_relu(x, negative_slope=0.2):
    """`x` for positive `x`, else `negative_slope * x` (Keras 3 default slope 0.2)."""
    scaled = np.multiply(x, negative_slope)
    if 0 <= negative_slope <= 1:
        return np.maximum(x, scaled)
    return np.where(np.greater_equal(x, 0), x, scaled)


@leaky_relu.defvjp(traceable=True)
def _leaky_relu_vjp(node, g):
    x = constant(node.inputs[0])
    slope = node.attrs.get("negative_slope", 0.2)
    return (g * _weights(np.greater(x, 0), np.less_equal(x, 0), 1.0, slope, g.dtype),)


def _elu(x, alpha):
    """`max(x, 0) + alpha * expm1(min(x, 0))`: `x` above 0, `alpha (e^x - 1)` below."""
    x = as_float(x)
    out = np.minimum(x, 0)
    out = np.expm1(out, out=out if isinstance(out, np.ndarray) else None)
    out *= alpha
    out += np.maximum(x, 0)
    return out


def _elu_slope(x, out, alpha, scale, dtype):
    """`scale` for x > 0, else `out + scale * alpha` (the derivative of the ELU family)."""
    below = np.less_equal(x, 0)
    slope = np.add(out, scale * alpha, dtype=dtype)
    slope *= below
    slope += np.multiply(~below, scale, dtype=dtype)
    return slope


@define("elu", shape=rules.elementwise_float, save_inputs=(0,), save_outputs=(0,))
def elu(x, alpha=1.0):
    return _elu(x, alpha)


@elu.defvjp
def _elu_vjp(node, g):
    x, out = node.inputs[0], node.outputs[0]
    return (g * _elu_slope(x, out, node.attrs.get("alpha", 1.0), 1.0, g.dtype),)


def _elu_traced_slope(node, alpha, scale):
    """`_elu_slope` with the output tracked: below 0 the slope is `out + scale * alpha`."""
    below = np.less_equal(constant(node.inputs[0]), 0)
    above = np.multiply(~below, scale, dtype=node.output_dtypes[0])
    return (node.outputs[0] + scale * alpha) * below + above


@elu.deftracedvjp
def _elu_traced_vjp(node, g):
    return (g * _elu_traced_slope(node, node.attrs.get("alpha", 1.0), 1.0),)


# The self-normalising constants of Klambauer et al. (2017), rounded as Keras
# rounds them, so results match Keras's to float precision.
SELU_ALPHA = 1.67326324
SELU_SCALE = 1.05070098


@define("selu", shape=rules.elementwise_float, save_inputs=(0,), save_outputs=(0,))
def selu(x):
    out = _elu(x, SELU_ALPHA)
    out *= SELU_SCALE
    return out


@selu.defvjp
def _selu_vjp(node, g):
    x, out = node.inputs[0], node.outputs[0]
    return (g * _elu_slope(x, out, SELU_ALPHA, SELU_SCALE, g.dtype),)


@selu.deftracedvjp
def _selu_traced_vjp(node, g):
    return (g * _elu_traced_slope(node, SELU_ALPHA, SELU_SCALE),)


@define("hard_sigmoid", shape=rules.elementwise_float, save_inputs=(0,))
def hard_sigmoid(x):
    """Keras 3's `relu6(x + 3) / 6`, i.e. `clip(x / 6 + 1/2, 0, 1)`."""
    out = np.divide(x, 6.0)
    out += 0.5
    return np.clip(out, 0.0, 1.0, out=out if np.ndim(out) else None)


def _inside_hard_range(x):
    return (x > -3.0) & (x < 3.0)


@hard_sigmoid.defvjp(traceable=True)
def _hard_sigmoid_vjp(node, g):
    return ((g * _inside_hard_range(constant(node.inputs[0]))) * (1.0 / 6.0),)


@define("hard_silu", shape=rules.elementwise_float, save_inputs=(0,))
def hard_silu(x):
    """`x * hard_sigmoid(x)` (Keras's `hard_swish`)."""
    return x * hard_sigmoid(x)


@hard_silu.defvjp
def _hard_silu_vjp(node, g):
    x = node.inputs[0]
    # 0 below -3, 1 above 3, (2x + 3) / 6 in between.
    slope = np.multiply(x, 2.0 / 6.0, dtype=g.dtype)
    slope += 0.5
    slope *= _inside_hard_range(x)
    slope += np.greater_equal(x, 3.0)
    return (g * slope,)


@hard_silu.deftracedvjp
def _hard_silu_traced_vjp(node, g):
    x = node.inputs[0]
    inside = _inside_hard_range(constant(x))
    above = np.greater_equal(constant(x), 3.0)
    return (g * ((x * (2.0 / 6.0) + 0.5) * inside + above),)

