"""Piecewise activations: the ReLU family, ELU/SELU and the hard sigmoids.

At a kink the gradient takes the value of the flat side (e.g. relu'(0) = 0),
as TensorFlow does. Constants are Python floats so float32 stays float32.
"""

import numpy as np

from .. import shape_rules as rules
from ._inplace import as_float
from ._registry import define


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


@relu.defvjp
def _relu_vjp(node, g):
    x = node.inputs[0]
    slope = node.attrs.get("negative_slope", 0.0)
    max_value = node.attrs.get("max_value")
    threshold = node.attrs.get("threshold", 0.0)
    passes = np.greater(x, threshold)
    if max_value is not None:  # the clip to [0, max_value] passes only its interior
        passes &= np.greater(x, 0)
        passes &= np.less(x, max_value)
    if not slope:
        return (np.where(passes, g, 0),)
    return (np.where(passes, g, np.where(np.less(x, threshold), slope * g, 0)),)


@define("relu6", shape=rules.same, save_inputs=(0,))
def relu6(x):
    out = np.maximum(x, 0)
    return np.minimum(out, 6, out=out) if isinstance(out, np.ndarray) else min(out, 6)


@relu6.defvjp
def _relu6_vjp(node, g):
    x = node.inputs[0]
    return (np.where((x > 0) & (x < 6), g, 0),)


@define("leaky_relu", shape=rules.same, save_inputs=(0,))
def leaky_relu(x, negative_slope=0.2):
    """`x` for positive `x`, else `negative_slope * x` (Keras 3 default slope 0.2)."""
    return np.where(np.greater_equal(x, 0), x, np.multiply(x, negative_slope))


@leaky_relu.defvjp
def _leaky_relu_vjp(node, g):
    slope = node.attrs.get("negative_slope", 0.2)
    return (np.where(np.greater(node.inputs[0], 0), g, g * slope),)


def _elu(x, alpha):
    """`x` for positive `x`, else `alpha * (exp(x) - 1)`, never exponentiating large x."""
    x = as_float(x)
    negative = np.minimum(x, 0)
    negative = np.expm1(negative, out=negative if negative.ndim else None)
    negative *= alpha
    return np.where(x > 0, x, negative)


@define("elu", shape=rules.elementwise_float, save_inputs=(0,), save_outputs=(0,))
def elu(x, alpha=1.0):
    return _elu(x, alpha)


@elu.defvjp
def _elu_vjp(node, g):
    x, out = node.inputs[0], node.outputs[0]
    alpha = node.attrs.get("alpha", 1.0)
    # For x <= 0 the derivative alpha * exp(x) equals out + alpha.
    return (np.where(np.greater(x, 0), g, g * (out + alpha)),)


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
    negative = g * (out + SELU_SCALE * SELU_ALPHA)
    return (np.where(np.greater(x, 0), g * SELU_SCALE, negative),)


@define("hard_sigmoid", shape=rules.elementwise_float, save_inputs=(0,))
def hard_sigmoid(x):
    """Keras 3's `relu6(x + 3) / 6`, i.e. `clip(x / 6 + 1/2, 0, 1)`."""
    out = np.divide(x, 6.0)
    out += 0.5
    return np.clip(out, 0.0, 1.0, out=out if np.ndim(out) else None)


def _inside_hard_range(x):
    return (x > -3.0) & (x < 3.0)


@hard_sigmoid.defvjp
def _hard_sigmoid_vjp(node, g):
    return (np.where(_inside_hard_range(node.inputs[0]), g * (1.0 / 6.0), 0),)


@define("hard_silu", shape=rules.elementwise_float, save_inputs=(0,))
def hard_silu(x):
    """`x * hard_sigmoid(x)` (Keras's `hard_swish`)."""
    return x * hard_sigmoid(x)


@hard_silu.defvjp
def _hard_silu_vjp(node, g):
    x = node.inputs[0]
    # 0 below -3, 1 above 3, (2x + 3) / 6 in between.
    slope = np.where(x >= 3.0, 1.0, (2.0 / 6.0) * x + 0.5)
    return (np.where(x > -3.0, g * slope, 0),)
