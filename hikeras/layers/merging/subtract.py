"""Subtract and `subtract`: the difference of two inputs."""

from ... import ops
from .base_merge import _Merge

__all__ = ["Subtract", "subtract"]


class Subtract(_Merge):
    """Subtracts the second of exactly two tensors from the first.

    >>> import numpy as np
    >>> Subtract()([np.ones((1, 2)), np.full((1, 2), 3.0)]).tolist()
    [[-2.0, -2.0]]
    """

    _arity = 2
    _combine = staticmethod(ops.subtract)


def subtract(inputs, **kwargs):
    """Functional form of `Subtract`."""
    return Subtract(**kwargs)(inputs)
