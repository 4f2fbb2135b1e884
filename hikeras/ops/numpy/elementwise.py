"""Elementwise functions beyond arithmetic: trigonometry, logs, rounding, bits, tests.

Float functions of integer or bool inputs compute in floatx, as in Keras
(`promotion`). Rounding, classification (`isnan`, ...) and bitwise ops have
no gradient, as in Keras.

>>> import numpy as np
>>> round(float(sin(np.float32(np.pi / 2))), 6)
1.0
"""

import inspect

import numpy as np

from ... import backend
from ..core import operands, tensor_operand
from .basics import abs as _abs
from .basics import all as _all
from .basics import (
    equal,
    less,
    less_equal,
    logical_and,
    logical_or,
    multiply,
    subtract,
    where,
    zeros_like,
)
from .promotion import float_operand, float_operands, promoted_operands

_apply = backend.apply


def _elementwise(name, doc, prepare, params=("x",)):
    """The public function of elementwise op `name`: `prepare` makes its operands."""
    def op(*args):
        return _apply(name, *prepare(*args))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    op.__signature__ = inspect.Signature(
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    return op


def _float_unary(name, doc):
    return _elementwise(name, doc, lambda x: (float_operand(x),))


def _raw_unary(name, doc):
    return _elementwise(name, doc, lambda x: (tensor_operand(x),))


def _float_binary(name, doc):
    return _elementwise(name, doc, float_operands, ("x1", "x2"))


def _raw_binary(name, doc, params=("x1", "x2")):
    return _elementwise(name, doc, operands, params)


def _promoting_binary(name, doc):
    return _elementwise(name, doc, promoted_operands, ("x1", "x2"))


sin = _float_unary("sin", "Elementwise sine.")
cos = _float_unary("cos", "Elementwise cosine.")
tan = _float_unary("tan", "Elementwise tangent.")
arcsin = _float_unary("arcsin", "Elementwise inverse sine.")
arccos = _float_unary("arccos", "Elementwise inverse cosine.")
arctan = _float_unary("arctan", "Elementwise inverse tangent.")
sinh = _float_unary("sinh", "Elementwise hyperbolic sine.")
cosh = _float_unary("cosh", "Elementwise hyperbolic cosine.")
arcsinh = _float_unary("arcsinh", "Elementwise inverse hyperbolic sine.")
arccosh = _float_unary("arccosh", "Elementwise inverse hyperbolic cosine.")
arctanh = _float_unary("arctanh", "Elementwise inverse hyperbolic tangent.")
tanh = _float_unary("tanh", "Elementwise hyperbolic tangent.")
log2 = _float_unary("log2", "Elementwise base-2 logarithm.")
log10 = _float_unary("log10", "Elementwise base-10 logarithm.")
exp2 = _float_unary("exp2", "Elementwise `2 ** x`.")
cbrt = _float_unary("cbrt", "Elementwise cube root.")
reciprocal = _float_unary("reciprocal", "Elementwise `1 / x`.")
sinc = _float_unary("sinc", "Normalised sinc, `sin(pi x) / (pi x)` (1 at 0).")
deg2rad = _float_unary("deg2rad", "Degrees to radians.")
rad2deg = _float_unary("rad2deg", "Radians to degrees.")

isnan = _raw_unary("isnan", "Whether each entry is NaN (bool; no gradient).")
isinf = _raw_unary("isinf", "Whether each entry is infinite (bool; no gradient).")
isfinite = _raw_unary("isfinite", "Whether each entry is finite (bool; no gradient).")
isneginf = _raw_unary("isneginf", "Whether each entry is -inf (bool; no gradient).")
isposinf = _raw_unary("isposinf", "Whether each entry is +inf (bool; no gradient).")
signbit = _raw_unary("signbit", "Whether the sign bit is set, -0.0 included (no gradient).")
bitwise_invert = _raw_unary("bitwise_invert", "Bitwise NOT of integers (`~x`; no gradient).")
bitwise_not = bitwise_invert

arctan2 = _float_binary("arctan2", "The angle of the point `(x2, x1)`, in `[-pi, pi]`.")
hypot = _float_binary("hypot", "`sqrt(x1**2 + x2**2)`, elementwise.")
logaddexp = _float_binary("logaddexp", "`log(exp(x1) + exp(x2))`, without overflow.")
logaddexp2 = _float_binary("logaddexp2", "`log2(2**x1 + 2**x2)`, without overflow.")
divide_no_nan = _float_binary("divide_no_nan", "`x1 / x2`, and 0 where `x2` is 0.")

bitwise_and = _raw_binary("bitwise_and", "Bitwise AND of integers (no gradient).", ("x", "y"))
bitwise_or = _raw_binary("bitwise_or", "Bitwise OR of integers (no gradient).", ("x", "y"))
bitwise_xor = _raw_binary("bitwise_xor", "Bitwise XOR of integers (no gradient).", ("x", "y"))
gcd = _raw_binary("gcd", "Greatest common divisor of integers (no gradient).")
lcm = _raw_binary("lcm", "Least common multiple of integers (no gradient).")
logical_xor = _raw_binary("logical_xor", "Elementwise truth of `x1 xor x2` (no gradient).")


left_shift = _raw_binary("left_shift", "Shifts the bits of integers left by `y` (no gradient).",
                         ("x", "y"))
right_shift = _raw_binary("right_shift", "Shifts the bits of integers right by `y` (no gradient).",
                          ("x", "y"))
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift


mod = _promoting_binary("mod", "Remainder of floor division, with the sign of `x2`.")
fmod = _promoting_binary("fmod", "Remainder of truncated division, with the sign of `x1`.")
fmax = _promoting_binary("fmax", "Elementwise maximum that ignores NaN when one side is a number.")
fmin = _promoting_binary("fmin", "Elementwise minimum that ignores NaN when one side is a number.")
floor_divide = _promoting_binary("floor_divide", "`x1 // x2`, elementwise (no gradient).")
nextafter = _float_binary("nextafter", "The next float after `x1` towards `x2` (no gradient).")


def heaviside(x1, x2):
    """0 where `x1 < 0`, `x2` where `x1 == 0`, 1 where `x1 > 0` (no gradient)."""
    return _apply("heaviside", *float_operands(x1, x2))


def ldexp(x1, x2):
    """`x1 * 2 ** x2` for integer `x2`; differentiable in `x1`."""
    x1 = float_operand(x1)
    x2 = tensor_operand(x2)
    if not np.issubdtype(np.dtype(x2.dtype), np.integer):
        raise TypeError(f"ldexp needs an integer exponent. Received: x2.dtype={x2.dtype}")
    return _apply("ldexp", x1, x2)


def ceil(x):
    """Smallest integer not below `x`, elementwise (floats; no gradient)."""
    return _apply("ceil", float_operand(x))


def trunc(x):
    """`x` rounded towards zero (integers pass through; no gradient)."""
    x = tensor_operand(x)
    if not np.issubdtype(np.dtype(x.dtype), np.inexact):
        return x
    return _apply("trunc", x)


def fabs(x):
    """Elementwise absolute value, as a float."""
    return _abs(float_operand(x))


def real(x):
    """The real part; a real tensor is returned as is (hikeras has no complex tensors)."""
    return tensor_operand(x)


def conj(x):
    """The complex conjugate; a real tensor is returned as is."""
    return tensor_operand(x)


conjugate = conj


def imag(x):
    """The imaginary part: zeros for a real tensor."""
    return zeros_like(tensor_operand(x))


def angle(x):
    """The complex argument: 0 for non-negative reals and pi for negative ones."""
    x = float_operand(x)
    return where(less(x, 0), np.pi, 0.0 * x)


def isreal(x):
    """Whether each entry has no imaginary part: all true for real tensors."""
    return equal(imag(x), 0)


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether `|x1 - x2| <= atol + rtol * |x2|`, elementwise (no gradient)."""
    x1, x2 = float_operands(x1, x2)
    close = less_equal(_abs(subtract(x1, x2)), atol + multiply(rtol, _abs(x2)))
    close = logical_or(close, equal(x1, x2))  # infinities of the same sign
    if equal_nan:
        close = logical_or(close, logical_and(isnan(x1), isnan(x2)))
    return close


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every entry of `x1` and `x2` is close (see `isclose`)."""
    return _all(isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """Replaces NaN by `nan` and infinities by `posinf`/`neginf` (the dtype's extremes
    by default); the gradient passes where `x` is finite."""
    x = tensor_operand(x)
    if not np.issubdtype(np.dtype(x.dtype), np.inexact):
        return x
    info = np.finfo(np.dtype(x.dtype))
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    x = where(isnan(x), float(nan), x)
    x = where(isposinf(x), float(posinf), x)
    return where(isneginf(x), float(neginf), x)


i0 = _float_unary("i0", "The modified Bessel function of the first kind, order 0 (no gradient).")
