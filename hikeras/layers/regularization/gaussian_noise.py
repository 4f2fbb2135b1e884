"""GaussianNoise: additive zero-centred noise in training."""

import math

from ... import ops
from .training_noise import _is_real, _TrainingNoise

__all__ = ["GaussianNoise"]


class GaussianNoise(_TrainingNoise):
    """Adds zero-mean Gaussian noise of standard deviation `stddev` in training.

    Args:
        stddev: standard deviation of the noise, non-negative.
        seed: makes the noise reproducible; without it, it derives from the
            global seed.

    >>> import numpy as np
    >>> x = np.zeros((2, 3), "float32")
    >>> GaussianNoise(0.1)(x).tolist() == x.tolist()  # inference: the identity
    True
    """

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if not _is_real(stddev) or not 0 <= stddev < math.inf:
            raise ValueError("GaussianNoise expects `stddev` to be a non-negative float. "
                             f"Received: stddev={stddev!r}")
        self.stddev = float(stddev)

    def _perturb(self, inputs):
        if self.stddev == 0:
            return inputs
        return ops.add(inputs, self._standard_normal(inputs.shape) * self.stddev)

    def get_config(self):
        config = super().get_config()
        config.update({"stddev": self.stddev, "seed": self.seed})
        return config
