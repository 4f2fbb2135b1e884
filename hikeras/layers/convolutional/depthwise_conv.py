"""DepthwiseConv1D/2D: one kernel per input channel."""

from .arguments import (
    to_channels_last,
)
from .base_depthwise_conv import _DepthwiseBase

__all__ = ["DepthwiseConv1D", "DepthwiseConv2D"]


class BaseDepthwiseConv(_DepthwiseBase):
    """Depthwise convolution: each channel filtered by its own `depth_multiplier` kernels.

    Weights, as in Keras 3: `kernel` of shape `(*kernel_size, channels,
    depth_multiplier)` (Keras 2 called it `depthwise_kernel`; that name is
    an alias here) and `bias` of shape `(channels * depth_multiplier,)`.

    Args:
        rank: number of spatial dimensions.
        kernel_size, strides, dilation_rate: ints or tuples of `rank` ints.
        padding: `"valid"` or `"same"`.
        depth_multiplier: output channels per input channel.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        activation, use_bias: as for `Conv2D`.
        depthwise_initializer, bias_initializer, depthwise_regularizer,
        bias_regularizer, activity_regularizer, depthwise_constraint,
        bias_constraint: the kernel's and bias's settings.
    """

    def __init__(self, rank, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(rank, kernel_size, strides, padding, depth_multiplier, data_format,
                         dilation_rate, activation, use_bias, depthwise_initializer,
                         bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)

    @property
    def depthwise_kernel(self):
        return self.kernel

    def build(self, input_shape):
        self.kernel = self._add_depthwise_kernel(input_shape, "kernel")
        self.bias = self._add_bias(self.kernel.shape[-2] * self.depth_multiplier)

    def call(self, inputs):
        x = to_channels_last(inputs, self.data_format)
        return self._finish(self._depthwise(x, self.kernel, self.bias,
                                            activation=self._fused_activation or "linear"))


class DepthwiseConv1D(BaseDepthwiseConv):
    """1-D depthwise convolution; takes `BaseDepthwiseConv`'s arguments.

    >>> import numpy as np
    >>> DepthwiseConv1D(3, depth_multiplier=2)(np.ones((1, 8, 4), "float32")).shape
    (1, 6, 8)
    """

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True, **kwargs):
        super().__init__(1, kernel_size, strides=strides, padding=padding,
                         depth_multiplier=depth_multiplier, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         **kwargs)


class DepthwiseConv2D(BaseDepthwiseConv):
    """2-D depthwise convolution; takes `BaseDepthwiseConv`'s arguments.

    >>> import numpy as np
    >>> layer = DepthwiseConv2D(3, depth_multiplier=2, padding="same")
    >>> layer(np.ones((1, 5, 5, 3), "float32")).shape
    (1, 5, 5, 6)
    >>> layer.kernel.shape
    (3, 3, 3, 2)
    """

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=(1, 1), activation=None, use_bias=True,
                 **kwargs):
        super().__init__(2, kernel_size, strides=strides, padding=padding,
                         depth_multiplier=depth_multiplier, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         **kwargs)
