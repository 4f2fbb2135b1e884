"""Array math with Keras 3's `keras.ops` names and signatures.

Each function is a thin call of `hikeras.backend.apply`. Inputs may be
numpy arrays, Python numbers or lists, `Tensor`s (recorded by an active
`GradientTape`) or `SymbolicTensor`s (giving symbolic results).

>>> import numpy as np
>>> add(np.array([1.0, 2.0], dtype="float32"), 1.0).tolist()
[2.0, 3.0]
"""

import builtins as _builtins
import math as _math

import numpy as np

from ... import backend
from ..core import as_array, cast, operands, shape, spec_if_unknown, tensor_operand
from .promotion import float_operands, promoted_operands, result_dtype

_apply = backend.apply


def _binary(name):
    def op(x1, x2):
        return _apply(name, *operands(x1, x2))

    return op


def _unchanged(x1, x2, prepare):
    """Whether promotion would leave `x1` and `x2` as they are: equal dtypes, or a float
    tensor with a Python number (which is weak)."""
    dtype = getattr(x1, "dtype", None)
    if dtype is None:
        return False
    if dtype == getattr(x2, "dtype", None):
        return prepare is promoted_operands or dtype.kind in "fc"
    return dtype.kind in "fc" and isinstance(x2, (int, float))


def _arithmetic(name, prepare=promoted_operands):
    """A binary op computed in Keras's result dtype (`promotion`)."""
    def op(x1, x2):
        if _unchanged(x1, x2, prepare) or _unchanged(x2, x1, prepare):
            return _apply(name, x1, x2)  # the common cases: nothing to promote
        return _apply(name, *prepare(x1, x2))

    return op


def _unary(name):
    def op(x):
        return _apply(name, tensor_operand(x))

    return op


add = _arithmetic("add")
add.__doc__ = "`x1 + x2`, elementwise with broadcasting."
subtract = _arithmetic("subtract")
subtract.__doc__ = "`x1 - x2`, elementwise with broadcasting."
multiply = _arithmetic("multiply")
multiply.__doc__ = "`x1 * x2`, elementwise with broadcasting."
divide = _arithmetic("divide", float_operands)
divide.__doc__ = "`x1 / x2` (true division), elementwise with broadcasting."
true_divide = divide
power = _arithmetic("power")
power.__doc__ = "`x1 ** x2`, elementwise with broadcasting."
maximum = _arithmetic("maximum")
maximum.__doc__ = "Elementwise maximum; at ties the gradient goes to `x1`."
minimum = _arithmetic("minimum")
minimum.__doc__ = "Elementwise minimum; at ties the gradient goes to `x1`."
equal = _binary("equal")
equal.__doc__ = "`x1 == x2`, elementwise (bool)."
not_equal = _binary("not_equal")
not_equal.__doc__ = "`x1 != x2`, elementwise (bool)."
less = _binary("less")
less.__doc__ = "`x1 < x2`, elementwise (bool)."
less_equal = _binary("less_equal")
less_equal.__doc__ = "`x1 <= x2`, elementwise (bool)."
greater = _binary("greater")
greater.__doc__ = "`x1 > x2`, elementwise (bool)."
greater_equal = _binary("greater_equal")
greater_equal.__doc__ = "`x1 >= x2`, elementwise (bool)."
logical_and = _binary("logical_and")
logical_and.__doc__ = "Elementwise truth of `x1 and x2`."
logical_or = _binary("logical_or")
logical_or.__doc__ = "Elementwise truth of `x1 or x2`."

