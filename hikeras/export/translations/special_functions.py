"""Functions ONNX has no node for, written from their mathematics: the modified Bessel
function `i0` and `nextafter`.

`i0(x)` is its power series `sum (x^2/4)^k / (k!)^2` (all terms positive, so
no cancellation) up to |x| = 15, and beyond it the asymptotic expansion
`e^|x| / sqrt(2 pi |x|) * (1 + 1/(8|x|) + 9/(2 (8|x|)^2) + ...)`. Like the
eager op (numpy's, and Keras's `exp(|x|) i0e(x)`), it overflows where `e^|x|`
does (|x| > 88.7 in float32) and is NaN at infinity.

`nextafter(x1, x2)` moves `x1` by one unit in the last place towards `x2`:
the unit is `2^(e - mantissa bits)` for `x1`'s binary exponent `e` (found with
`Log` and corrected exactly against powers of two), half of it when a power
of two moves towards zero, and the smallest subnormal at and below the
smallest normal exponent; from 0 the result is that subnormal, signed as
`x2`; an infinity moves to the largest finite number; NaN in, NaN out.
"""

import math

import numpy as np

from .registry import translates

_SERIES_LIMIT = 15.0
_SERIES_TERMS = 30  # the series' remainder at |x| = 15 is below 1e-12 of i0
_ASYMPTOTIC_TERMS = 9  # the expansion's next term at |x| = 15 is below 1e-9


def _asymptotic_coefficients():
    """((2k - 1)!!)^2 / (k! 8^k), the coefficients of 1 / |x|^k."""
    out, c = [1.0], 1.0
    for k in range(1, _ASYMPTOTIC_TERMS):
        c *= (2 * k - 1) ** 2 / (8.0 * k)
        out.append(c)
    return out


@translates("i0")
def _i0(g, op):
    dtype = op.outputs[0].dtype
    x = g.node("Abs", [g.value(op.inputs[0], dtype)])
    one = g.scalar(1, dtype)
    # series, by Horner: 1 + q/1^2 (1 + q/2^2 (1 + ...)), q = x^2 / 4
    q = g.node("Mul", [g.node("Mul", [x, x]), g.scalar(0.25, dtype)])
    series = one
    for k in range(_SERIES_TERMS, 0, -1):
        step = g.node("Mul", [q, g.scalar(1.0 / (k * k), dtype)])
        series = g.node("Add", [one, g.node("Mul", [series, step])])
    # asymptotic, by Horner in 1 / x
    inverse = g.node("Div", [one, x])
    tail = g.scalar(_asymptotic_coefficients()[-1], dtype)
    for c in reversed(_asymptotic_coefficients()[:-1]):
        tail = g.node("Add", [g.scalar(c, dtype), g.node("Mul", [tail, inverse])])
    root = g.node("Sqrt", [g.node("Mul", [x, g.scalar(2 * math.pi, dtype)])])
    asymptotic = g.node("Mul", [g.node("Div", [g.node("Exp", [x]), root]), tail])
    near = g.node("LessOrEqual", [x, g.scalar(_SERIES_LIMIT, dtype)])
    return g.node("Where", [near, series, asymptotic])


@translates("nextafter")
def _nextafter(g, op):
    dtype = np.dtype(op.outputs[0].dtype)
    info = np.finfo(dtype)
    x, y = (g.value(v, dtype) for v in op.inputs)

    def c(v):
        return g.scalar(v, dtype)

    size = g.node("Abs", [x])
    # e = floor(log2 |x|), corrected so that 2^e <= |x| < 2^(e + 1); at least minexp
    e = g.node("Floor", [g.node("Div", [g.node("Log", [size]), c(math.log(2.0))])])
    e = g.node("Max", [e, c(info.minexp)])
    power = g.node("Pow", [c(2), e])
    e = g.node("Where", [g.node("Greater", [power, size]), g.node("Sub", [e, c(1)]), e])
    power = g.node("Pow", [c(2), e])
    doubled = g.node("Mul", [power, c(2)])
    e = g.node("Where", [g.node("LessOrEqual", [doubled, size]), g.node("Add", [e, c(1)]), e])
    e = g.node("Max", [e, c(info.minexp)])
    unit = g.node("Pow", [c(2), g.node("Sub", [e, c(info.nmant)])])
    # towards zero from a power of two (above the subnormals), the unit below is half
    upwards = g.node("Greater", [y, x])
    away = g.node("Equal", [upwards, g.node("Greater", [x, c(0)])])
    exact_power = g.node("And", [g.node("Equal", [g.node("Pow", [c(2), e]), size]),
                                 g.node("Greater", [e, c(info.minexp)])])
    halve = g.node("And", [exact_power, g.node("Not", [away])])
    unit = g.node("Where", [halve, g.node("Mul", [unit, c(0.5)]), unit])
    moved = g.node("Add", [x, g.node("Mul", [g.node("Sign", [g.node("Sub", [y, x])]), unit])])
    tiny = c(info.smallest_subnormal)
    from_zero = g.node("Mul", [g.node("Sign", [y]), tiny])
    moved = g.node("Where", [g.node("Equal", [x, c(0)]), from_zero, moved])
    largest = g.node("Mul", [g.node("Sign", [x]), c(info.max)])
    moved = g.node("Where", [g.node("IsInf", [x]), largest, moved])
    moved = g.node("Where", [g.node("Equal", [x, y]), y, moved])
    missing = g.node("Or", [g.node("IsNaN", [x]), g.node("IsNaN", [y])])
    return g.node("Where", [missing, g.node("Add", [x, y]), moved])
