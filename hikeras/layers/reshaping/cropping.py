"""Cropping1D/2D/3D."""

from ...ops import kernels
from ..input_spec import InputSpec
from ..layer import Layer
from .spatial_arguments import _data_format, _pairs, _spatial_axes

__all__ = ["Cropping1D", "Cropping2D", "Cropping3D"]


def _crop(layer, inputs, axes, cropping):
    """`inputs` with `cropping[i]` entries cut from both ends of `axes[i]`."""
    key = [slice(None)] * len(inputs.shape)
    for axis, (before, after) in zip(axes, cropping):
        size = inputs.shape[axis]
        if size is not None and before + after >= size:
            raise ValueError(
                f"Layer '{layer.name}' ({type(layer).__name__}) would crop {before + after} "
                f"entries from axis {axis} of size {size}, leaving nothing. "
                f"Received: cropping={layer.cropping}, input shape "
                f"{(None,) + tuple(inputs.shape[1:])}"
            )
        key[axis] = slice(before, -after if after else None)
    return kernels.getitem(inputs, tuple(key))


class Cropping1D(Layer):
    """Crops the steps axis of `(N, steps, F)` inputs.

    Args:
        cropping: an int (both ends) or `(start, end)`.

    >>> import numpy as np
    >>> Cropping1D((1, 2))(np.arange(5.0).reshape(1, 5, 1)).ravel().tolist()
    [1.0, 2.0]
    """

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, 1, "cropping", "Cropping1D")[0]
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return _crop(self, inputs, (1,), (self.cropping,))

    def get_config(self):
        config = super().get_config()
        config["cropping"] = self.cropping
        return config


class _Cropping(Layer):
    """Cropping of the `rank` spatial axes of `(batch, *spatial, channels)` (or
    channels-first) inputs; the base of `Cropping2D` and `Cropping3D`."""

    rank = None

    def __init__(self, cropping, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, self.rank, "cropping", type(self).__name__)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        return _crop(self, inputs, _spatial_axes(self.data_format, self.rank), self.cropping)

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping, "data_format": self.data_format})
        return config


class Cropping2D(_Cropping):
    """Crops the height and width of images.

    Args:
        cropping: an int (everywhere), two ints (symmetric height and width
            cropping) or `((top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> Cropping2D(((1, 0), (1, 1)))(np.zeros((1, 4, 5, 3))).shape
    (1, 3, 3, 3)
    """

    rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops the depth, height and width of volumes.

    Args:
        cropping: an int (everywhere), three ints (symmetric per axis) or
            `((front, back), (top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> Cropping3D((0, 1, (2, 1)))(np.zeros((1, 4, 5, 6, 2))).shape
    (1, 4, 3, 3, 2)
    """

    rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)
