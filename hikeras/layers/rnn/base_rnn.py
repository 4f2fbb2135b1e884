"""`FusedRNN`: what `SimpleRNN`, `LSTM` and `GRU` share.

Each call runs the whole sequence through one backend op (`lstm_sequence`,
...) whose gradient is a hand-written backpropagation through time. The
weights live in the layer's `cell` (Keras's structure: `lstm.cell.kernel`).

States: zeros by default; `initial_state=` overrides them; with
`stateful=True` the final states of a call become the initial states of the
next (per sample index), kept in `layer.states` until `reset_states()`.
Masks (`mask=`, or propagated from `Embedding(mask_zero=True)`/`Masking` by
a model) skip steps as Keras does: states carry over a masked step and its
output repeats the previous output (zeros with `zero_output_for_mask=True`).
"""

import numpy as np

from ... import regularizers
from ...backend import SymbolicTensor, Tensor
from ...utils import tree
from ...variables import Variable
from ..input_spec import InputSpec
from ..layer import Layer


def _legacy_kwargs(layer_name, kwargs):
    """Keras 2 spellings: `input_length`/`input_dim`, `time_major`, `use_cudnn`."""
    kwargs = dict(kwargs)
    kwargs.pop("use_cudnn", None)
    if kwargs.pop("time_major", False):
        raise ValueError(f"{layer_name}: time-major inputs are not supported; pass inputs "
                         "shaped (batch, timesteps, features). Received: time_major=True")
    length = kwargs.pop("input_length", None)
    if "input_shape" not in kwargs and (length is not None or "input_dim" in kwargs):
        kwargs["input_shape"] = (length, kwargs.pop("input_dim", None))
    return kwargs


