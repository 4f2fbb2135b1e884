"""BasePooling: max and average pooling over sliding windows."""

from ..convolutional.arguments import (
    check_input,
    check_windows,
    from_channels_last,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
    to_channels_last,
)
from ..input_spec import InputSpec
from ..layer import Layer


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

    _op = None  # kernels.max_pool or kernels.avg_pool

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
        out = self._op(x, self.pool_size, strides=self.strides, padding=self.padding)
        return from_channels_last(out, self.data_format)

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding,
                       "strides": self.strides, "data_format": self.data_format})
        return config
