"""Keras's dtype rules for ops whose result is a float (trigonometry, logs, ...).

Keras computes such ops in floatx when every input is an integer or bool,
and in the inputs' float type otherwise; Python numbers stay "weak" and
never widen a float tensor.

>>> import numpy as np
>>> float_dtype(np.zeros(2, "int32")), float_dtype(np.zeros(2, "float16"), 1.0)
(dtype('float32'), dtype('float16'))
"""

import numpy as np

from ... import backend
from ..core import cast, operands, tensor_operand


def _dtype_of(x):
    return x if isinstance(x, (bool, int, float)) else np.dtype(x.dtype)


def float_dtype(*xs):
    """The float dtype an op on `xs` computes in."""
    dtype = np.result_type(*[_dtype_of(x) for x in xs])
    return dtype if np.issubdtype(dtype, np.inexact) else np.dtype(backend.floatx())


def float_operand(x):
    """`x` as a tensor operand, cast to floatx when it is an integer or bool."""
    x = tensor_operand(x)
    dtype = float_dtype(x)
    return x if np.dtype(x.dtype) == dtype else cast(x, dtype)


def float_operands(*xs):
    """`xs` as operands of a float op: tensors cast to the common float dtype."""
    xs = operands(*xs)
    dtype = float_dtype(*xs)
    return [x if isinstance(x, (bool, int, float)) or np.dtype(x.dtype) == dtype
            else cast(x, dtype) for x in xs]
