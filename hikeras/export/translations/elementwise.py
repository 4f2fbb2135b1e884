"""Elementwise ops: arithmetic, math functions, comparisons, logic and activations."""

import math

import numpy as np

from ._common import common_dtype
from .registry import translates

_UNARY = {
    "abs": "Abs", "exp": "Exp", "log": "Log", "sqrt": "Sqrt", "negative": "Neg",
    "floor": "Floor", "sign": "Sign", "tanh": "Tanh", "sigmoid": "Sigmoid",
    "softsign": "Softsign", "softplus": "Softplus", "stop_gradient": "Identity",
}
_ARITHMETIC = {"add": "Add", "subtract": "Sub", "multiply": "Mul", "divide": "Div",
               "power": "Pow", "maximum": "Max", "minimum": "Min"}
_COMPARISON = {"equal": "Equal", "greater": "Greater", "greater_equal": "GreaterOrEqual",
               "less": "Less", "less_equal": "LessOrEqual"}
_LOGICAL = {"logical_and": "And", "logical_or": "Or"}

# Keras's SELU constants.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _out_dtype(op):
    return op.outputs[0].dtype


@translates(*_UNARY)
def _unary(g, op):
    return g.node(_UNARY[op.name], [g.value(op.inputs[0], _out_dtype(op))])


@translates(*_ARITHMETIC)
def _arithmetic(g, op):
    dtype = _out_dtype(op)
    a, b = (g.value(x, dtype) for x in op.inputs)
    return g.node(_ARITHMETIC[op.name], [a, b])


@translates(*_COMPARISON, "not_equal")
def _comparison(g, op):
    dtype = common_dtype(op.inputs)
    a, b = (g.value(x, dtype) for x in op.inputs)
    if op.name == "not_equal":
        return g.node("Not", [g.node("Equal", [a, b])])
    return g.node(_COMPARISON[op.name], [a, b])


@translates(*_LOGICAL)
def _logical(g, op):
    a, b = (g.value(x, np.bool_) for x in op.inputs)
    return g.node(_LOGICAL[op.name], [a, b])


@translates("logical_not")
def _logical_not(g, op):
    return g.node("Not", [g.value(op.inputs[0], np.bool_)])


@translates("cast")
def _cast(g, op):
    return g.cast(g.value(op.inputs[0]), _out_dtype(op))


@translates("where")
def _where(g, op):
    condition, x, y = op.inputs
    dtype = _out_dtype(op)
    return g.node("Where", [g.value(condition, np.bool_), g.value(x, dtype), g.value(y, dtype)])


@translates("clip")
def _clip(g, op):
    x = op.inputs[0]
    dtype = _out_dtype(op)
    low, high = op.attrs.get("x_min"), op.attrs.get("x_max")
    bounds = [g.scalar(v, dtype) if v is not None else "" for v in (low, high)]
    return g.node("Clip", [g.value(x, dtype), *bounds])


@translates("square")
def _square(g, op):
    x = g.value(op.inputs[0])
    return g.node("Mul", [x, x])


@translates("rsqrt")
def _rsqrt(g, op):
    return g.node("Reciprocal", [g.node("Sqrt", [g.value(op.inputs[0], _out_dtype(op))])])


@translates("expm1")
def _expm1(g, op):
    dtype = _out_dtype(op)
    return g.node("Sub", [g.node("Exp", [g.value(op.inputs[0], dtype)]), g.scalar(1, dtype)])


@translates("log1p")
def _log1p(g, op):
    dtype = _out_dtype(op)
    return g.node("Log", [g.node("Add", [g.value(op.inputs[0], dtype), g.scalar(1, dtype)])])


@translates("round")
def _round(g, op):
    dtype = _out_dtype(op)
    x = g.value(op.inputs[0], dtype)
    decimals = op.attrs.get("decimals", 0)
    if not decimals:
        return g.node("Round", [x])
    scale = g.scalar(10.0 ** decimals, dtype)
    return g.node("Div", [g.node("Round", [g.node("Mul", [x, scale])]), scale])


