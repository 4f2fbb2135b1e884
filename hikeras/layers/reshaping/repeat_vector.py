"""RepeatVector: repeats a vector n times."""

from ... import ops
from ..input_spec import InputSpec
from ..layer import Layer

__all__ = ["RepeatVector"]


class RepeatVector(Layer):
    """Repeats `(N, features)` inputs `n` times: `(N, n, features)`.

    >>> import numpy as np
    >>> RepeatVector(3)(np.zeros((2, 4))).shape
    (2, 3, 4)
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise TypeError(f"RepeatVector expects a positive integer `n`. Received: n={n!r}")
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return ops.repeat(ops.expand_dims(inputs, 1), self.n, axis=1)

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config
