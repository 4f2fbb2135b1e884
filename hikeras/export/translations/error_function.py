"""The error function and its inverse: ONNX's `Erf`, and compositions of it.

`erfc` is `1 - erf`, so deep in the upper tail (x > 4, where erfc < 2e-8) it
is exact only in absolute terms. ONNX has no inverse error function:
`erfinv` starts from a closed-form guess (good to about 2e-3) and takes
Newton steps on `erf(y) = x`; onnxruntime's `Erf` is float32 only, so within
about 1e-3 of +-1 the result keeps fewer digits than the eager op's.
"""

import math

import numpy as np

from .registry import translates

_NEWTON_STEPS = 3
_WINITZKI = 0.147  # the constant of the closed-form guess


def _input(g, op):
    dtype = op.outputs[0].dtype
    return g.value(op.inputs[0], dtype), dtype


@translates("erf")
def _erf(g, op):
    x, _ = _input(g, op)
    return g.node("Erf", [x])


@translates("erfc")
def _erfc(g, op):
    x, dtype = _input(g, op)
    return g.node("Sub", [g.scalar(1, dtype), g.node("Erf", [x])])


@translates("erfinv")
def _erfinv(g, op):
    x, dtype = _input(g, op)

    def c(v):
        return g.scalar(v, dtype)

    a = g.node("Abs", [x])
    inside = g.node("Less", [a, c(1)])
    safe = g.node("Where", [inside, a, c(0.5)])
    # guess: sqrt(sqrt(t^2 - log(1 - a^2) / k) - t), t = 2 / (pi k) + log(1 - a^2) / 2
    log_term = g.node("Log", [g.node("Sub", [c(1), g.node("Mul", [safe, safe])])])
    first = g.node("Add", [c(2 / (math.pi * _WINITZKI)), g.node("Mul", [log_term, c(0.5)])])
    inner = g.node("Sub", [g.node("Mul", [first, first]),
                           g.node("Div", [log_term, c(_WINITZKI)])])
    y = g.node("Sqrt", [g.node("Sub", [g.node("Sqrt", [inner]), first])])
    for _ in range(_NEWTON_STEPS):
        slope = g.node("Mul", [g.node("Exp", [g.node("Neg", [g.node("Mul", [y, y])])]),
                               c(2 / math.sqrt(math.pi))])
        miss = g.node("Sub", [g.node("Erf", [y]), safe])
        y = g.node("Sub", [y, g.node("Div", [miss, slope])])
    # |x| == 1: inf; |x| > 1 or NaN: NaN
    edge = g.node("Where", [g.node("Equal", [a, c(1)]), c(np.inf), c(np.nan)])
    y = g.node("Where", [inside, y, edge])
    return g.node("Mul", [g.node("Sign", [x]), y])
