"""Elementwise functions of two inputs: arctan2, hypot, logaddexp, remainders, floor
division, NaN-ignoring max/min, divide_no_nan, ldexp, heaviside.

ONNX has none of them as one node except the remainders (`Mod`), so each is a
composition that follows numpy's definition, special values included: signed
zeros and infinities in `arctan2`, no overflow in `hypot` and `logaddexp`,
numpy's rounding in float `floor_divide`, 0 for an integer divided by 0.
"""

import math

import numpy as np

from ._common import is_float, sign_bit
from .registry import translates


def _operands(g, op):
    """The two inputs in the op's output dtype, and that dtype."""
    dtype = op.outputs[0].dtype
    a, b = (g.value(x, dtype) for x in op.inputs)
    return a, b, dtype


def _integer_operands(g, op):
    """The inputs of an integer op, widened to int64 unless onnxruntime's arithmetic takes
    their dtype (int32, int64) as it is; and that computing dtype."""
    dtype = np.dtype(op.outputs[0].dtype)
    wide = dtype if dtype in (np.int32, np.int64) else np.dtype(np.int64)
    return (g.value(x, wide) for x in op.inputs), wide


def _narrow(g, value, wide, dtype):
    return value if np.dtype(wide) == np.dtype(dtype) else g.cast(value, dtype)


def _is(g, kind, x, dtype, constant=0):
    """`x <kind> constant` as a bool value, e.g. `_is(g, "Less", x, dtype)` for x < 0."""
    return g.node(kind, [x, g.scalar(constant, dtype)])


def _nonzero_divisor(g, b, dtype):
    """`(b == 0, b with its zeros replaced by 1)`: integer division by zero is undefined."""
    zero = _is(g, "Equal", b, dtype)
    return zero, g.node("Where", [zero, g.scalar(1, dtype), b])


def _opposite_signs(g, x, y, dtype):
    return g.node("Xor", [_is(g, "Less", x, dtype), _is(g, "Less", y, dtype)])


@translates("mod", "fmod")
def _remainder(g, op):
    # mod: the sign of the divisor (numpy's %); fmod: the sign of the dividend (C's fmod).
    if is_float(op.outputs[0].dtype):
        a, b, dtype = _operands(g, op)
        r = g.node("Mod", [a, b], fmod=1)
        if op.name == "fmod":
            return r
        fix = g.node("And", [g.node("Not", [_is(g, "Equal", r, dtype)]),
                             _opposite_signs(g, b, r, dtype)])
        return g.node("Where", [fix, g.node("Add", [r, b]), r])
    (a, b), wide = _integer_operands(g, op)
    zero, safe = _nonzero_divisor(g, b, wide)
    r = g.node("Mod", [a, safe], fmod=int(op.name == "fmod"))
    r = g.node("Where", [zero, g.scalar(0, wide), r])  # numpy: x % 0 is 0 for integers
    return _narrow(g, r, wide, op.outputs[0].dtype)


@translates("floor_divide")
def _floor_divide(g, op):
    if is_float(op.outputs[0].dtype):
        return _float_floor_divide(g, *_operands(g, op))
    (a, b), wide = _integer_operands(g, op)
    zero, safe = _nonzero_divisor(g, b, wide)
    quotient = g.node("Div", [a, safe])  # truncated towards zero
    remainder = g.node("Mod", [a, safe], fmod=1)
    down = g.node("And", [g.node("Not", [_is(g, "Equal", remainder, wide)]),
                          _opposite_signs(g, remainder, safe, wide)])
    q = g.node("Sub", [quotient, g.cast(down, wide)])
    q = g.node("Where", [zero, g.scalar(0, wide), q])  # numpy: x // 0 is 0 for integers
    return _narrow(g, q, wide, op.outputs[0].dtype)


def _float_floor_divide(g, a, b, dtype):
    """numpy's float floor division: `(a - fmod(a, b)) / b`, moved down one when the
    remainder's sign differs from `b`'s, then rounded to the nearest integer (so
    1 // 0.1 is 9, as in numpy, not floor(1 / 0.1) = 10); `a / b` when `b` is 0."""
    remainder = g.node("Mod", [a, b], fmod=1)
    div = g.node("Div", [g.node("Sub", [a, remainder]), b])
    fix = g.node("And", [g.node("Not", [_is(g, "Equal", remainder, dtype)]),
                         _opposite_signs(g, b, remainder, dtype)])
    div = g.node("Where", [fix, g.node("Sub", [div, g.scalar(1, dtype)]), div])
    floor = g.node("Floor", [div])
    up = _is(g, "Greater", g.node("Sub", [div, floor]), dtype, 0.5)
    floor = g.node("Where", [up, g.node("Add", [floor, g.scalar(1, dtype)]), floor])
    return g.node("Where", [_is(g, "Equal", b, dtype), g.node("Div", [a, b]), floor])


@translates("fmax", "fmin")
def _nan_ignoring_extremum(g, op):
    kind = "Max" if op.name == "fmax" else "Min"
    dtype = np.dtype(op.outputs[0].dtype)
    if not is_float(dtype):
        (a, b), wide = _integer_operands(g, op)
        return _narrow(g, g.node(kind, [a, b]), wide, dtype)
    a, b, dtype = _operands(g, op)
    extremum = g.node("Where", [g.node("IsNaN", [a]), b, g.node(kind, [a, b])])
    return g.node("Where", [g.node("IsNaN", [b]), a, extremum])


