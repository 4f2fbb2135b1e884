"""Elementwise ops without a gradient: rounding, float classification, bits, integer
gcd/lcm, logical xor.

Bitwise nodes (`BitwiseAnd`, ...) exist from opset 18; ONNX's `BitShift` is
logical and on unsigned integers only, so shifts of signed integers run on
their two's-complement bits in uint64 (an arithmetic right shift works on the
complement of negative entries). The classification of integers is constant:
never NaN or infinite. `gcd` runs Euclid's algorithm in an ONNX `Loop`.
"""

import numpy as np

from ._common import is_float, loop, sign_bit
from .registry import translates

_BITWISE = {"bitwise_and": ("BitwiseAnd", "And"), "bitwise_or": ("BitwiseOr", "Or"),
            "bitwise_xor": ("BitwiseXor", "Xor")}
_SHIFT_BITS = 64  # shifts run in uint64
_EUCLID_STEPS = 100  # at most 92 steps for 64-bit integers (consecutive Fibonacci numbers)


def _input(g, op):
    x = op.inputs[0]
    return g.value(x), np.dtype(x.dtype)


def _filled(g, like, truth):
    """A bool tensor of `like`'s shape, all `truth`."""
    fill = g.onnx.numpy_helper.from_array(np.array([truth]))
    return g.node("ConstantOfShape", [g.node("Shape", [like])], value=fill)


@translates("ceil")
def _ceil(g, op):
    return g.node("Ceil", [g.value(op.inputs[0], op.outputs[0].dtype)])


@translates("trunc")
def _trunc(g, op):
    dtype = op.outputs[0].dtype
    x = g.value(op.inputs[0], dtype)
    below = g.node("Less", [x, g.scalar(0, dtype)])
    return g.node("Where", [below, g.node("Ceil", [x]), g.node("Floor", [x])])


@translates("isnan", "isinf", "isneginf", "isposinf", "isfinite")
def _classify(g, op):
    x, dtype = _input(g, op)
    if not is_float(dtype):
        return _filled(g, x, op.name == "isfinite")
    if op.name == "isnan":
        return g.node("IsNaN", [x])
    if op.name == "isfinite":
        return g.node("Not", [g.node("Or", [g.node("IsNaN", [x]), g.node("IsInf", [x])])])
    return g.node("IsInf", [x], detect_negative=int(op.name != "isposinf"),
                  detect_positive=int(op.name != "isneginf"))


@translates("signbit")
def _signbit(g, op):
    x, dtype = _input(g, op)
    if is_float(dtype):
        return sign_bit(g, x, dtype)
    if np.issubdtype(dtype, np.signedinteger):
        return g.node("Less", [x, g.scalar(0, dtype)])
    return _filled(g, x, False)


@translates("logical_xor")
def _logical_xor(g, op):
    return g.node("Xor", [g.value(x, np.bool_) for x in op.inputs])


def _needs_opset_18(g):
    if g.opset < 18:
        raise g.error(f"integer bits, which ONNX's Bitwise nodes take from opset 18 (the "
                      f"export uses opset {g.opset}); export with opset_version=18 or higher")


@translates("bitwise_invert")
def _bitwise_invert(g, op):
    dtype = op.outputs[0].dtype
    x = g.value(op.inputs[0], dtype)
    if dtype == np.bool_:
        return g.node("Not", [x])
    _needs_opset_18(g)
    return g.node("BitwiseNot", [x])


@translates(*_BITWISE)
def _bitwise(g, op):
    dtype = op.outputs[0].dtype
    a, b = (g.value(x, dtype) for x in op.inputs)
    on_integers, on_bools = _BITWISE[op.name]
    if dtype == np.bool_:
        return g.node(on_bools, [a, b])
    _needs_opset_18(g)
    return g.node(on_integers, [a, b])


@translates("left_shift", "right_shift")
def _shift(g, op):
    """numpy's shifts: bits shifted out are lost (a count past the width gives 0, or -1
    for a negative entry shifted right); right shifts of signed entries keep the sign."""
    dtype = np.dtype(op.outputs[0].dtype)
    signed = not np.issubdtype(dtype, np.unsignedinteger)
    # onnxruntime's Where takes no uint64: selections run in int64, on the same bits.
    x = g.value(op.inputs[0], np.int64 if signed else np.uint64)
    count = g.value(op.inputs[1], np.int64)
    past = g.node("GreaterOrEqual", [count, g.scalar(_SHIFT_BITS, np.int64)])
    count = g.cast(g.node("Min", [count, g.scalar(_SHIFT_BITS - 1, np.int64)]), np.uint64)
    zero = g.scalar(0, np.int64)
    if op.name == "left_shift" or not signed:
        direction = "LEFT" if op.name == "left_shift" else "RIGHT"
        bits = g.node("BitShift", [g.cast(x, np.uint64), count], direction=direction)
        return g.cast(g.node("Where", [past, zero, g.cast(bits, np.int64)]), dtype)
    # x >> n == ~(~x >> n) for negative x, and ~x = -1 - x is then non-negative.
    minus_one = g.scalar(-1, np.int64)
    negative = g.node("Less", [x, zero])
    magnitude = g.node("Where", [negative, g.node("Sub", [minus_one, x]), x])
    bits = g.cast(g.node("BitShift", [g.cast(magnitude, np.uint64), count],
                         direction="RIGHT"), np.int64)
    out = g.node("Where", [negative, g.node("Sub", [minus_one, bits]), bits])
    return g.cast(out, dtype)


def _gcd(g, a, b, dtype):
    """gcd(|a|, |b|) by Euclid's algorithm, every entry at once, in a `Loop` that runs
    while some remainder is non-zero."""
    zero = g.scalar(0, dtype)

    def any_nonzero(x):
        nonzero = g.cast(g.node("Not", [g.node("Equal", [x, zero])]), np.int32)
        return g.node("Greater", [g.node("ReduceMax", [nonzero], keepdims=0),
                                  g.scalar(0, np.int32)])

    def euclid_step(carried):
        a, b = carried
        done = g.node("Equal", [b, zero])
        safe = g.node("Where", [done, g.scalar(1, dtype), b])
        remainder = g.node("Where", [done, zero, g.node("Mod", [a, safe])])
        return any_nonzero(remainder), [g.node("Where", [done, a, b]), remainder]

    a, b = g.node("Abs", [a]), g.node("Abs", [b])
    return loop(g, any_nonzero(b), [a, b], [dtype, dtype], euclid_step, _EUCLID_STEPS)[0]


@translates("gcd", "lcm")
def _gcd_lcm(g, op):
    dtype = np.dtype(op.outputs[0].dtype)
    wide = dtype if dtype in (np.int32, np.int64) else np.dtype(np.int64)
    a, b = (g.value(x, wide) for x in op.inputs)
    divisor = _gcd(g, a, b, wide)
    if op.name == "lcm":  # |a| / gcd * |b|, and 0 when both are 0
        zero = g.node("Equal", [divisor, g.scalar(0, wide)])
        safe = g.node("Where", [zero, g.scalar(1, wide), divisor])
        multiple = g.node("Abs", [g.node("Mul", [g.node("Div", [a, safe]), b])])
        divisor = g.node("Where", [zero, g.scalar(0, wide), multiple])
    return g.cast(divisor, dtype) if wide != dtype else divisor
