"""`BaseConv`: what Conv1D, Conv2D and Conv3D share."""

from ... import activations
from ...backend import FUSED_DENSE_ACTIVATIONS, SymbolicTensor
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
    to_channels_last,
)


def fused_activation(activation):
    """The name of `activation` if the conv ops can apply it in place, else None.

    A sigmoid runs unfused: its logits must reach the crossentropy (Keras 3
    computes it from them; see `utils.remembered_logits`).
    """
    name = activations.serialize(activation)
    return name if name in FUSED_DENSE_ACTIVATIONS and name != "sigmoid" else None


def check_strides_and_dilation(strides, dilation_rate):
    if max(strides) > 1 and max(dilation_rate) > 1:
        raise ValueError(
            "`strides > 1` is not supported together with `dilation_rate > 1`. "
            f"Received: strides={strides}, dilation_rate={dilation_rate}")


def reject_groups(layer, kwargs):
    """Drops `groups=1` from `kwargs` (Keras 2 configs carry it); raises for other values."""
    groups = kwargs.pop("groups", 1)
    if groups != 1:
        raise ValueError(f"{type(layer).__name__} does not support groups. "
                         f"Received: groups={groups!r}")


class BaseConv(Layer):
    """An N-D convolution layer: `activation(conv(inputs, kernel) + bias)`.

    The kernel has Keras's layout `(*kernel_size, in_channels // groups,
    filters)`. The convolution, bias and (linear, relu, sigmoid or tanh)
    activation run as one backend op lowered to matrix products.

    Args:
        rank: number of spatial dimensions.
        filters: number of output channels.
        kernel_size: int or tuple of `rank` ints.
        strides: int or tuple of `rank` ints (default 1).
        padding: `"valid"`, `"same"`, or for rank 1 `"causal"`.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        dilation_rate: int or tuple of `rank` ints; cannot exceed 1 together
            with strides.
        groups: channel groups convolved separately; must divide the input
            channels and `filters`.
        activation: activation name or callable (default linear).
        use_bias: whether to add a bias.
        kernel_initializer, bias_initializer: default `"glorot_uniform"` and
            `"zeros"`.
        kernel_regularizer, bias_regularizer, activity_regularizer: penalties.
        kernel_constraint, bias_constraint: projections after each update.
    """

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        if not isinstance(filters, int) or isinstance(filters, bool) or filters <= 0:
            raise ValueError(
                f"Invalid value for argument `filters` of {type(self).__name__}: expected a "
                f"positive integer. Received: filters={filters!r}")
        if not isinstance(groups, int) or groups <= 0 or filters % groups:
            raise ValueError(
                "The number of groups must be a positive integer that divides `filters`. "
                f"Received: groups={groups!r}, filters={filters}")
        self.filters = filters
        self.groups = groups
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = standardize_padding(padding, allow_causal=rank == 1)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self._fused_activation = fused_activation(self.activation)
        self.use_bias = bool(use_bias)
        parse_weight_options(self, ("kernel", "bias"), locals())
        self.input_spec = InputSpec(ndim=rank + 2)

    _op = staticmethod(kernels.conv)

    def _conv_attrs(self):
        return {"strides": self.strides, "padding": self.padding,
                "dilation_rate": self.dilation_rate}

    def _kernel_shape(self, input_shape, channels):
        if channels % self.groups:
            raise ValueError(
                f"The input channels of layer '{self.name}' must be divisible by groups="
                f"{self.groups}. Received: input_shape={tuple(input_shape)}")
        return self.kernel_size + (channels // self.groups, self.filters)

    def build(self, input_shape):
        channels = check_input(self, input_shape, self.rank, self.data_format)
        kernel_shape = self._kernel_shape(input_shape, channels)
        check_windows(self, self._op, input_shape, self.data_format,
                      SymbolicTensor(kernel_shape, self.compute_dtype), **self._conv_attrs())
        self.kernel = self.add_weight(
            shape=kernel_shape, initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(self.filters,), initializer=self.bias_initializer, name="bias",
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        channel_axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis: channels})

    def call(self, inputs):
        x = to_channels_last(inputs, self.data_format)
        out = self._op(x, self.kernel, self.bias, activation=self._fused_activation or "linear",
                       **self._conv_attrs())
        if self._fused_activation is None:
            out = self.activation(out)
        return from_channels_last(out, self.data_format)

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "groups": self.groups,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **serialize_weight_options(self),
        })
        return config
