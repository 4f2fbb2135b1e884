"""What the noise and dropout layers share: rate checks and training-only application."""

import numpy as np

from ...backend import SymbolicTensor
from ...utils.rng import make_generator
from ..layer import Layer


def _is_real(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, bool)


def _checked_rate(layer_name, rate):
    """`rate` as a float in [0, 1), or a ValueError naming the layer."""
    if not _is_real(rate) or not 0 <= rate < 1:
        raise ValueError(f"{layer_name} expects `rate` to be a float in [0, 1). "
                         f"Received: rate={rate!r}")
    return float(rate)


def _resolved_noise_shape(noise_shape, input_shape):
    """`noise_shape` with its `None` entries taken from the input (all of them if None)."""
    if noise_shape is None:
        return tuple(input_shape)
    return tuple(size if d is None else d for d, size in zip(noise_shape, input_shape))


class _TrainingNoise(Layer):
    """Base of the layers that perturb their inputs in training only.

    Holds the seed and the generator; subclasses implement `_perturb(inputs)`.
    """

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.seed = seed
        self._rng = make_generator(seed)

    def call(self, inputs, training=None):
        return self._perturb(inputs) if training else inputs

    def compute_output_spec(self, inputs, training=None):
        return SymbolicTensor(inputs.shape, inputs.dtype)

    def _standard_normal(self, shape):
        """Standard normal noise in the layer's dtype."""
        drawn = np.float64 if np.dtype(self.dtype) == np.float64 else np.float32
        return self._rng.standard_normal(shape, dtype=drawn).astype(self.compute_dtype, copy=False)
