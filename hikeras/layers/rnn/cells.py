"""RNN cells: `SimpleRNNCell`, `LSTMCell`, `GRUCell`.

A cell holds the weights of one recurrent layer (Keras's names, shapes and
gate order, so weights interchange with Keras) and can run a single step:
`cell(x_t, states) -> (h_t, new_states)`, computed by the backend's fused
sequence op on a one-step sequence. The recurrent layers (`LSTM`, ...) keep
their cell as the attribute `cell`, as Keras does, and run whole sequences
through the same op.

The fused ops implement the activations `linear`, `tanh`, `sigmoid`,
`hard_sigmoid` and `relu`; other activations are refused at construction.
"""

import numpy as np

from ... import activations, ops
from ...ops import kernels
from ...utils.rng import make_generator
from ..layer import Layer
from ..weight_options import parse_weight_options, serialize_weight_options

FUSED_ACTIVATIONS = ("linear", "tanh", "sigmoid", "hard_sigmoid", "relu")


def _fused_activation(layer, argument, value):
    fn = activations.get(value)
    name = activations.serialize(fn)
    if name not in FUSED_ACTIVATIONS:
        raise ValueError(
            f"{type(layer).__name__} '{layer.name}' supports `{argument}` in "
            f"{list(FUSED_ACTIVATIONS)} (its sequence op is fused). Received: "
            f"{argument}={value!r}"
        )
    return fn


def forget_bias_one(init, units):
    """An initializer of a `(4 * units,)` LSTM bias (gates i, f, c, o): `init`,
    except the forget gate's ones (Keras's `unit_forget_bias`)."""
    def initializer(shape, dtype=None):
        return np.concatenate([np.asarray(init((units,), dtype=dtype)),
                               np.ones((units,), dtype),
                               np.asarray(init((2 * units,), dtype=dtype))])
    return initializer


def _rate(value):
    return min(1.0, max(0.0, float(value)))   # Keras clips rates into [0, 1]


class FusedCell(Layer):
    """Shared weights, dropout and config of the cells (not a Keras class).

    Subclasses set `sequence_op` (their `hikeras.ops.kernels` sequence function),
    `gates` (blocks per kernel) and `num_states`.
    """

    sequence_op = None
    gates = 1
    num_states = 1

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None, **kwargs):
        kwargs.pop("implementation", None)   # Keras's implementation switch: one here
        super().__init__(**kwargs)
        if not isinstance(units, (int, np.integer)) or isinstance(units, bool) or units <= 0:
            raise ValueError(f"{type(self).__name__}: units must be a positive integer. "
                             f"Received: units={units!r}")
        self.units = int(units)
        self.activation = _fused_activation(self, "activation", activation)
        self.use_bias = bool(use_bias)
        parse_weight_options(self, ("kernel", "recurrent", "bias"), locals(),
                             activity_regularizer=None)
        self.dropout = _rate(dropout)
        self.recurrent_dropout = _rate(recurrent_dropout)
        self.seed = seed
        self._rng = make_generator(seed)

    @property
    def state_size(self):
        return self.units if self.num_states == 1 else [self.units] * self.num_states

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        width = self.gates * self.units
        self.kernel = self.add_weight(
            shape=(input_shape[-1], width), initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, width), initializer=self.recurrent_initializer,
            name="recurrent_kernel", regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=self._bias_shape(), initializer=self._bias_init(), name="bias",
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def _bias_shape(self):
        return (self.gates * self.units,)

    def _bias_init(self):
        return self.bias_initializer

    def op_attributes(self):
        """Keyword attributes of the fused op for this cell's activations."""
        return {"activation": activations.serialize(self.activation)}

    def get_initial_state(self, batch_size=None):
        """Zero states, one `(batch_size, units)` array per state."""
        return [np.zeros((batch_size, self.units), self.compute_dtype) for _ in range(self.num_states)]

    def input_dropout(self, inputs, training, noise_shape=None):
        """`inputs` with `dropout` applied in training (one mask per sample)."""
        if not training or not 0.0 < self.dropout < 1.0:
            return inputs
        return kernels.dropout(inputs, self.dropout, rng=self._rng, noise_shape=noise_shape)

    def recurrent_dropout_mask(self, batch_size, training):
        """The `(batch, units)` factors of recurrent dropout, or None."""
        if not training or not 0.0 < self.recurrent_dropout < 1.0:
            return None
        keep = self._rng.random((batch_size, self.units)) >= self.recurrent_dropout
        return (keep / (1.0 - self.recurrent_dropout)).astype(self.compute_dtype)

    def call(self, inputs, states, training=None):
        """One step: `(h_t, new_states)` for inputs `(batch, features)`."""
        states = list(states) if isinstance(states, (list, tuple)) else [states]
        inputs = self.input_dropout(inputs, training)
        rmask = self.recurrent_dropout_mask(inputs.shape[0], training)
        outs = self.sequence_op(ops.expand_dims(inputs, 1), *states, self.kernel,
                                self.recurrent_kernel, self.bias, None, rmask,
                                return_sequences=False, **self.op_attributes())
        return outs[0], list(outs[1:])

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **serialize_weight_options(self, ("kernel", "recurrent", "bias"),
                                       activity_regularizer=None),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            "seed": self.seed,
        })
        return config


