"""ZeroPadding1D/2D/3D."""

from ... import ops
from ..input_spec import InputSpec
from ..layer import Layer
from .spatial_arguments import _data_format, _pairs, _spatial_axes

__all__ = ["ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D"]


def _pad(inputs, axes, pairs):
    """`inputs` with `pairs[i]` zeros added before/after along `axes[i]`."""
    widths = [(0, 0)] * len(inputs.shape)
    for axis, pair in zip(axes, pairs):
        widths[axis] = pair
    return ops.pad(inputs, widths)


class ZeroPadding1D(Layer):
    """Pads the steps axis of `(N, steps, F)` inputs with zeros.

    Args:
        padding: an int (both sides) or `(before, after)`.
        data_format: `"channels_last"` (default, `(N, steps, F)`) or
            `"channels_first"` (`(N, F, steps)`), as in Keras 3.

    >>> import numpy as np
    >>> ZeroPadding1D((1, 2))(np.ones((1, 2, 1))).ravel().tolist()
    [0.0, 1.0, 1.0, 0.0, 0.0]
    """

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, 1, "padding", "ZeroPadding1D")[0]
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return _pad(inputs, _spatial_axes(self.data_format, 1), (self.padding,))

    def get_config(self):
        config = super().get_config()
        config["padding"] = self.padding
        if self.data_format == "channels_first":  # Keras 2 has no such argument
            config["data_format"] = self.data_format
        return config


class _ZeroPadding(Layer):
    """Zero padding of the `rank` spatial axes of `(batch, *spatial, channels)`
    (or channels-first) inputs; the base of `ZeroPadding2D` and `ZeroPadding3D`."""

    rank = None

    def __init__(self, padding, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, self.rank, "padding", type(self).__name__)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs):
        return _pad(inputs, _spatial_axes(self.data_format, self.rank), self.padding)

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config


class ZeroPadding2D(_ZeroPadding):
    """Pads the height and width of images with zeros.

    Args:
        padding: an int (everywhere), two ints (symmetric height and width
            padding) or `((top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> ZeroPadding2D(((1, 0), (2, 2)))(np.ones((1, 3, 3, 1))).shape
    (1, 4, 7, 1)
    """

    rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Pads the depth, height and width of volumes with zeros.

    Args:
        padding: an int (everywhere), three ints (symmetric per axis) or
            `((front, back), (top, bottom), (left, right))`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> ZeroPadding3D((0, 1, 2))(np.ones((1, 2, 2, 2, 1))).shape
    (1, 2, 4, 6, 1)
    """

    rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)