negative = _unary("negative")
negative.__doc__ = "`-x`, elementwise."
square = _unary("square")
square.__doc__ = "`x * x`, elementwise."
sqrt = _unary("sqrt")
sqrt.__doc__ = "Elementwise square root."
exp = _unary("exp")
exp.__doc__ = "Elementwise `e ** x`."
log = _unary("log")
log.__doc__ = "Elementwise natural logarithm."
log1p = _unary("log1p")
log1p.__doc__ = "Elementwise `log(1 + x)`, accurate for small `x`."
expm1 = _unary("expm1")
expm1.__doc__ = "Elementwise `exp(x) - 1`, accurate for small `x`."
abs = _unary("abs")
abs.__doc__ = "Elementwise absolute value."
absolute = abs
sign = _unary("sign")
sign.__doc__ = "Elementwise sign: -1, 0 or 1 (no gradient)."
floor = _unary("floor")
floor.__doc__ = "Elementwise floor (no gradient)."
logical_not = _unary("logical_not")
logical_not.__doc__ = "Elementwise truth of `not x`."


def round(x, decimals=0):
    """Rounds half to even, to `decimals` decimal places (no gradient)."""
    return _apply("round", tensor_operand(x), decimals=int(decimals))


def clip(x, x_min, x_max):
    """Clips `x` to `[x_min, x_max]`; the gradient passes inside the closed interval."""
    return _apply("clip", tensor_operand(x), x_min=x_min, x_max=x_max)


def where(condition, x1=None, x2=None):
    """`x1` where `condition` holds, else `x2`.

    With only `condition`, returns the indices of its nonzero entries (a
    tuple of integer arrays, one per axis; not differentiable).
    """
    if x1 is None and x2 is None:
        return np.nonzero(np.asarray(_value(condition)))
    if x1 is None or x2 is None:
        raise ValueError(
            f"where needs both x1 and x2, or neither. Received: x1={x1!r}, x2={x2!r}"
        )
    condition = tensor_operand(condition)
    x1, x2 = promoted_operands(x1, x2)
    return _apply("where", condition, x1, x2)


def _value(x):
    """The numpy array behind `x` (where a function needs concrete values)."""
    return x.value if isinstance(x, backend.Tensor) else x


def matmul(x1, x2):
    """Matrix product with numpy's `matmul` broadcasting rules."""
    return _apply("matmul", *operands(x1, x2))


def dot(x1, x2):
    """numpy's `dot`: a product for scalars, `matmul` up to 2-d `x2`, else a
    contraction of the last axis of `x1` with the second-to-last of `x2`."""
    x1, x2 = operands(x1, x2)
    rank1, rank2 = len(shape(x1)), len(shape(x2))
    if rank1 == 0 or rank2 == 0:
        return multiply(x1, x2)
    if rank2 <= 2:
        return matmul(x1, x2)
    s1, s2 = shape(x1), shape(x2)
    perm = (rank2 - 2,) + tuple(range(rank2 - 2)) + (rank2 - 1,)
    flat = reshape(transpose(x2, perm), (s2[-2], -1))
    return reshape(matmul(x1, flat), tuple(s1[:-1]) + tuple(s2[:-2]) + (s2[-1],))


def reshape(x, newshape):
    """Gives `x` a new shape; one entry may be -1 (or `None`) to be inferred."""
    return _apply("reshape", tensor_operand(x), shape=tuple(newshape) if not isinstance(
        newshape, (int, np.integer)) else (int(newshape),))


def transpose(x, axes=None):
    """Permutes the axes (reverses them when `axes` is None)."""
    return _apply("transpose", tensor_operand(x), axes=None if axes is None else tuple(axes))


def expand_dims(x, axis):
    """Inserts a length-1 axis at `axis` (an int or a tuple of ints)."""
    return _apply("expand_dims", tensor_operand(x), axis=axis)


def squeeze(x, axis=None):
    """Removes length-1 axes (all of them when `axis` is None)."""
    return _apply("squeeze", tensor_operand(x), axis=axis)


def broadcast_to(x, shape):
    """Broadcasts `x` to `shape` (a read-only view on the numpy backend)."""
    return _apply("broadcast_to", tensor_operand(x), shape=tuple(shape))


