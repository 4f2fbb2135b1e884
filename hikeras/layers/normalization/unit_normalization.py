"""UnitNormalization: scales each sample to unit L2 norm."""

from ... import ops
from ..layer import Layer
from .base_normalization import _axis_argument

__all__ = ["UnitNormalization"]


class UnitNormalization(Layer):
    """Scales each sample to unit L2 norm over `axis`: `x / max(||x||, 1e-6)`.

    Args:
        axis: an int or a list of ints.

    >>> import numpy as np
    >>> UnitNormalization()(np.array([[3.0, 4.0]], "float32")).tolist()
    [[0.6000000238418579, 0.800000011920929]]
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.axis = _axis_argument("UnitNormalization", axis)

    def call(self, inputs):
        axis = tuple(self.axis) if isinstance(self.axis, list) else self.axis
        square_sum = ops.sum(ops.square(inputs), axis=axis, keepdims=True)
        return ops.multiply(inputs, ops.rsqrt(ops.maximum(square_sum, 1e-12)))

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
