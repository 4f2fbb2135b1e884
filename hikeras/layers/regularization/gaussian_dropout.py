"""GaussianDropout: multiplicative one-centred noise in training."""

import math

from ... import ops
from .training_noise import _checked_rate, _TrainingNoise

__all__ = ["GaussianDropout"]


class GaussianDropout(_TrainingNoise):
    """Multiplies inputs by Gaussian noise of mean 1 in training.

    The noise's standard deviation is `sqrt(rate / (1 - rate))`, the one of
    `Dropout(rate)`'s scaled mask, so the expected output is the input.

    Args:
        rate: in [0, 1), as with `Dropout`.
        seed: as `GaussianNoise`'s.
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate = _checked_rate("GaussianDropout", rate)

    def _perturb(self, inputs):
        if self.rate == 0:
            return inputs
        stddev = math.sqrt(self.rate / (1.0 - self.rate))
        return ops.multiply(inputs, self._standard_normal(inputs.shape) * stddev + 1.0)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config
