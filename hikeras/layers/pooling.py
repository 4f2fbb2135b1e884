"""Pooling layers: max/average pooling in 1-3 dimensions, global and adaptive forms.

The windowed poolings are defined here, the global ones in
`global_pooling.py` and the adaptive ones in `adaptive_pooling.py`; Keras's short names (`MaxPool2D`, `AvgPool2D`,
`GlobalAvgPool2D`, ...) are the same classes.
"""

from .. import backend
from .adaptive_pooling import (
    AdaptiveAveragePooling1D,
    AdaptiveAveragePooling2D,
    AdaptiveAveragePooling3D,
    AdaptiveMaxPooling1D,
    AdaptiveMaxPooling2D,
    AdaptiveMaxPooling3D,
)
from .conv_arguments import (
    check_input,
    check_windows,
    from_channels_last,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
    to_channels_last,
)
from .global_pooling import (
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalAveragePooling3D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
    GlobalMaxPooling3D,
)
from .input_spec import InputSpec
from .layer import Layer


class BasePooling(Layer):
    """Max or average over sliding windows of the spatial axes.

    Args:
        rank: number of spatial dimensions.
        pool_size: int or tuple of `rank` ints: the window.
        strides: int or tuple of `rank` ints; None (default) means
            `pool_size`, i.e. non-overlapping windows.
        padding: `"valid"` (whole windows only) or `"same"` (`ceil(length /
            stride)` windows; max pooling ignores the padding, average pooling
            divides by the number of real elements in each window).
        data_format: `"channels_last"` (default) or `"channels_first"`.
    """

    _op = None  # "max_pool" or "avg_pool"

    def __init__(self, rank, pool_size, strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.pool_size = standardize_tuple(pool_size, rank, "pool_size")
        self.strides = self.pool_size if strides is None else standardize_tuple(
            strides, rank, "strides")
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def build(self, input_shape):
        check_input(self, input_shape, self.rank, self.data_format)
        check_windows(self, self._op, input_shape, self.data_format,
                      pool_size=self.pool_size, strides=self.strides, padding=self.padding)

    def call(self, inputs):
        x = to_channels_last(inputs, self.data_format)
        out = backend.apply(self._op, x, pool_size=self.pool_size, strides=self.strides,
                            padding=self.padding)
        return from_channels_last(out, self.data_format)

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding,
                       "strides": self.strides, "data_format": self.data_format})
        return config


class MaxPooling1D(BasePooling):
    """Max over windows of `(batch, steps, channels)` inputs.

    >>> import numpy as np
    >>> MaxPooling1D()(np.arange(8, dtype="float32").reshape(1, 4, 2))[0].tolist()
    [[2.0, 3.0], [6.0, 7.0]]
    """

    _op = "max_pool"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(1, pool_size, strides, padding, data_format, **kwargs)


class MaxPooling2D(BasePooling):
    """Max over windows of `(batch, height, width, channels)` inputs.

    >>> import numpy as np
    >>> MaxPooling2D(2)(np.ones((1, 28, 28, 3), "float32")).shape
    (1, 14, 14, 3)
    """

    _op = "max_pool"

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(2, pool_size, strides, padding, data_format, **kwargs)


class MaxPooling3D(BasePooling):
    """Max over windows of `(batch, depth, height, width, channels)` inputs.

    >>> import numpy as np
    >>> MaxPooling3D(padding="same")(np.ones((1, 3, 4, 5, 1), "float32")).shape
    (1, 2, 2, 3, 1)
    """

    _op = "max_pool"

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(3, pool_size, strides, padding, data_format, **kwargs)


class AveragePooling1D(BasePooling):
    """Mean over windows of `(batch, steps, channels)` inputs.

    >>> import numpy as np
    >>> x = np.array([1.0, 2.0, 3.0], "float32").reshape(1, 3, 1)
    >>> AveragePooling1D(padding="same")(x)[0, :, 0].tolist()
    [1.5, 3.0]
    """

    _op = "avg_pool"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(1, pool_size, strides, padding, data_format, **kwargs)


class AveragePooling2D(BasePooling):
    """Mean over windows of `(batch, height, width, channels)` inputs.

    >>> import numpy as np
    >>> AveragePooling2D(3, strides=1)(np.ones((1, 5, 5, 2), "float32")).shape
    (1, 3, 3, 2)
    """

    _op = "avg_pool"

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(2, pool_size, strides, padding, data_format, **kwargs)


class AveragePooling3D(BasePooling):
    """Mean over windows of `(batch, depth, height, width, channels)` inputs.

    >>> import numpy as np
    >>> AveragePooling3D()(np.ones((1, 4, 4, 4, 1), "float32")).shape
    (1, 2, 2, 2, 1)
    """

    _op = "avg_pool"

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(3, pool_size, strides, padding, data_format, **kwargs)


MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = AveragePooling1D, AveragePooling2D, AveragePooling3D
GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D = (
    GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D)
GlobalAvgPool1D, GlobalAvgPool2D, GlobalAvgPool3D = (
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D)

__all__ = [
    "MaxPooling1D", "MaxPooling2D", "MaxPooling3D",
    "AveragePooling1D", "AveragePooling2D", "AveragePooling3D",
    "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D",
    "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAveragePooling3D",
    "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
    "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D",
    "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D",
    "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D",
    "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
]
