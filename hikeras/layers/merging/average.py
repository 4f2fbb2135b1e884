"""Average and `average`: elementwise mean."""

from ... import ops
from .base_merge import _Merge

__all__ = ["Average", "average"]


class Average(_Merge):
    """Averages a list of tensors elementwise.

    >>> import numpy as np
    >>> Average()([np.zeros((1, 2)), np.full((1, 2), 3.0)]).tolist()
    [[1.5, 1.5]]
    """

    def _merge(self, inputs):
        total = inputs[0]
        for x in inputs[1:]:
            total = ops.add(total, x)
        return ops.divide(total, float(len(inputs)))


def average(inputs, **kwargs):
    """Functional form of `Average`."""
    return Average(**kwargs)(inputs)
