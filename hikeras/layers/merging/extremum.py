"""Maximum, Minimum and their functional forms."""

from ... import ops
from .base_merge import _Merge

__all__ = ["Maximum", "Minimum", "maximum", "minimum"]


class _Extremum(_Merge):
    """`Maximum`/`Minimum`: as in Keras 3, masked entries take no part.

    An entry masked in one input takes the value of the inputs merged so far
    (and the other way round), so the extremum is over the unmasked entries.
    """

    def call(self, inputs, mask=None):
        inputs = self._aligned(inputs)
        masks = self._input_masks(inputs, mask)
        if masks is None:
            return self._merge(inputs)
        output = output_mask = None
        for x, m in zip(inputs, masks):
            if m is not None and len(m.shape) < len(x.shape):
                m = ops.expand_dims(m, -1)
            if output is None:
                output, output_mask = x, m
                continue
            if m is not None:
                x = ops.where(m, x, output)
            if output_mask is not None:
                output = ops.where(output_mask, output, x)
            output_mask = (None if m is None or output_mask is None
                           else ops.logical_or(output_mask, m))
            output = self._combine(output, x)
        return output


class Maximum(_Extremum):
    """Elementwise maximum of a list of tensors.

    >>> import numpy as np
    >>> Maximum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).tolist()
    [[3.0, 5.0]]
    """

    _combine = staticmethod(ops.maximum)


class Minimum(_Extremum):
    """Elementwise minimum of a list of tensors.

    >>> import numpy as np
    >>> Minimum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).tolist()
    [[1.0, 2.0]]
    """

    _combine = staticmethod(ops.minimum)


def maximum(inputs, **kwargs):
    """Functional form of `Maximum`."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """Functional form of `Minimum`."""
    return Minimum(**kwargs)(inputs)
