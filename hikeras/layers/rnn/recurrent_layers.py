"""`SimpleRNN`, `LSTM` and `GRU`: Keras's recurrent layers on fused sequence ops.

Constructor arguments, defaults, weight names/shapes/gate order and configs
follow Keras 3; see `FusedRNN` for states, masks and `stateful`.
"""

from .base_rnn import FusedRNN
from .cells import GRUCell, LSTMCell, SimpleRNNCell


def _cell_kwargs(kwargs, name):
    """The base-layer arguments a cell shares with its layer."""
    kwargs.pop("implementation", None)
    return {"dtype": kwargs.get("dtype"), "trainable": kwargs.get("trainable", True),
            "name": name}


class SimpleRNN(FusedRNN):
    """Fully connected RNN: `h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)`.

    Args:
        units: dimension of the state and output.
        activation: default `"tanh"`; one of `linear`, `tanh`, `sigmoid`,
            `hard_sigmoid`, `relu`.
        use_bias: default True.
        kernel_initializer, recurrent_initializer, bias_initializer: default
            `"glorot_uniform"`, `"orthogonal"`, `"zeros"`.
        kernel_regularizer, recurrent_regularizer, bias_regularizer,
            activity_regularizer, kernel_constraint, recurrent_constraint,
            bias_constraint: as Keras.
        dropout, recurrent_dropout: fraction of the inputs / of the state
            dropped in training (one mask per sequence, as Keras).
        seed: seed of the dropout masks.
        return_sequences, return_state, go_backwards, stateful, unroll: see
            `FusedRNN`.

    >>> import numpy as np
    >>> SimpleRNN(4)(np.ones((2, 5, 3), "float32")).shape
    (2, 4)
    """

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, **kwargs):
        cell = SimpleRNNCell(
            units, activation=activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout, recurrent_dropout=recurrent_dropout,
            seed=seed, **_cell_kwargs(kwargs, "simple_rnn_cell"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)


class LSTM(FusedRNN):
    """Long short-term memory (Hochreiter, 1997); gates `i, f, c, o` as Keras.

    Args:
        units: dimension of the states and output.
        activation: default `"tanh"`.
        recurrent_activation: default `"sigmoid"`.
        unit_forget_bias: initialise the forget gate's bias to 1 (default True).
        Other arguments as `SimpleRNN`.

    Returns the last output `(batch, units)`, the sequence `(batch, timesteps,
    units)` with `return_sequences`, followed by the final states `h, c` with
    `return_state`.

    >>> import numpy as np
    >>> lstm = LSTM(4, return_sequences=True, return_state=True)
    >>> seq, h, c = lstm(np.ones((2, 5, 3), "float32"))
    >>> seq.shape, h.shape, c.shape
    ((2, 5, 4), (2, 4), (2, 4))
    >>> [w.shape for w in lstm.get_weights()]
    [(3, 16), (4, 16), (16,)]
    """

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, unroll=False, **kwargs):
        cell = LSTMCell(
            units, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout, recurrent_dropout=recurrent_dropout,
            seed=seed, **_cell_kwargs(kwargs, "lstm_cell"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)

    recurrent_activation = property(lambda self: self.cell.recurrent_activation)
    unit_forget_bias = property(lambda self: self.cell.unit_forget_bias)


class GRU(FusedRNN):
    """Gated recurrent unit (Cho et al., 2014); gates `z, r, h` as Keras.

    Args:
        units: dimension of the state and output.
        activation: default `"tanh"`.
        recurrent_activation: default `"sigmoid"`.
        reset_after: apply the reset gate after the recurrent product (default,
            as Keras 3 and cuDNN; bias shape `(2, 3 * units)`), or before it
            (bias shape `(3 * units,)`).
        Other arguments as `SimpleRNN`.

    >>> import numpy as np
    >>> gru = GRU(4)
    >>> gru(np.ones((2, 5, 3), "float32")).shape
    (2, 4)
    >>> [w.shape for w in gru.get_weights()]
    [(3, 12), (4, 12), (2, 12)]
    """

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, reset_after=True, **kwargs):
        cell = GRUCell(
            units, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
            dropout=dropout, recurrent_dropout=recurrent_dropout, seed=seed,
            reset_after=reset_after, **_cell_kwargs(kwargs, "gru_cell"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         activity_regularizer=activity_regularizer, **kwargs)

    recurrent_activation = property(lambda self: self.cell.recurrent_activation)
    reset_after = property(lambda self: self.cell.reset_after)


__all__ = ["GRU", "LSTM", "SimpleRNN"]
