"""LeakyReLU layer."""

from ... import ops
from ..layer import Layer
from .relu import _non_negative

__all__ = ["LeakyReLU"]


class LeakyReLU(Layer):
    """`x` for `x > 0`, else `negative_slope * x`.

    Args:
        negative_slope: slope for negative inputs (Keras 3's default 0.3);
            Keras 2's name `alpha` is accepted too.

    >>> import numpy as np
    >>> LeakyReLU(negative_slope=0.5)(np.array([-2.0, 3.0])).tolist()
    [-1.0, 3.0]
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.negative_slope = _non_negative("LeakyReLU", "negative_slope", negative_slope)

    def call(self, inputs):
        return ops.leaky_relu(inputs, negative_slope=self.negative_slope)

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config
