"""Concatenate and `concatenate`: joins inputs along an axis."""

from ... import ops
from .base_merge import _Merge, _shapes_of

__all__ = ["Concatenate", "concatenate"]


class Concatenate(_Merge):
    """Concatenates a list of tensors along `axis`.

    All inputs need the same rank and the same sizes on every other axis.

    Args:
        axis: the concatenation axis (default the last).

    >>> import numpy as np
    >>> Concatenate()([np.zeros((2, 3)), np.ones((2, 1))]).shape
    (2, 4)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = int(axis)

    def _merged_shape(self, shapes):
        rank = len(shapes[0])
        if any(len(s) != rank for s in shapes):
            self._fail("needs inputs of one rank", shapes)
        if not -rank <= self.axis < rank:
            self._fail(f"cannot concatenate along axis {self.axis} of rank-{rank} inputs",
                       shapes)
        axis = self.axis % rank
        out = []
        for i, dims in enumerate(zip(*shapes)):
            if i == axis:
                out.append(None if None in dims else sum(dims))
                continue
            known = {d for d in dims if d is not None}
            if len(known) > 1:
                self._fail(f"needs inputs whose shapes match except on the concatenation "
                           f"axis {self.axis}", shapes)
            out.append(known.pop() if known else None)
        return tuple(out)

    def call(self, inputs):
        self._check_shapes(_shapes_of(inputs))
        return ops.concatenate(list(inputs), axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        masks = self._input_masks(inputs, mask)
        if masks is None:
            return None
        full = []
        for x, m in zip(inputs, masks):
            if m is None:
                m = ops.ones_like(x, dtype="bool")
            elif len(m.shape) < len(x.shape):  # a timestep mask: one entry per feature
                m = ops.logical_or(ops.expand_dims(m, -1), ops.zeros_like(x, dtype="bool"))
            full.append(m)
        return ops.any(ops.concatenate(full, axis=self.axis), axis=-1)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def concatenate(inputs, axis=-1, **kwargs):
    """Functional form of `Concatenate`."""
    return Concatenate(axis=axis, **kwargs)(inputs)