@translates("zeros_like", "ones_like")
def _filled_like(g, op):
    dtype = _out_dtype(op)
    fill = g.onnx.numpy_helper.from_array(np.ones(1, dtype) * (op.name == "ones_like"))
    return g.node("ConstantOfShape", [g.node("Shape", [g.value(op.inputs[0])])], value=fill)


# --- activations ---------------------------------------------------------------------------

@translates("relu")
def _relu(g, op):
    dtype = _out_dtype(op)
    x = g.value(op.inputs[0], dtype)
    slope = op.attrs.get("negative_slope", 0.0)
    cap = op.attrs.get("max_value")
    threshold = op.attrs.get("threshold", 0.0)
    if not slope and threshold == 0 and cap is None:
        return g.node("Relu", [x])
    # hikeras/Keras: x above the threshold (else 0), clipped to [0, max_value], minus
    # negative_slope * max(threshold - x, 0).
    t = g.scalar(threshold, dtype)
    y = g.node("Where", [g.node("Greater", [x, t]), x, g.scalar(0, dtype)])
    if cap is not None:
        y = g.node("Clip", [y, g.scalar(0, dtype), g.scalar(cap, dtype)])
    if slope:
        leak = g.node("Relu", [g.node("Sub", [t, x])])
        y = g.node("Sub", [y, g.node("Mul", [leak, g.scalar(slope, dtype)])])
    return y


@translates("relu6")
def _relu6(g, op):
    dtype = _out_dtype(op)
    return g.node("Clip", [g.value(op.inputs[0], dtype), g.scalar(0, dtype), g.scalar(6, dtype)])


@translates("leaky_relu")
def _leaky_relu(g, op):
    return g.node("LeakyRelu", [g.value(op.inputs[0], _out_dtype(op))],
                  alpha=float(op.attrs.get("negative_slope", 0.2)))


@translates("elu")
def _elu(g, op):
    return g.node("Elu", [g.value(op.inputs[0], _out_dtype(op))],
                  alpha=float(op.attrs.get("alpha", 1.0)))


@translates("selu")
def _selu(g, op):
    return g.node("Selu", [g.value(op.inputs[0], _out_dtype(op))], alpha=_SELU_ALPHA,
                  gamma=_SELU_SCALE)


@translates("hard_sigmoid")
def _hard_sigmoid(g, op):
    # Keras 3: relu6(x + 3) / 6.
    return g.node("HardSigmoid", [g.value(op.inputs[0], _out_dtype(op))], alpha=1.0 / 6.0,
                  beta=0.5)


@translates("hard_silu")
def _hard_silu(g, op):
    return g.node("HardSwish", [g.value(op.inputs[0], _out_dtype(op))])


@translates("silu")
def _silu(g, op):
    x = g.value(op.inputs[0], _out_dtype(op))
    return g.node("Mul", [x, g.node("Sigmoid", [x])])


@translates("gelu")
def _gelu(g, op):
    dtype = _out_dtype(op)
    x = g.value(op.inputs[0], dtype)
    half_x = g.node("Mul", [x, g.scalar(0.5, dtype)])
    if op.attrs.get("approximate", False):
        # 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
        cube = g.node("Mul", [g.node("Mul", [x, x]), x])
        inner = g.node("Add", [x, g.node("Mul", [cube, g.scalar(0.044715, dtype)])])
        t = g.node("Tanh", [g.node("Mul", [inner, g.scalar(math.sqrt(2 / math.pi), dtype)])])
    else:
        t = g.node("Erf", [g.node("Mul", [x, g.scalar(1 / math.sqrt(2), dtype)])])
    return g.node("Mul", [half_x, g.node("Add", [t, g.scalar(1, dtype)])])


@translates("softmax", "log_softmax")
def _softmax(g, op):
    kind = "Softmax" if op.name == "softmax" else "LogSoftmax"
    axis = op.attrs.get("axis", -1)
    x = op.inputs[0]
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise g.error(f"softmax over several axes (axis={axis})")
        axis = axis[0]
    return g.node(kind, [g.value(x, _out_dtype(op))], axis=int(axis))
