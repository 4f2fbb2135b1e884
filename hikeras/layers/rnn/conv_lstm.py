"""Convolutional LSTM layers: `ConvLSTM1D`, `ConvLSTM2D`, `ConvLSTM3D`.

An LSTM whose input and recurrent transformations are convolutions (Shi et
al., 2015, without peephole connections), with Keras 3's weights, gate order
(`i, f, c, o`), defaults and configs. Inputs are `(batch, time, *spatial,
channels)` (or `(batch, time, channels, *spatial)` with channels-first); the
states and outputs are feature maps of `filters` channels.

The layers are the generic `RNN` over a `ConvLSTMCell`: one cell call per
time step, each made of the backend's `conv` ops (so gradients come from
their registered VJPs). As in Keras, the recurrent convolution always uses
stride 1, no dilation and "same" padding, so a state keeps the spatial shape
of the input convolution's output.
"""

import numpy as np

from ... import activations, constraints, initializers, ops, regularizers
from ...backend import SymbolicTensor
from ...ops import kernels
from ...serialization import register_keras_serializable
from ...utils.rng import make_generator
from ..convolutional.arguments import (
    from_channels_last,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
    to_channels_last,
)
from ..convolutional.base_conv import check_strides_and_dilation
from ..input_spec import InputSpec
from ..layer import Layer
from ..weight_options import parse_weight_options
from .cells import forget_bias_one
from .rnn import RNN

GATES = 4  # i, f, c, o


def _rate(value):
    return min(1.0, max(0.0, float(value)))   # Keras clips rates into [0, 1]


