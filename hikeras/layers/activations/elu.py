"""ELU layer."""

from ... import ops
from ..layer import Layer

__all__ = ["ELU"]


class ELU(Layer):
    """Exponential linear unit: `x` for `x > 0`, else `alpha * (exp(x) - 1)`.

    Args:
        alpha: the negative saturation value is `-alpha`.

    >>> import numpy as np
    >>> ELU()(np.array([0.0, 2.0])).tolist()
    [0.0, 2.0]
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.alpha = float(alpha)

    def call(self, inputs):
        return ops.elu(inputs, alpha=self.alpha)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config
