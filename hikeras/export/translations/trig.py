"""Smooth functions of one float input: trigonometry, hyperbolic functions, logs and
powers of other bases, cube root, reciprocal, sinc, angle conversions.

ONNX has a node for the trigonometric and hyperbolic functions; the others are
short compositions that compute the same float values as numpy's ufuncs.
"""

import math

from .registry import translates

_NATIVE = {
    "sin": "Sin", "cos": "Cos", "tan": "Tan", "arcsin": "Asin", "arccos": "Acos",
    "arctan": "Atan", "sinh": "Sinh", "cosh": "Cosh", "arcsinh": "Asinh", "arccosh": "Acosh",
    "arctanh": "Atanh", "reciprocal": "Reciprocal",
}
# x * constant
_SCALED = {"deg2rad": math.pi / 180.0, "rad2deg": 180.0 / math.pi}
# log(x) / log(base)
_LOG_BASE = {"log2": math.log(2.0), "log10": math.log(10.0)}


def _input(g, op):
    return g.value(op.inputs[0], op.outputs[0].dtype), op.outputs[0].dtype


@translates(*_NATIVE)
def _native(g, op):
    x, _ = _input(g, op)
    return g.node(_NATIVE[op.name], [x])


@translates(*_SCALED)
def _scaled(g, op):
    x, dtype = _input(g, op)
    return g.node("Mul", [x, g.scalar(_SCALED[op.name], dtype)])


@translates(*_LOG_BASE)
def _log_base(g, op):
    x, dtype = _input(g, op)
    return g.node("Div", [g.node("Log", [x]), g.scalar(_LOG_BASE[op.name], dtype)])


@translates("exp2")
def _exp2(g, op):
    x, dtype = _input(g, op)
    return g.node("Pow", [g.scalar(2, dtype), x])


@translates("cbrt")
def _cbrt(g, op):
    # sign(x) * |x|^(1/3): Pow of a negative base to a fractional power is NaN.
    x, dtype = _input(g, op)
    magnitude = g.node("Pow", [g.node("Abs", [x]), g.scalar(1.0 / 3.0, dtype)])
    return g.node("Mul", [g.node("Sign", [x]), magnitude])


@translates("sinc")
def _sinc(g, op):
    # sin(pi x) / (pi x), and 1 at 0.
    x, dtype = _input(g, op)
    zero = g.node("Equal", [x, g.scalar(0, dtype)])
    safe = g.node("Where", [zero, g.scalar(1, dtype), x])
    angle = g.node("Mul", [safe, g.scalar(math.pi, dtype)])
    ratio = g.node("Div", [g.node("Sin", [angle]), angle])
    return g.node("Where", [zero, g.scalar(1, dtype), ratio])
