"""Softmax layer, with an optional mask."""

from ... import activations, ops
from ..layer import Layer

__all__ = ["Softmax"]


class Softmax(Layer):
    """Softmax over `axis`, optionally ignoring masked-out entries.

    Args:
        axis: an int, or a list of ints to normalise over several axes.

    Call arguments:
        inputs: the logits.
        mask: optional boolean tensor broadcastable to `inputs`; entries
            where it is False get a logit of `-1e9` (so ~0 probability), or
            `-3e4` in float16, whose range ends at 65504 (as Keras).

    >>> import numpy as np
    >>> out = Softmax()(np.array([[0.0, 0.0, 5.0]]), mask=np.array([[True, True, False]]))
    >>> np.round(out, 3).tolist()
    [[0.5, 0.5, 0.0]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)

    def call(self, inputs, mask=None):
        if mask is not None:
            keep = ops.cast(mask, inputs.dtype)
            inputs = ops.add(inputs, ops.multiply(ops.subtract(1.0, keep),
                                                  _large_negative(inputs.dtype)))
        if isinstance(self.axis, list):
            return ops.softmax(inputs, axis=tuple(self.axis))
        return activations.softmax(inputs, axis=self.axis)  # its logits reach the losses

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def _large_negative(dtype):
    """A logit that masks an entry: far below any real one, yet finite in `dtype`."""
    return -3e4 if getattr(dtype, "name", dtype) == "float16" else -1e9
