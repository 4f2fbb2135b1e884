"""Reshaping layers: `Flatten` and `Reshape`."""

import math

from .. import backend
from ..backend import SymbolicTensor
from .layer import Layer


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
            inputs = backend.apply("transpose", inputs, axes=axes)
        features = inputs.shape[1:]
        if any(d is None for d in features):
            if isinstance(inputs, SymbolicTensor):
                return SymbolicTensor((inputs.shape[0], None), inputs.dtype)
        size = math.prod(features)
        return backend.apply("reshape", inputs, shape=(-1, size))

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


class Reshape(Layer):
    """Reshapes the non-batch axes to `target_shape` (one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)
        if sum(d == -1 for d in self.target_shape) > 1:
            raise ValueError(
                f"Only one dimension of target_shape can be -1. "
                f"Received: target_shape={self.target_shape}"
            )

    def _resolve(self, input_shape):
        features = input_shape[1:]
        if -1 not in self.target_shape or any(d is None for d in features):
            return self.target_shape
        known = math.prod(d for d in self.target_shape if d != -1)
        total = math.prod(features)
        if known == 0 or total % known:
            raise ValueError(
                f"Cannot reshape input of shape {(None,) + tuple(features)} to "
                f"{self.target_shape} in layer '{self.name}'. Received: "
                f"target_shape={self.target_shape}"
            )
        return tuple(total // known if d == -1 else d for d in self.target_shape)

    def call(self, inputs):
        target = self._resolve(inputs.shape)
        features = inputs.shape[1:]
        if None not in features and math.prod(features) != math.prod(target):
            raise ValueError(
                f"Layer '{self.name}' cannot reshape input of shape {(None,) + tuple(features)} "
                f"to {(None,) + target}: the sizes differ. Received: target_shape="
                f"{self.target_shape}"
            )
        if isinstance(inputs, SymbolicTensor):
            return SymbolicTensor((inputs.shape[0],) + target, inputs.dtype)
        return backend.apply("reshape", inputs, shape=(inputs.shape[0],) + target)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = list(self.target_shape)
        return config

__all__ = ["Flatten", "Reshape"]
