"""Depthwise and depthwise-separable convolutions (1-D and 2-D).

A depthwise convolution filters each input channel on its own with
`depth_multiplier` kernels: it is a grouped convolution with one group per
channel, so it runs on the same `conv` op, with the kernel
`(*kernel_size, channels, multiplier)` viewed as `(*kernel_size, 1,
channels * multiplier)` (output channel `c * multiplier + m`, as in Keras).
A separable convolution follows it with a 1x1 convolution mixing channels.
"""

from .. import activations, backend, constraints, initializers, regularizers
from ..backend import SymbolicTensor
from .conv_arguments import (
    check_input,
    check_windows,
    from_channels_last,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
    to_channels_last,
)
from .conv_base import check_strides_and_dilation, fused_activation, reject_groups
from .input_spec import InputSpec
from .layer import Layer


class _DepthwiseBase(Layer):
    """Arguments and the depthwise step shared by depthwise and separable layers."""

    def __init__(self, rank, kernel_size, strides, padding, depth_multiplier, data_format,
                 dilation_rate, activation, use_bias, depthwise_initializer, bias_initializer,
                 depthwise_regularizer, bias_regularizer, activity_regularizer,
                 depthwise_constraint, bias_constraint, **kwargs):
        reject_groups(self, kwargs)
        super().__init__(**kwargs)
        if not isinstance(depth_multiplier, int) or depth_multiplier <= 0:
            raise ValueError(
                f"Invalid value for argument `depth_multiplier` of {type(self).__name__}: "
                f"expected a positive integer. Received: depth_multiplier={depth_multiplier!r}")
        self.rank = rank
        self.depth_multiplier = depth_multiplier
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self._fused_activation = fused_activation(self.activation)
        self.use_bias = bool(use_bias)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(ndim=rank + 2)

    def _add_depthwise_kernel(self, input_shape, name):
        channels = check_input(self, input_shape, self.rank, self.data_format)
        shape = self.kernel_size + (channels, self.depth_multiplier)
        check_windows(self, "conv", input_shape, self.data_format,
                      SymbolicTensor(self.kernel_size + (1, channels * self.depth_multiplier),
                                     self.dtype),
                      strides=self.strides, padding=self.padding,
                      dilation_rate=self.dilation_rate)
        channel_axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis: channels})
        return self.add_weight(shape=shape, initializer=self.depthwise_initializer, name=name,
                               regularizer=self.depthwise_regularizer,
                               constraint=self.depthwise_constraint)

    def _add_bias(self, size):
        if not self.use_bias:
            return None
        return self.add_weight(shape=(size,), initializer=self.bias_initializer, name="bias",
                               regularizer=self.bias_regularizer,
                               constraint=self.bias_constraint)

    def _depthwise(self, x, kernel, *bias, activation="linear"):
        """The depthwise convolution of channels-last `x`, with optional fused bias/activation."""
        grouped = backend.apply("reshape", kernel,
                                shape=self.kernel_size + (1, -1))
        return backend.apply("conv", x, grouped, *bias, strides=self.strides,
                             padding=self.padding, dilation_rate=self.dilation_rate,
                             activation=activation)

    def _finish(self, out):
        if self._fused_activation is None:
            out = self.activation(out)
        return from_channels_last(out, self.data_format)

    def get_config(self):
        config = super().get_config()
        config.update({
            "depth_multiplier": self.depth_multiplier,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
            "depthwise_constraint": constraints.serialize(self.depthwise_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
        })
        return config


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
        bias = (self.bias,) if self.use_bias else ()
        return self._finish(self._depthwise(x, self.kernel, *bias,
                                            activation=self._fused_activation or "linear"))


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
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

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
        params = (self.pointwise_kernel, self.bias) if self.use_bias else (self.pointwise_kernel,)
        out = backend.apply("conv", x, *params, activation=self._fused_activation or "linear")
        return self._finish(out)

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters,
            "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
            "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
            "pointwise_constraint": constraints.serialize(self.pointwise_constraint),
        })
        return config


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