def _sequence(xs, what):
    if not isinstance(xs, (list, tuple)):
        raise TypeError(f"{what} expects a list or tuple of tensors. Received: xs={xs!r}")
    return [tensor_operand(x) for x in xs]


def concatenate(xs, axis=0):
    """Joins a sequence of tensors along an existing axis."""
    xs = _sequence(xs, "concatenate")
    dtype = result_dtype(*xs)
    return _apply("concatenate", *[x if np.dtype(x.dtype) == dtype else cast(x, dtype)
                                   for x in xs], axis=axis)


def stack(x, axis=0):
    """Joins a sequence of same-shaped tensors along a new axis."""
    return _apply("stack", *_sequence(x, "stack"), axis=axis)


def split(x, indices_or_sections, axis=0):
    """Splits into equal sections, or at the given indices; returns a list."""
    if not isinstance(indices_or_sections, (int, np.integer)):
        indices_or_sections = [int(i) for i in indices_or_sections]
    return list(_apply("split", tensor_operand(x), indices_or_sections=indices_or_sections,
                       axis=axis))


def take(x, indices, axis=None):
    """Gathers entries at `indices` along `axis` (of the flattened `x` when None).

    Non-integer indices are cast to int32 (as Keras's `Embedding` does).
    """
    indices = tensor_operand(indices)
    if not np.issubdtype(np.dtype(indices.dtype), np.integer):
        indices = cast(indices, "int32")
    return _apply("take", tensor_operand(x), indices, axis=axis)


def pad(x, pad_width, mode="constant", constant_values=None):
    """Pads like `np.pad`: modes "constant", "edge", "reflect", "symmetric", "wrap"."""
    if constant_values is not None and mode != "constant":
        raise ValueError(
            "constant_values can only be given with mode='constant'. "
            f"Received: mode={mode!r}, constant_values={constant_values!r}"
        )
    pad_width = np.asarray(pad_width, dtype=np.int64).tolist()
    attrs = {"pad_width": pad_width, "mode": mode}
    if mode == "constant":
        attrs["constant_values"] = 0 if constant_values is None else constant_values
    return _apply("pad", tensor_operand(x), **attrs)


def tile(x, repeats):
    """Repeats the whole of `x` `repeats[i]` times along each axis `i`."""
    repeats = int(repeats) if isinstance(repeats, (int, np.integer)) else tuple(repeats)
    return _apply("tile", tensor_operand(x), repeats=repeats)


def repeat(x, repeats, axis=None):
    """Repeats each entry `repeats` times along `axis` (of the flattened `x` when None)."""
    if not isinstance(repeats, (int, np.integer)):
        repeats = [int(r) for r in np.asarray(repeats).reshape(-1)]
    return _apply("repeat", tensor_operand(x), repeats=repeats, axis=axis)


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _float_input(x):
    """Integers become floatx for mean/var/std, as in Keras."""
    x = tensor_operand(x)
    if not np.issubdtype(np.dtype(x.dtype), np.inexact):
        x = cast(x, backend.floatx())
    return x


