"""AlphaDropout: dropout that keeps SELU's self-normalising mean and variance."""

import numpy as np

from ... import ops
from .training_noise import _checked_rate, _resolved_noise_shape, _TrainingNoise

__all__ = ["AlphaDropout"]


# The value SELU saturates to for very negative inputs, -scale * alpha, which
# AlphaDropout gives dropped units (Klambauer et al., 2017).
_SELU_SATURATION = -1.7580993408473766


class AlphaDropout(_TrainingNoise):
    """Dropout that keeps the mean and variance of its inputs, for SELU networks.

    In training, a fraction `rate` of units is set to SELU's saturation value
    `alpha' = -1.7580993408473766` instead of 0, and the result is mapped
    through `a * x + b` with `a = ((1 - rate) * (1 + rate * alpha'**2))**-0.5`
    and `b = -a * alpha' * rate`: inputs of mean 0 and variance 1 keep them.

    Args:
        rate: fraction of units to drop, in [0, 1).
        noise_shape: shape of the mask, as in `Dropout`.
        seed: as `Dropout`'s.
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate = _checked_rate("AlphaDropout", rate)
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)

    def _perturb(self, inputs):
        if self.rate == 0:
            return inputs
        shape = _resolved_noise_shape(self.noise_shape, inputs.shape)
        kept = (self._rng.random(shape, dtype=np.float32) >= self.rate).astype(self.compute_dtype)
        a = ((1.0 - self.rate) * (1.0 + self.rate * _SELU_SATURATION ** 2)) ** -0.5
        b = -a * _SELU_SATURATION * self.rate
        # a * (x * kept + alpha' * (1 - kept)) + b, as one product and one sum.
        offset = (1.0 - kept) * (a * _SELU_SATURATION) + b
        return ops.add(ops.multiply(inputs, kept * a), offset)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape})
        return config
