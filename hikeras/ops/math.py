"""Math ops that Keras keeps in `keras.ops.math`."""

from .. import backend
from .core import tensor_operand


def logsumexp(x, axis=None, keepdims=False):
    """`log(sum(exp(x), axis))`, computed without overflow.

    >>> import numpy as np
    >>> float(logsumexp(np.array([1000.0, 1000.0])))  # 1000 + log(2)
    1000.6931471805599
    """
    axis = tuple(axis) if isinstance(axis, list) else axis
    return backend.apply("logsumexp", tensor_operand(x), axis=axis, keepdims=keepdims)


def rsqrt(x):
    """Elementwise `1 / sqrt(x)`."""
    return backend.apply("rsqrt", tensor_operand(x))