class FusedRNN(Layer):
    """Base class of the fused recurrent layers (not a Keras class).

    Args:
        cell: the `FusedCell` holding the weights.
        return_sequences: return the whole output sequence (default: last).
        return_state: also return the final states.
        go_backwards: process the sequence in reverse (and return the
            output sequence in that order).
        stateful: carry the final states of a call into the next one.
        unroll: accepted for Keras compatibility (the loop is always fused).
        zero_output_for_mask: masked steps output zeros.
        activity_regularizer: penalty on the layer's output.
    """

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False,
                 activity_regularizer=None, **kwargs):
        super().__init__(**_legacy_kwargs(type(self).__name__, kwargs))
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = bool(stateful)
        self.unroll = bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.supports_masking = True
        self.input_spec = InputSpec(ndim=3)
        self.states = None

    # Keras exposes the cell's hyperparameters on the layer.
    units = property(lambda self: self.cell.units)
    activation = property(lambda self: self.cell.activation)
    use_bias = property(lambda self: self.cell.use_bias)
    dropout = property(lambda self: self.cell.dropout)
    recurrent_dropout = property(lambda self: self.cell.recurrent_dropout)
    state_size = property(lambda self: self.cell.state_size)

    def build(self, input_shape):
        if input_shape[-1] is None:
            raise ValueError(f"The last dimension of the inputs to {type(self).__name__} "
                             f"'{self.name}' must be known. Received: input_shape={input_shape}")
        if not self.cell.built:
            self.cell.build((input_shape[0], input_shape[-1]))
        self.input_spec = InputSpec(ndim=3, axes={-1: input_shape[-1]})
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=None):
        cell = self.cell
        symbolic = isinstance(sequences, SymbolicTensor)
        batch = sequences.shape[0]
        states = self._initial_states(sequences, initial_state, symbolic)
        mask = self._step_mask(mask, sequences, symbolic)
        x = cell.input_dropout(sequences, training, noise_shape=(batch, 1, sequences.shape[2]))
        rmask = None if symbolic else cell.recurrent_dropout_mask(batch, training)
        outs = cell.sequence_op(
            x, *states, cell.kernel, cell.recurrent_kernel, cell.bias, mask, rmask,
            go_backwards=self.go_backwards, return_sequences=self.return_sequences,
            zero_output_for_mask=self.zero_output_for_mask, **cell.op_attributes())
        output, final = outs[0], list(outs[1:])
        if self.stateful and not symbolic:
            for variable, value in zip(self.states, final):
                variable.assign(np.asarray(value))
        return (output, *final) if self.return_state else output

    def _initial_states(self, sequences, initial_state, symbolic):
        cell = self.cell
        if initial_state is not None:
            states = tree.flatten(initial_state)
            if len(states) != cell.num_states:
                raise ValueError(
                    f"Layer '{self.name}' ({type(self).__name__}) expects {cell.num_states} "
                    f"initial state(s). Received: {len(states)} initial state(s)")
            return states
        batch = sequences.shape[0]
        if symbolic:
            return [SymbolicTensor((batch, cell.units), sequences.dtype)] * cell.num_states
        if self.stateful:
            return self._state_variables(batch)
        return cell.get_initial_state(batch)

    def _state_variables(self, batch):
        if self.states is None:
            self.states = [Variable(np.zeros((batch, self.cell.units), self.dtype),
                                    name="rnn_state", trainable=False)
                           for _ in range(self.cell.num_states)]
        elif self.states[0].shape[0] != batch:
            raise ValueError(
                f"Stateful layer '{self.name}' keeps states for a batch of "
                f"{self.states[0].shape[0]} samples; every batch must have that size (pass "
                f"`batch_size` to fit/predict, or call reset_states() after changing it). "
                f"Received: a batch of {batch} samples")
        return self.states

    def _step_mask(self, mask, sequences, symbolic):
        """The `(batch, timesteps)` boolean mask for the op; None if nothing is masked."""
        if mask is None:
            return None
        mask = tree.flatten(mask)[0]
        if isinstance(mask, SymbolicTensor):
            return mask  # traced as it is (an ONNX export follows the mask through the op)
        if mask is None or symbolic:
            return None
        mask = np.asarray(mask.value if isinstance(mask, Tensor) else mask).astype(bool)
        if mask.shape != tuple(sequences.shape[:2]):
            raise ValueError(
                f"The mask of layer '{self.name}' must have shape (batch, timesteps) = "
                f"{tuple(sequences.shape[:2])}. Received: mask.shape={mask.shape}")
        return None if mask.all() else mask

    def reset_states(self, states=None):
        """Zeroes the stored states of a stateful layer (or sets them to `states`)."""
        if not self.stateful:
            raise AttributeError(f"Layer '{self.name}' is not stateful; it keeps no states.")
        if self.states is None:
            return
        values = [None] * len(self.states) if states is None else tree.flatten(states)
        if len(values) != len(self.states):
            raise ValueError(f"Layer '{self.name}' has {len(self.states)} states. "
                             f"Received: {len(values)} arrays")
        for variable, value in zip(self.states, values):
            variable.assign(np.zeros(variable.shape) if value is None else value)

    reset_state = reset_states

    def _state_count(self):
        """How many state tensors a call with `return_state=True` returns."""
        return self.cell.num_states

    def compute_mask(self, inputs, mask=None):
        mask = tree.flatten(mask)[0] if mask is not None else None
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * self._state_count()
        return output_mask

    def _sequence_config(self):
        """The config entries of the sequence options every recurrent layer has."""
        return {
            "return_sequences": self.return_sequences,
            "return_state": self.return_state,
            "go_backwards": self.go_backwards,
            "stateful": self.stateful,
            "unroll": self.unroll,
            "zero_output_for_mask": self.zero_output_for_mask,
        }

    def get_config(self):
        config = super().get_config()
        config.update(self._sequence_config())
        config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        cell_config = self.cell.get_config()
        for key in ("name", "trainable", "dtype"):
            cell_config.pop(key, None)
        config.update(cell_config)
        return config
