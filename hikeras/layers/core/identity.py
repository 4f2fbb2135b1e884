"""Identity: returns its inputs unchanged."""

from ..layer import Layer

__all__ = ["Identity"]


class Identity(Layer):
    """Returns its inputs unchanged (a placeholder layer).

    >>> import numpy as np
    >>> Identity()(np.arange(3.0)).tolist()
    [0.0, 1.0, 2.0]
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras

    def call(self, inputs):
        return inputs
