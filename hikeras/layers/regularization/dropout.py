"""Dropout."""

from ...ops import kernels
from .training_noise import _checked_rate, _resolved_noise_shape, _TrainingNoise

__all__ = ["Dropout"]


class Dropout(_TrainingNoise):
    """Randomly zeroes a fraction `rate` of inputs during training.

    Kept units are scaled by `1 / (1 - rate)`, so inference needs no change.

    Args:
        rate: fraction of units to drop, in [0, 1).
        noise_shape: shape of the binary mask, broadcast against the input
            (`None` entries take the input's size), e.g. `(batch, 1, features)`
            to drop the same features at every time step.
        seed: makes the masks reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate = _checked_rate(type(self).__name__, rate)
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)

    def _perturb(self, inputs):
        if self.rate == 0:
            return inputs
        return kernels.dropout(inputs, self.rate, rng=self._rng,
                               noise_shape=_resolved_noise_shape(self.noise_shape, inputs.shape))

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config