@translates("divide_no_nan")
def _divide_no_nan(g, op):
    a, b, dtype = _operands(g, op)
    zero = _is(g, "Equal", b, dtype)
    quotient = g.node("Div", [a, g.node("Where", [zero, g.scalar(1, dtype), b])])
    return g.node("Where", [zero, g.scalar(0, dtype), quotient])


@translates("heaviside")
def _heaviside(g, op):
    # 0 below zero, x2 at zero, 1 above, NaN for NaN.
    a, b, dtype = _operands(g, op)
    step = g.node("Where", [_is(g, "Greater", a, dtype), g.scalar(1, dtype), b])
    step = g.node("Where", [_is(g, "Less", a, dtype), g.scalar(0, dtype), step])
    return g.node("Where", [g.node("IsNaN", [a]), a, step])


@translates("arctan2")
def _arctan2(g, op):
    """atan(y / x), moved by +-pi into the left half-plane; signed zeros and pairs of
    infinities give numpy's angles."""
    y, x, dtype = _operands(g, op)
    both_infinite = g.node("And", [g.node("IsInf", [y]), g.node("IsInf", [x])])
    y = g.node("Where", [both_infinite, g.node("Sign", [y]), y])
    x = g.node("Where", [both_infinite, g.node("Sign", [x]), x])
    y_negative, x_negative = sign_bit(g, y, dtype), sign_bit(g, x, dtype)
    half_turn = g.node("Where", [y_negative, g.scalar(-math.pi, dtype), g.scalar(math.pi, dtype)])
    angle = g.node("Atan", [g.node("Div", [y, x])])
    angle = g.node("Where", [x_negative, g.node("Add", [angle, half_turn]), angle])
    # y == x == 0: 0 or pi (by x's sign), with y's sign
    at_origin = g.node("And", [_is(g, "Equal", y, dtype), _is(g, "Equal", x, dtype)])
    zero = g.node("Where", [y_negative, g.scalar(-0.0, dtype), g.scalar(0.0, dtype)])
    origin = g.node("Where", [x_negative, half_turn, zero])
    return g.node("Where", [at_origin, origin, angle])


@translates("hypot")
def _hypot(g, op):
    # max * sqrt(1 + (min / max)^2): no overflow for large entries.
    a, b, dtype = _operands(g, op)
    a, b = g.node("Abs", [a]), g.node("Abs", [b])
    high, low = g.node("Max", [a, b]), g.node("Min", [a, b])
    # equal (both 0 or both inf): the ratio is 1, not NaN
    ratio = g.node("Where", [g.node("Equal", [low, high]), g.scalar(1, dtype),
                             g.node("Div", [low, high])])
    root = g.node("Sqrt", [g.node("Add", [g.scalar(1, dtype), g.node("Mul", [ratio, ratio])])])
    return g.node("Mul", [high, root])


def log1p(g, x, dtype):
    """log(1 + x), accurate for small x: log(1 + x) * x / ((1 + x) - 1), and x where 1 + x
    rounds to 1."""
    one = g.scalar(1, dtype)
    u = g.node("Add", [x, one])
    spent = g.node("Sub", [u, one])
    exact = g.node("Div", [g.node("Mul", [g.node("Log", [u]), x]),
                           g.node("Where", [_is(g, "Equal", spent, dtype), one, spent])])
    return g.node("Where", [_is(g, "Equal", spent, dtype), x, exact])


@translates("logaddexp", "logaddexp2")
def _logaddexp(g, op):
    """max + log1p(b^-|x1 - x2|) (in base e or 2); equal entries (infinities too) give
    x + log(2)."""
    a, b, dtype = _operands(g, op)
    base2 = op.name == "logaddexp2"
    high = g.node("Max", [a, b])
    gap = g.node("Neg", [g.node("Abs", [g.node("Sub", [a, b])])])
    small = g.node("Pow", [g.scalar(2, dtype), gap]) if base2 else g.node("Exp", [gap])
    tail = log1p(g, small, dtype)
    if base2:
        tail = g.node("Div", [tail, g.scalar(math.log(2.0), dtype)])
    same = g.node("Add", [a, g.scalar(1.0 if base2 else math.log(2.0), dtype)])
    return g.node("Where", [g.node("Equal", [a, b]), same, g.node("Add", [high, tail])])


@translates("ldexp")
def _ldexp(g, op):
    """x1 * 2^x2, with 2^x2 applied in three exact powers of two so that no factor
    overflows while the result is still representable (0 * 2^300 is 0, not NaN)."""
    dtype = np.dtype(op.outputs[0].dtype)
    x = g.value(op.inputs[0], dtype)
    info = np.finfo(dtype)
    limit = info.maxexp - info.minexp + info.nmant + 1  # beyond it every result saturates
    k = g.node("Clip", [g.value(op.inputs[1], np.int64), g.scalar(-limit, np.int64),
                        g.scalar(limit, np.int64)])
    first = g.node("Div", [k, g.scalar(3, np.int64)])
    rest = g.node("Sub", [k, first])
    second = g.node("Div", [rest, g.scalar(2, np.int64)])
    third = g.node("Sub", [rest, second])
    for part in (first, second, third):
        x = g.node("Mul", [x, g.node("Pow", [g.scalar(2, dtype), g.cast(part, dtype)])])
    return x