def sum(x, axis=None, keepdims=False):
    """Sum over `axis` (all axes when None)."""
    return _apply("sum", tensor_operand(x), axis=_axis(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    """Arithmetic mean over `axis`; integer inputs give floatx."""
    return _apply("mean", _float_input(x), axis=_axis(axis), keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    """Population variance over `axis`."""
    return _apply("var", _float_input(x), axis=_axis(axis), keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    """Population standard deviation over `axis`."""
    return _apply("std", _float_input(x), axis=_axis(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False, initial=None):
    """Maximum over `axis`; ties share the gradient equally."""
    out = _apply("max", tensor_operand(x), axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else maximum(out, initial)


def min(x, axis=None, keepdims=False, initial=None):
    """Minimum over `axis`; ties share the gradient equally."""
    out = _apply("min", tensor_operand(x), axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else minimum(out, initial)


def prod(x, axis=None, keepdims=False, dtype=None):
    """Product over `axis` (gradient exact even where entries are zero)."""
    x = tensor_operand(x) if dtype is None else cast(x, dtype)
    return _apply("prod", x, axis=_axis(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    """Whether any entry along `axis` (all axes when None) is true or non-zero."""
    return _apply("any", tensor_operand(x), axis=_axis(axis), keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    """Whether every entry along `axis` (all axes when None) is true or non-zero."""
    return _apply("all", tensor_operand(x), axis=_axis(axis), keepdims=keepdims)


def argmax(x, axis=None, keepdims=False):
    """Index (int64) of the first maximum along `axis`, of the flattened `x` if None."""
    return _apply("argmax", tensor_operand(x), axis=axis, keepdims=keepdims)


def argmin(x, axis=None, keepdims=False):
    """Index (int64) of the first minimum along `axis`, of the flattened `x` if None."""
    return _apply("argmin", tensor_operand(x), axis=axis, keepdims=keepdims)


def _creation_dtype(dtype, *values):
    if dtype is not None:
        return np.dtype(dtype)
    if _builtins.any(isinstance(v, float) or np.issubdtype(np.asarray(v).dtype, np.floating)
           for v in values):
        return np.dtype(backend.floatx())
    return np.dtype("int32")


def zeros(shape, dtype=None):
    """A new array of zeros (floatx unless `dtype` is given)."""
    dtype = dtype or backend.floatx()
    spec = spec_if_unknown(shape, dtype)
    return np.zeros(shape, dtype=dtype) if spec is None else spec


def ones(shape, dtype=None):
    """A new array of ones (floatx unless `dtype` is given)."""
    dtype = dtype or backend.floatx()
    spec = spec_if_unknown(shape, dtype)
    return np.ones(shape, dtype=dtype) if spec is None else spec


def full(shape, fill_value, dtype=None):
    """A new array filled with `fill_value`."""
    fill = as_array(_value(fill_value))
    dtype = fill.dtype if dtype is None else dtype
    spec = spec_if_unknown(shape, dtype)
    return np.full(shape, fill, dtype=dtype) if spec is None else spec


def eye(N, M=None, k=0, dtype=None):
    """A 2-d array with ones on the `k`-th diagonal."""
    return np.eye(N, M, k, dtype=dtype or backend.floatx())


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in `[start, stop)` (step 1 by default); float arguments give
    floatx, ints int32."""
    step = 1 if step is None else step
    if stop is None:
        start, stop = 0, start
    dtype = _creation_dtype(dtype, start, stop, step)
    if _builtins.any(isinstance(v, backend.SymbolicTensor) for v in (start, stop, step)):
        return backend.SymbolicTensor((None,), dtype)  # a traced layer's `arange(steps)`
    return np.arange(start, stop, step, dtype=dtype)


def zeros_like(x, dtype=None):
    """Zeros with the shape (and, by default, dtype) of `x`."""
    return _apply("zeros_like", tensor_operand(x), dtype=dtype)


def ones_like(x, dtype=None):
    """Ones with the shape (and, by default, dtype) of `x`."""
    return _apply("ones_like", tensor_operand(x), dtype=dtype)


def full_like(x, fill_value, dtype=None):
    """`fill_value` with the shape (and, by default, dtype) of `x`."""
    return add(zeros_like(x, dtype=dtype), fill_value)


def ndim(x):
    """The number of axes of `x`."""
    return len(shape(x))


def size(x):
    """The number of entries of `x` (None if a dimension is unknown)."""
    dims = shape(x)
    return None if None in dims else _math.prod(dims)


def einsum(subscripts, *operands, **kwargs):
    """Einstein summation, e.g. `einsum("bij,bjk->bik", a, b)` (lowered to matmuls).

    Keyword arguments are accepted for Keras's signature (backend tuning hints
    such as `optimize`) and have no effect here.
    """
    return backend.apply("einsum", *operands, equation=subscripts)