class SimpleRNNCell(FusedCell):
    """The cell of `SimpleRNN`: `h_t = activation(x_t @ W + h_{t-1} @ U + b)`.

    Args:
        units: dimension of the state and output.
        activation: default `"tanh"`.
        use_bias, kernel_initializer, recurrent_initializer (default
            `"orthogonal"`), bias_initializer, *_regularizer, *_constraint,
            dropout, recurrent_dropout, seed: as Keras.

    >>> import numpy as np
    >>> cell = SimpleRNNCell(4)
    >>> h, states = cell(np.ones((2, 3), "float32"), [np.zeros((2, 4), "float32")])
    >>> h.shape, len(states)
    ((2, 4), 1)
    """

    sequence_op = staticmethod(kernels.simple_rnn_sequence)


class LSTMCell(FusedCell):
    """The cell of `LSTM`; gates `i, f, c, o` in Keras's kernel layout.

    Args:
        units: dimension of the states and output.
        activation: default `"tanh"`.
        recurrent_activation: default `"sigmoid"`.
        unit_forget_bias: initialise the forget gate's bias to 1 (default True).
        Other arguments as `SimpleRNNCell`.

    >>> import numpy as np
    >>> cell = LSTMCell(4)
    >>> h, (h_state, c_state) = cell(np.ones((2, 3), "float32"), cell.get_initial_state(2))
    >>> h.shape, c_state.shape
    ((2, 4), (2, 4))
    """

    sequence_op = staticmethod(kernels.lstm_sequence)
    gates = 4
    num_states = 2

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 unit_forget_bias=True, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation = _fused_activation(self, "recurrent_activation",
                                                      recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        return forget_bias_one(self.bias_initializer, self.units)

    def op_attributes(self):
        return {"activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation)}

    def get_config(self):
        config = super().get_config()
        config["recurrent_activation"] = activations.serialize(self.recurrent_activation)
        config["unit_forget_bias"] = self.unit_forget_bias
        return config


class GRUCell(FusedCell):
    """The cell of `GRU`; gates `z, r, h` in Keras's kernel layout.

    Args:
        units: dimension of the state and output.
        activation: default `"tanh"`.
        recurrent_activation: default `"sigmoid"`.
        reset_after: apply the reset gate after the recurrent product (Keras
            3's default, bias `(2, 3 * units)`) or before it (bias
            `(3 * units,)`).
        Other arguments as `SimpleRNNCell`.

    >>> import numpy as np
    >>> cell = GRUCell(4)
    >>> h, states = cell(np.ones((2, 3), "float32"), cell.get_initial_state(2))
    >>> h.shape, cell.bias.shape
    ((2, 4), (2, 12))
    """

    sequence_op = staticmethod(kernels.gru_sequence)
    gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 reset_after=True, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation = _fused_activation(self, "recurrent_activation",
                                                      recurrent_activation)
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def op_attributes(self):
        return {"activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "reset_after": self.reset_after}

    def get_config(self):
        config = super().get_config()
        config["recurrent_activation"] = activations.serialize(self.recurrent_activation)
        config["reset_after"] = self.reset_after
        return config


__all__ = ["GRUCell", "LSTMCell", "SimpleRNNCell"]
