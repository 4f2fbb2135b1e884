"""SpatialDropout1D/2D/3D: drops whole feature maps."""

from ..convolutional.arguments import standardize_data_format
from ..input_spec import InputSpec
from .dropout import Dropout

__all__ = ["SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D"]


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
