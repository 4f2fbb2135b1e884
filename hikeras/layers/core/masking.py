"""The Masking layer: skip time steps whose features all equal a value."""

from ... import ops
from ..layer import Layer


class Masking(Layer):
    """Masks the time steps of `(batch, timesteps, features)` inputs equal to `mask_value`.

    A step is masked when all its features equal `mask_value`. The layer
    zeroes masked steps in its output and produces the mask
    `(batch, timesteps)`, which models pass on to downstream layers (RNNs
    skip the steps) and to the loss (masked steps get no weight).

    Args:
        mask_value: the padding value (default 0.0).

    >>> import numpy as np
    >>> x = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]], "float32")
    >>> Masking().compute_mask(x).tolist()
    [[True, False, True]]
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return ops.max(ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = self.compute_mask(inputs)
        return ops.multiply(inputs, ops.cast(ops.expand_dims(keep, -1), inputs.dtype))

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config


__all__ = ["Masking"]
