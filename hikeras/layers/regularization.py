"""Regularisation layers: `Dropout` and its spatial forms, Gaussian noise and
dropout, `AlphaDropout` and `ActivityRegularization`.

The random layers perturb their inputs in training only (`fit`, or
`training=True`) and are the identity otherwise. Each draws from its own
`numpy.random.Generator`: from `seed` when given, else derived from the global
seed (`hikeras.utils.set_random_seed`), so whole runs are reproducible. Every
layer here passes the input's mask on, as in Keras.
"""

import math

import numpy as np

from .. import backend, ops, regularizers
from ..backend import SymbolicTensor
from ..utils.rng import make_generator
from .conv_arguments import standardize_data_format
from .input_spec import InputSpec
from .layer import Layer

# The value SELU saturates to for very negative inputs, -scale * alpha, which
# AlphaDropout gives dropped units (Klambauer et al., 2017).
_SELU_SATURATION = -1.7580993408473766


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
        return self._rng.standard_normal(shape, dtype=drawn).astype(self.dtype, copy=False)


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
        return backend.apply("dropout", inputs, rate=self.rate, rng=self._rng,
                             noise_shape=_resolved_noise_shape(self.noise_shape, inputs.shape))

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config


class _SpatialDropout(Dropout):
    """Dropout of whole feature maps: one draw per sample and channel.

    The mask is `Dropout`'s, with `noise_shape` 1 on the `rank` spatial axes.
    """

    rank = None

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        data_format = standardize_data_format(data_format)
        spatial = (1,) * self.rank
        noise_shape = ((None,) + spatial + (None,) if data_format == "channels_last"
                       else (None, None) + spatial)
        super().__init__(rate, noise_shape=noise_shape, seed=seed, **kwargs)
        self.data_format = data_format
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def get_config(self):
        config = super().get_config()
        # Keras's keys: `noise_shape` follows from the layout, and Keras's
        # constructor takes no `trainable`, so it could not read a config with one.
        del config["noise_shape"], config["trainable"]
        config["data_format"] = self.data_format
        return config


class SpatialDropout1D(_SpatialDropout):
    """Drops whole channels of `(batch, steps, channels)` inputs in training.

    Each sample keeps or drops each channel at every step together; kept
    channels are scaled by `1 / (1 - rate)`.

    Args:
        rate: fraction of channels to drop, in [0, 1).
        seed: as `Dropout`'s.

    >>> import numpy as np
    >>> out = SpatialDropout1D(0.5, seed=0)(np.ones((1, 3, 4), "float32"), training=True)
    >>> bool(np.all(out == out[:, :1]))  # the same mask at every step
    True
    """

    rank = 1

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, data_format="channels_last", seed=seed, **kwargs)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]  # Keras's 1D layer has none: always channels-last
        return config


class SpatialDropout2D(_SpatialDropout):
    """Drops whole feature maps of images in training.

    Args:
        rate: fraction of channels to drop, in [0, 1).
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: as `Dropout`'s.
    """

    rank = 2

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, data_format=data_format, seed=seed, **kwargs)


class SpatialDropout3D(_SpatialDropout):
    """Drops whole feature maps of volumes in training.

    Args:
        rate: fraction of channels to drop, in [0, 1).
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: as `Dropout`'s.
    """

    rank = 3

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, data_format=data_format, seed=seed, **kwargs)


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
        kept = (self._rng.random(shape, dtype=np.float32) >= self.rate).astype(self.dtype)
        a = ((1.0 - self.rate) * (1.0 + self.rate * _SELU_SATURATION ** 2)) ** -0.5
        b = -a * _SELU_SATURATION * self.rate
        # a * (x * kept + alpha' * (1 - kept)) + b, as one product and one sum.
        offset = (1.0 - kept) * (a * _SELU_SATURATION) + b
        return ops.add(ops.multiply(inputs, kept * a), offset)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape})
        return config


class ActivityRegularization(Layer):
    """The identity, adding `l1 * sum(|x|) + l2 * sum(x**2)` of its input to the losses.

    Like any layer's `activity_regularizer`, the penalty is divided by the
    batch size (as Keras 3) and reaches the training loss through
    `model.losses`.

    Args:
        l1, l2: non-negative factors.

    >>> import numpy as np
    >>> layer = ActivityRegularization(l1=0.5)
    >>> _ = layer(np.array([[1.0, -3.0], [0.0, 2.0]], "float32"))
    >>> [float(loss) for loss in layer.losses]  # 0.5 * 6 / 2 samples
    [1.5]
    """

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        try:
            self.activity_regularizer = regularizers.L1L2(l1=l1, l2=l2)
        except ValueError as error:
            raise ValueError(f"ActivityRegularization got an invalid factor. {error}") from None
        self.l1 = self.activity_regularizer.l1
        self.l2 = self.activity_regularizer.l2

    def get_config(self):
        config = super().get_config()
        config.update({"l1": self.l1, "l2": self.l2})
        return config


__all__ = ["ActivityRegularization", "AlphaDropout", "Dropout", "GaussianDropout",
           "GaussianNoise", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D"]