@register_keras_serializable(package="hikeras")
class ConvLSTMCell(Layer):
    """One step of a convolutional LSTM (Keras's `ConvLSTMCell`, not exported there either).

    Registered as `"hikeras>ConvLSTMCell"` (its config carries `rank`), so
    `save()`'s check that every sublayer rebuilds from its config passes.

    Weights: `kernel` `(*kernel_size, in_channels, 4 * filters)`,
    `recurrent_kernel` `(*kernel_size, filters, 4 * filters)` and `bias`
    `(4 * filters,)`, each in gate order `i, f, c, o`.

    Args:
        rank: number of spatial dimensions (1, 2 or 3).
        filters, kernel_size, strides, padding, data_format, dilation_rate:
            those of the input convolution.
        Other arguments as `ConvLSTM2D`.
    """

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if rank not in (1, 2, 3):
            raise ValueError(f"ConvLSTM layers have rank 1, 2 or 3. Received: rank={rank!r}")
        self.rank = rank
        if not isinstance(filters, (int, np.integer)) or isinstance(filters, bool) \
                or filters <= 0:
            raise ValueError("The `filters` argument must be a positive integer. "
                             f"Received: filters={filters!r}")
        self.filters = int(filters)
        self.kernel_size = standardize_tuple(kernel_size, rank, "kernel_size")
        self.strides = standardize_tuple(strides, rank, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, rank, "dilation_rate")
        check_strides_and_dilation(self.strides, self.dilation_rate)
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = bool(use_bias)
        parse_weight_options(self, ("kernel", "recurrent", "bias"), locals(),
                             activity_regularizer=None)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.dropout = _rate(dropout)
        self.recurrent_dropout = _rate(recurrent_dropout)
        self.seed = seed
        self._rng = make_generator(seed)
        self.state_size = -1   # known once built (as in Keras)
        self.sequence_dropout_masks = None   # set by the layer for the length of one call

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def build(self, input_shape):
        """`input_shape`: one step's shape, `(batch, *spatial, channels)` or channels-first."""
        input_shape = tuple(input_shape)
        if len(input_shape) != self.rank + 2:
            raise ValueError(f"A rank-{self.rank} ConvLSTM step has rank {self.rank + 2} "
                             f"inputs. Received: input_shape={input_shape}")
        spatial = input_shape[1:-1] if self.data_format == "channels_last" else input_shape[2:]
        channels = input_shape[self._channel_axis()]
        if None in spatial or channels is None:
            raise ValueError("ConvLSTM layers need the spatial and channel dimensions of their "
                             f"inputs to be known. Received: input_shape={input_shape}")
        self.spatial_dims, self.input_dim = tuple(spatial), int(channels)
        self.kernel = self.add_weight(
            shape=self.kernel_size + (self.input_dim, GATES * self.filters),
            initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, GATES * self.filters),
            initializer=self.recurrent_initializer, name="recurrent_kernel",
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(GATES * self.filters,), initializer=self._bias_init(), name="bias",
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self._state_spatial = self._output_spatial()
        state = (self._state_spatial + (self.filters,) if self.data_format == "channels_last"
                 else (self.filters,) + self._state_spatial)
        self.state_size = [state, state]
        self.built = True

    def _output_spatial(self):
        """The spatial shape of the input convolution's output (the states' shape)."""
        step = SymbolicTensor((None,) + self.spatial_dims + (self.input_dim,), self.compute_dtype)
        out = kernels.conv(step, SymbolicTensor(tuple(self.kernel.shape), self.compute_dtype),
                           **self._input_conv_attrs())
        return tuple(out.shape[1:-1])

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        return forget_bias_one(self.bias_initializer, self.filters)

    def _input_conv_attrs(self):
        return {"strides": self.strides, "padding": self.padding,
                "dilation_rate": self.dilation_rate}

    def get_initial_state(self, batch_size=None):
        """Zero hidden and carry states, each `(batch_size, *state_shape)`."""
        return [np.zeros((batch_size,) + tuple(s), self.compute_dtype) for s in self.state_size]

    def make_dropout_masks(self, batch_size, training):
        """`(input masks, recurrent masks)`: four channels-last masks each, or None.

        Keras draws one mask per gate for each sequence; the layer draws them
        once per call and the cell reuses them at every step.
        """
        def masks(rate, shape):
            if not training or not 0.0 < rate < 1.0:
                return None
            return [((self._rng.random(shape) >= rate) / (1.0 - rate)).astype(self.compute_dtype)
                    for _ in range(GATES)]
        return (masks(self.dropout, (batch_size,) + self.spatial_dims + (self.input_dim,)),
                masks(self.recurrent_dropout,
                      (batch_size,) + self._state_spatial + (self.filters,)))

    def _gate_preactivations(self, x, kernel, bias, masks, attrs):
        """`conv(x, kernel) + bias` for the four gates, joined on the channel axis."""
        if masks is None:
            return kernels.conv(x, kernel, bias, **attrs)
        gate_kernels = ops.split(kernel, GATES, axis=-1)
        biases = [None] * GATES if bias is None else ops.split(bias, GATES)
        gates = []
        for mask, k, b in zip(masks, gate_kernels, biases):
            gates.append(kernels.conv(ops.multiply(x, mask), k, b, **attrs))
        return ops.concatenate(gates, axis=-1)

    def call(self, inputs, states, training=None):
        """One step: `(h_t, [h_t, c_t])` for one step's inputs and `[h, c]`."""
        h_prev, c_prev = states[0], states[1]
        if self.sequence_dropout_masks is not None:
            input_masks, recurrent_masks = self.sequence_dropout_masks
        elif isinstance(inputs, SymbolicTensor):
            input_masks = recurrent_masks = None
        else:
            input_masks, recurrent_masks = self.make_dropout_masks(inputs.shape[0], training)
        x = to_channels_last(inputs, self.data_format)
        h = to_channels_last(h_prev, self.data_format)
        c = to_channels_last(c_prev, self.data_format)
        z = ops.add(
            self._gate_preactivations(x, self.kernel, self.bias, input_masks,
                                      self._input_conv_attrs()),
            self._gate_preactivations(h, self.recurrent_kernel, None, recurrent_masks,
                                      {"strides": 1, "padding": "same", "dilation_rate": 1}))
        z_i, z_f, z_c, z_o = ops.split(z, GATES, axis=-1)
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        c = ops.add(ops.multiply(f, c), ops.multiply(i, self.activation(z_c)))
        o = self.recurrent_activation(z_o)
        h = ops.multiply(o, self.activation(c))
        h = from_channels_last(h, self.data_format)
        return h, [h, from_channels_last(c, self.data_format)]

    def get_config(self):
        config = super().get_config()
        config.update({
            "rank": self.rank,
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "unit_forget_bias": self.unit_forget_bias,
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            "seed": self.seed,
        })
        return config


# The cell's hyperparameters, which Keras also exposes on the layer.
_CELL_ATTRIBUTES = (
    "filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
    "activation", "recurrent_activation", "use_bias", "kernel_initializer",
    "recurrent_initializer", "bias_initializer", "unit_forget_bias", "kernel_regularizer",
    "recurrent_regularizer", "bias_regularizer", "kernel_constraint", "recurrent_constraint",
    "bias_constraint", "dropout", "recurrent_dropout")


