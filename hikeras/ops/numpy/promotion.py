"""Keras's dtype promotion, where it differs from numpy's.

- An integer or bool tensor with a float tensor gives the float tensor's type
  (numpy would widen `int32 + float32` to float64).
- Python numbers are "weak": they never widen a tensor, but a Python float
  makes an integer or bool tensor floatx, and a Python int makes a bool one
  int32.
- Float ops (trigonometry, logs, true division, ...) compute in floatx when
  every input is an integer or bool.

>>> import numpy as np
>>> float_dtype(np.zeros(2, "int32")), float_dtype(np.zeros(2, "float16"), 1.0)
(dtype('float32'), dtype('float16'))
>>> result_dtype(np.zeros(2, "int32"), np.zeros(2, "float32")), result_dtype(np.bool_(1), 2)
(dtype('float32'), dtype('int32'))
"""

import numpy as np

from ... import backend
from ..core import cast, operands, tensor_operand

_SCALARS = (bool, int, float)


def result_dtype(*xs):
    """Keras's result dtype of operands `xs` (tensors, arrays and Python numbers)."""
    arrays = [np.dtype(x.dtype) for x in xs if not isinstance(x, _SCALARS)]
    floats = [d for d in arrays if _is_float(d)]
    dtype = np.result_type(*(floats or arrays)) if arrays else None
    scalars = [x for x in xs if isinstance(x, _SCALARS)]
    if dtype is None:
        return np.dtype(backend.floatx()) if any(isinstance(x, float) for x in scalars) \
            else np.dtype("int32")
    if not floats and any(isinstance(x, float) for x in scalars):
        return np.dtype(backend.floatx())
    if dtype == np.bool_ and any(type(x) is int for x in scalars):
        return np.dtype("int32")
    return dtype


def float_dtype(*xs):
    """The float dtype an op on `xs` computes in."""
    dtype = result_dtype(*xs)
    return dtype if _is_float(dtype) else np.dtype(backend.floatx())


def _is_float(dtype):
    """Float or complex, bfloat16 (ml-dtypes, which numpy files as kind "V") included."""
    return dtype.kind in "fc" or dtype.name == "bfloat16"


def _cast_to(xs, dtype):
    return [x if isinstance(x, _SCALARS) or np.dtype(x.dtype) == dtype else cast(x, dtype)
            for x in xs]


def promoted_operands(*xs):
    """`xs` as operands, tensors cast to Keras's result dtype where they differ from it."""
    xs = operands(*xs)
    return _cast_to(xs, result_dtype(*xs))


def float_operand(x):
    """`x` as a tensor operand, cast to floatx when it is an integer or bool."""
    x = tensor_operand(x)
    dtype = float_dtype(x)
    return x if np.dtype(x.dtype) == dtype else cast(x, dtype)


def float_operands(*xs):
    """`xs` as operands of a float op: tensors cast to the common float dtype."""
    xs = operands(*xs)
    return _cast_to(xs, float_dtype(*xs))
