"""Flatten: collapses all but the batch axis."""

import math

from ... import backend, ops
from ...backend import SymbolicTensor
from ..layer import Layer

__all__ = ["Flatten"]


class Flatten(Layer):
    """Flattens every axis but the batch axis: `(N, a, b)` -> `(N, a*b)`.

    Args:
        data_format: `"channels_first"` inputs are moved to channels-last
            first, so weights stay interchangeable with Keras.
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or backend.image_data_format()

    def call(self, inputs):
        if self.data_format == "channels_first" and inputs.ndim > 2:
            axes = (0,) + tuple(range(2, inputs.ndim)) + (1,)
            inputs = ops.transpose(inputs, axes)
        features = inputs.shape[1:]
        if any(d is None for d in features):
            if isinstance(inputs, SymbolicTensor):
                return SymbolicTensor((inputs.shape[0], None), inputs.dtype)
        size = math.prod(features)
        return ops.reshape(inputs, (-1, size))

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config
