"""What depthwise and separable convolutions share: per-channel kernels and their checks."""

from ... import activations, ops
from ...backend import SymbolicTensor
from ...ops import kernels
from ..input_spec import InputSpec
from ..layer import Layer
from ..weight_options import parse_weight_options, serialize_weight_options
from .arguments import (
    check_input,
    check_windows,
    from_channels_last,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
)
from .base_conv import check_strides_and_dilation, fused_activation, reject_groups


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
        parse_weight_options(self, ("depthwise", "bias"), locals())
        self.input_spec = InputSpec(ndim=rank + 2)

    def _add_depthwise_kernel(self, input_shape, name):
        channels = check_input(self, input_shape, self.rank, self.data_format)
        shape = self.kernel_size + (channels, self.depth_multiplier)
        check_windows(self, kernels.conv, input_shape, self.data_format,
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

    def _depthwise(self, x, kernel, bias=None, activation="linear"):
        """The depthwise convolution of channels-last `x`, with optional fused bias/activation."""
        grouped = ops.reshape(kernel, self.kernel_size + (1, -1))
        return kernels.conv(x, grouped, bias, strides=self.strides, padding=self.padding,
                            dilation_rate=self.dilation_rate, activation=activation)

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
            **serialize_weight_options(self, ("depthwise", "bias")),
        })
        return config