class ConvLSTM(RNN):
    """What `ConvLSTM1D/2D/3D` share: `RNN` over a `ConvLSTMCell` of rank `rank`."""

    _nested_layer_keys = ()   # the cell is rebuilt from the flat config, as in Keras
    rank = None

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):
        try:
            cell = ConvLSTMCell(
                self.rank, filters, kernel_size, strides=strides, padding=padding,
                data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                recurrent_activation=recurrent_activation, use_bias=use_bias,
                kernel_initializer=kernel_initializer,
                recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
                unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
                recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
                kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
                bias_constraint=bias_constraint, dropout=dropout,
                recurrent_dropout=recurrent_dropout, seed=seed, name="conv_lstm_cell",
                dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True))
        except ValueError as error:
            raise ValueError(f"{type(self).__name__}: {error}") from None
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(ndim=self.rank + 3)

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        if len(input_shape) != self.rank + 3:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expects inputs of rank "
                f"{self.rank + 3}, (batch, time, *spatial, channels) or (batch, time, "
                f"channels, *spatial). Received: input_shape={input_shape}")
        if not self.cell.built:
            try:
                self.cell.build((input_shape[0],) + input_shape[2:])
            except ValueError as error:
                raise ValueError(f"Layer '{self.name}' ({type(self).__name__}): {error}") \
                    from None
        # The states have a fixed spatial shape, so every step shape is pinned.
        self.input_spec = InputSpec(ndim=self.rank + 3, axes={
            axis: size for axis, size in enumerate(input_shape) if axis >= 2})
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=None):
        if not isinstance(sequences, SymbolicTensor):
            self.cell.sequence_dropout_masks = self.cell.make_dropout_masks(
                sequences.shape[0], training)
        try:
            return super().call(sequences, initial_state=initial_state, mask=mask,
                                training=training)
        finally:
            self.cell.sequence_dropout_masks = None

    def get_config(self):
        config = Layer.get_config(self)
        config.update(self._sequence_config())
        cell_config = self.cell.get_config()
        for key in ("name", "trainable", "dtype", "rank"):
            cell_config.pop(key, None)
        config.update(cell_config)
        config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return config


for _attribute in _CELL_ATTRIBUTES:
    setattr(ConvLSTM, _attribute,
            property(lambda self, _name=_attribute: getattr(self.cell, _name)))


_LAYER_DOC = """{rank}D convolutional LSTM (Shi et al., 2015): an LSTM whose input and recurrent
    transformations are {rank}D convolutions; gates `i, f, c, o` as Keras.

    Inputs `(batch, time, {spatial}, channels)` (channels-last) or `(batch,
    time, channels, {spatial})`; outputs and states are `filters`-channel maps
    whose spatial shape is that of the input convolution's output. The
    recurrent convolution uses stride 1 and "same" padding.

    Args:
        filters: output channels.
        kernel_size, strides, dilation_rate: int or tuple of {rank} ints, of
            both convolutions (the recurrent one uses stride and dilation 1);
            strides and dilation cannot both exceed 1.
        padding: `"valid"` (default) or `"same"`, of the input convolution.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        activation: default `"tanh"`; recurrent_activation: default `"sigmoid"`.
        use_bias: default True.
        kernel_initializer, recurrent_initializer, bias_initializer: default
            `"glorot_uniform"`, `"orthogonal"`, `"zeros"`.
        unit_forget_bias: initialise the forget gate's bias to 1 (default True).
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, recurrent_constraint,
            bias_constraint: as Keras.
        dropout, recurrent_dropout: fraction of the inputs / of the hidden
            state dropped in training (one mask per gate and sequence).
        seed: seed of the dropout masks.
        return_sequences, return_state, go_backwards, stateful: as `LSTM`.
        Masks (`mask=` of shape `(batch, time)`) skip steps as in `LSTM`.

    >>> import numpy as np
    >>> ConvLSTM{rank}D(2, 3, padding="same")(np.ones({example}, "float32")).shape
    {shape}
    """


class ConvLSTM1D(ConvLSTM):
    __doc__ = _LAYER_DOC.format(rank=1, spatial="steps", example="(1, 4, 5, 3)",
                                shape="(1, 5, 2)")
    rank = 1


class ConvLSTM2D(ConvLSTM):
    __doc__ = _LAYER_DOC.format(rank=2, spatial="rows, cols", example="(1, 4, 5, 5, 3)",
                                shape="(1, 5, 5, 2)")
    rank = 2


class ConvLSTM3D(ConvLSTM):
    __doc__ = _LAYER_DOC.format(rank=3, spatial="dim1, dim2, dim3",
                                example="(1, 2, 3, 3, 3, 1)", shape="(1, 3, 3, 3, 2)")
    rank = 3


__all__ = ["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]
