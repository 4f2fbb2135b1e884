"""Multiply and `multiply`: elementwise product."""

from ... import ops
from .base_merge import _Merge

__all__ = ["Multiply", "multiply"]


class Multiply(_Merge):
    """Multiplies a list of tensors elementwise.

    >>> import numpy as np
    >>> Multiply()([np.full((1, 2), 2.0), np.full((1, 2), 3.0)]).tolist()
    [[6.0, 6.0]]
    """

    _combine = staticmethod(ops.multiply)


def multiply(inputs, **kwargs):
    """Functional form of `Multiply`."""
    return Multiply(**kwargs)(inputs)
