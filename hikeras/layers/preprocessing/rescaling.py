"""Rescaling: `inputs * scale + offset`."""

import numpy as np

from ... import backend, ops
from ..layer import Layer

__all__ = ["Rescaling"]


def _to_float(layer, inputs):
    """Inputs in the layer's float dtype (integer images become floats)."""
    if np.dtype(inputs.dtype) == np.dtype(layer.dtype):
        return inputs
    return ops.cast(inputs, layer.dtype)


def _json_value(value):
    """A config-friendly form of a number or array."""
    return np.asarray(value).tolist() if isinstance(value, (np.ndarray, np.generic)) else value


class Rescaling(Layer):
    """Computes `inputs * scale + offset`, e.g. `Rescaling(1 / 255)` for images.

    Args:
        scale: a number, or per-channel values broadcast against the inputs
            (against the channel axis under `channels_first`).
        offset: a number or per-channel values, added after scaling.

    >>> import numpy as np
    >>> Rescaling(1 / 127.5, offset=-1)(np.array([[0, 255]], "uint8")).tolist()
    [[-1.0, 1.0]]
    """

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = _json_value(scale)
        self.offset = _json_value(offset)

    def _per_channel(self, value):
        value = np.asarray(value, dtype=self.dtype)
        if value.ndim and backend.image_data_format() == "channels_first":
            value = value.reshape(value.shape + (1,) * (3 - value.ndim))
        return value

    def call(self, inputs):
        scaled = ops.multiply(_to_float(self, inputs), self._per_channel(self.scale))
        return ops.add(scaled, self._per_channel(self.offset))

    def get_config(self):
        config = super().get_config()
        config.update({"scale": self.scale, "offset": self.offset})
        return config
