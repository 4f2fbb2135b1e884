"""A float32 `exp` that vectorises in compiled loops, and the gates built on it.

numba's `math.exp` and `np.exp` become calls to the C library's scalar `expf`
(llvmlite here has no vector math library), so a loop calling them runs one
element at a time. `exp32` is plain arithmetic instead, which LLVM turns into
SIMD code: `exp(x) = 2^n * exp(r)` with `n = round(x / ln 2)` and
`|r| <= ln(2) / 2`, `exp(r)` from its Taylor polynomial of degree 7 (the
remainder is below 1e-8, under float32's rounding), and `2^n` written as
float32 bits. ln 2 is split into a high part exact in float32 and a low part,
so that `x - n ln 2` loses no precision.

Range: `x` is clamped to `[-86.5, 88.8]`. Above 88.72, float32 `exp`
overflows, and so does this one: `2^(n-1) * 2` with `n = 128` gives inf,
hence `sigmoid(-z) = 1 / (1 + inf)` is exactly 0. Below -86.5 it returns
`exp(-86.5)` (about 3e-38) instead of smaller numbers and denormals, which
`1 + e` rounds to exactly 1. NaN stays NaN.
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.core.extending import intrinsic

from ._jit import inline

_LOG2E = np.float32(1.4426950408889634)
_LN2_HI = np.float32(0.693145751953125)      # 16 significant bits: n * _LN2_HI is exact
_LN2_LO = np.float32(1.428606765330187e-06)
_LOW, _HIGH = np.float32(-86.5), np.float32(88.8)
_HALF, _ONE, _TWO = np.float32(0.5), np.float32(1.0), np.float32(2.0)
_C = [np.float32(1.0 / f) for f in (2, 6, 24, 120, 720, 5040)]
_C2, _C3, _C4, _C5, _C6, _C7 = _C


@intrinsic
def _float_from_bits(typingctx, bits):
    """The float32 whose IEEE bits are the low 32 bits of the integer `bits`."""
    if not isinstance(bits, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        low = builder.trunc(args[0], ir.IntType(32)) if bits.bitwidth > 32 else args[0]
        return builder.bitcast(low, ir.FloatType())

    return types.float32(bits), codegen


@inline
def exp32(x):
    """`exp(x)` for float32 `x`, to about 2 ulp (see the module docstring for the range)."""
    x = max(x, _LOW)
    x = min(x, _HIGH)
    n = np.floor(x * _LOG2E + _HALF)
    r = x - n * _LN2_HI - n * _LN2_LO
    p = _ONE + r * (_ONE + r * (_C2 + r * (_C3 + r * (_C4 + r * (_C5 + r * (_C6 + r * _C7))))))
    scale = _float_from_bits((np.int32(n) + 126) << 23)   # 2^(n - 1)
    return p * scale * _TWO


@inline
def sigmoid_of_negated(e_arg):
    """`1 / (1 + exp(e_arg))`: the sigmoid of `-e_arg`."""
    return _ONE / (_ONE + exp32(e_arg))


@inline
def tanh32(x):
    """`tanh(x) = 2 sigmoid(2 x) - 1`, to float32 rounding of values of size 1."""
    return _TWO / (_ONE + exp32(-_TWO * x)) - _ONE
