"""SeparableConv1D/2D: a depthwise convolution followed by a pointwise one."""

from ...ops import kernels
from ..weight_options import parse_weight_options, serialize_weight_options
from .arguments import (
    to_channels_last,
)
from .base_depthwise_conv import _DepthwiseBase

__all__ = ["SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D", "SeparableConvolution2D"]


class BaseSeparableConv(_DepthwiseBase):
    """Depthwise convolution followed by a pointwise (1x1) convolution to `filters` channels.

    Weights, as in Keras: `depthwise_kernel` `(*kernel_size, channels,
    depth_multiplier)`, `pointwise_kernel` `(1, ..., 1, channels *
    depth_multiplier, filters)` and `bias` `(filters,)`. The bias and
    activation follow the pointwise step.

    Args:
        rank, kernel_size, strides, padding, depth_multiplier, data_format,
        dilation_rate, activation, use_bias: as for `BaseDepthwiseConv`.
        filters: number of output channels.
        depthwise_*, pointwise_*, bias_*: initializers, regularizers and
            constraints of the three weights; `activity_regularizer` too.
    """

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, depth_multiplier=1, activation=None,
                 use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, pointwise_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(rank, kernel_size, strides, padding, depth_multiplier, data_format,
                         dilation_rate, activation, use_bias, depthwise_initializer,
                         bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)
        if not isinstance(filters, int) or isinstance(filters, bool) or filters <= 0:
            raise ValueError(
                f"Invalid value for argument `filters` of {type(self).__name__}: expected a "
                f"positive integer. Received: filters={filters!r}")
        self.filters = filters
        parse_weight_options(self, ("pointwise",), locals(), activity_regularizer=None)

    def build(self, input_shape):
        self.depthwise_kernel = self._add_depthwise_kernel(input_shape, "depthwise_kernel")
        channels = self.depthwise_kernel.shape[-2] * self.depth_multiplier
        self.pointwise_kernel = self.add_weight(
            shape=(1,) * self.rank + (channels, self.filters),
            initializer=self.pointwise_initializer, name="pointwise_kernel",
            regularizer=self.pointwise_regularizer, constraint=self.pointwise_constraint)
        self.bias = self._add_bias(self.filters)

    def call(self, inputs):
        x = self._depthwise(to_channels_last(inputs, self.data_format), self.depthwise_kernel)
        out = kernels.conv(x, self.pointwise_kernel, self.bias,
                           activation=self._fused_activation or "linear")
        return self._finish(out)

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters,
            **serialize_weight_options(self, ("pointwise",), activity_regularizer=None),
        })
        return config


class SeparableConv1D(BaseSeparableConv):
    """1-D separable convolution; takes `BaseSeparableConv`'s arguments.

    >>> import numpy as np
    >>> SeparableConv1D(5, 3)(np.ones((1, 8, 4), "float32")).shape
    (1, 6, 5)
    """

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True, **kwargs):
        super().__init__(1, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         depth_multiplier=depth_multiplier, activation=activation,
                         use_bias=use_bias, **kwargs)


class SeparableConv2D(BaseSeparableConv):
    """2-D separable convolution; takes `BaseSeparableConv`'s arguments.

    >>> import numpy as np
    >>> layer = SeparableConv2D(8, 3, depth_multiplier=2)
    >>> layer(np.ones((1, 6, 6, 3), "float32")).shape
    (1, 4, 4, 8)
    >>> [w.shape for w in layer.weights]
    [(3, 3, 3, 2), (1, 1, 6, 8), (8,)]
    """

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 **kwargs):
        super().__init__(2, filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         depth_multiplier=depth_multiplier, activation=activation,
                         use_bias=use_bias, **kwargs)


SeparableConvolution1D = SeparableConv1D


SeparableConvolution2D = SeparableConv2D
