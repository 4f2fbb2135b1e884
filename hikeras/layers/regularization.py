"""Regularisation layers: `Dropout`."""

from .. import backend
from ..utils.rng import make_generator
from .layer import Layer


class Dropout(Layer):
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
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        if not 0 <= rate < 1:
            raise ValueError(f"rate must be in [0, 1). Received: rate={rate!r}")
        self.rate = float(rate)
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)
        self.seed = seed
        self._rng = make_generator(seed)

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        noise_shape = None
        if self.noise_shape is not None:
            noise_shape = tuple(d if d is not None else s
                                for d, s in zip(self.noise_shape, inputs.shape))
        return backend.apply("dropout", inputs, rate=self.rate, rng=self._rng,
                             noise_shape=noise_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config

__all__ = ["Dropout"]
