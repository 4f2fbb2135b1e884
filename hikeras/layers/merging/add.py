"""Add and `add`: elementwise sum."""

from ... import ops
from .base_merge import _Merge

__all__ = ["Add", "add"]


class Add(_Merge):
    """Sums a list of tensors elementwise.

    >>> import numpy as np
    >>> Add()([np.ones((2, 3)), np.full((2, 3), 2.0)]).tolist()[0]
    [3.0, 3.0, 3.0]
    """

    _combine = staticmethod(ops.add)


def add(inputs, **kwargs):
    """Functional form of `Add`: `Add(**kwargs)(inputs)`."""
    return Add(**kwargs)(inputs)
