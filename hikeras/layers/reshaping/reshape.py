"""Reshape: a new per-sample shape."""

import math

from ... import ops
from ...backend import SymbolicTensor
from ..layer import Layer

__all__ = ["Reshape"]


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
        batch = inputs.shape[0]
        if batch is None:
            if -1 in target:  # two unknown lengths: only the shape can be said (as in Keras)
                return SymbolicTensor((batch,) + tuple(None if d == -1 else d for d in target),
                                      inputs.dtype)
            batch = -1  # symbolic inputs reshape through the op too (ONNX export traces it)
        return ops.reshape(inputs, (batch,) + target)

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = list(self.target_shape)
        return config
