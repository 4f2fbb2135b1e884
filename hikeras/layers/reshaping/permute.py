"""Permute: reorders the non-batch axes."""

from ... import ops
from ..input_spec import InputSpec
from ..layer import Layer

__all__ = ["Permute"]


class Permute(Layer):
    """Permutes the non-batch axes: `dims` is a permutation of `1..rank-1`.

    Args:
        dims: e.g. `(2, 1)` swaps the two axes of `(N, a, b)` inputs.

    >>> import numpy as np
    >>> Permute((2, 1))(np.zeros((4, 3, 5))).shape
    (4, 5, 3)
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(
                "Permute expects `dims` to be a permutation of 1, ..., n (the batch axis 0 "
                f"stays in place). Received: dims={dims}"
            )
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return ops.transpose(inputs, (0,) + self.dims)

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config
