"""`RNN(cell)`: Keras's generic recurrent layer, and `StackedRNNCells`.

A cell is any layer with `call(inputs, states)` returning
`(output, new_states)` for one time step and a `state_size` (an int, a
shape tuple without the batch axis, or a list of those); `output_size` and
`get_initial_state(batch_size)` are optional, as in Keras. The built-in cells
(`LSTMCell`, `GRUCell`, `SimpleRNNCell`) run as their fused sequence op, so
`RNN(LSTMCell(n))` is exactly as fast as `LSTM(n)`; any other cell is called
once per time step, each step recorded on the tape like any layer call.

States, masks, `go_backwards`, `return_sequences`, `return_state`,
`stateful` and `zero_output_for_mask` behave as in `FusedRNN`: a masked step
keeps the states and repeats the previous output (zeros with
`zero_output_for_mask=True`).
"""

import numpy as np

from ... import ops
from ...backend import SymbolicTensor, Tensor
from ...utils import tree
from ...variables import Variable
from ..layer import Layer
from ..layer_table import serialize
from .base_rnn import FusedRNN
from .cells import FusedCell


def _state_shapes(state_size):
    """`state_size` as a structure of per-sample shapes (tuples)."""
    if isinstance(state_size, (int, np.integer)):
        return (int(state_size),)
    if isinstance(state_size, tuple) and all(isinstance(d, (int, np.integer))
                                              for d in state_size):
        return tuple(int(d) for d in state_size)
    return [_state_shapes(s) for s in state_size]


def _is_shape(value):
    return isinstance(value, tuple)


def _map_shapes(fn, shapes):
    """Applies `fn` to every shape in a `_state_shapes` structure."""
    if _is_shape(shapes):
        return fn(shapes)
    return [_map_shapes(fn, s) for s in shapes]


def _flat_shapes(shapes):
    if _is_shape(shapes):
        return [shapes]
    return [leaf for s in shapes for leaf in _flat_shapes(s)]


def _pack(shapes, flat):
    """Rebuilds the structure of `shapes` with the leaves of `flat`, in order."""
    leaves = iter(flat)
    return _map_shapes(lambda _: next(leaves), shapes)


class StackedRNNCells(Layer):
    """Runs several cells one after the other as one cell (stacked RNN layers).

    The output of each cell feeds the next; the states are one entry per cell.

    Args:
        cells: the cells, bottom first.
    """

    _nested_layer_keys = ("cells",)

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        self.cells = list(cells)
        if not self.cells:
            raise ValueError("StackedRNNCells needs at least one cell. Received: cells=[]")
        for cell in self.cells:
            _check_cell(cell, "StackedRNNCells")

    @property
    def state_size(self):
        return [cell.state_size for cell in self.cells]

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def build(self, input_shape):
        shape = tuple(input_shape)
        for cell in self.cells:
            if not cell.built:
                cell.build(shape)
                cell.built = True
            shape = (shape[0], _output_size(cell))
        self.built = True

    def call(self, inputs, states, training=None):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            if not isinstance(cell_states, (list, tuple)):
                cell_states = [cell_states]  # each cell gets a list, as from `RNN`
            inputs, cell_states = cell(inputs, list(cell_states), training=training)
            new_states.append(cell_states)
        return inputs, new_states

    def get_config(self):
        config = super().get_config()
        config["cells"] = [serialize(cell) for cell in self.cells]
        return config


def _check_cell(cell, owner):
    if not isinstance(cell, Layer) or not hasattr(cell, "state_size"):
        raise ValueError(
            f"{owner}: a cell must be a layer with a `state_size` attribute and "
            "`call(inputs, states)` returning `(output, new_states)`. "
            f"Received: cell={cell!r}")


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    if size is None:
        size = _flat_shapes(_state_shapes(cell.state_size))[0][-1]
    return int(size)


class RNN(FusedRNN):
    """Keras's `RNN`: runs `cell` over the time axis of `(batch, timesteps, features)`.

    Args:
        cell: a cell (see the module docstring), or a list of cells, which
            are stacked with `StackedRNNCells`.
        return_sequences, return_state, go_backwards, stateful, unroll,
        zero_output_for_mask: as for `LSTM` (see `FusedRNN`).
    """

    _nested_layer_keys = ("cell",)

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        _check_cell(cell, "RNN")
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         zero_output_for_mask=zero_output_for_mask, **kwargs)

    @property
    def _fused(self):
        """Whether the cell is a built-in one, run as its fused sequence op."""
        return isinstance(self.cell, FusedCell)

    def call(self, sequences, initial_state=None, mask=None, training=None):
        if self._fused:
            return super().call(sequences, initial_state=initial_state, mask=mask,
                                training=training)
        shapes = _state_shapes(self.cell.state_size)
        if _is_shape(shapes):  # as in Keras, a cell always receives a list of states
            shapes = [shapes]
        symbolic = isinstance(sequences, SymbolicTensor)
        states = self._generic_initial_states(sequences, initial_state, shapes, symbolic)
        if symbolic:
            # One step gives the shapes. The results are fresh symbolic tensors, not the
            # step's own: a trace of this call (ONNX export) must not mistake one step
            # for the whole recurrence.
            output, states = self.cell(sequences[:, 0], _pack(shapes, states),
                                       training=training)
            steps = (sequences.shape[1],) if self.return_sequences else ()
            output = SymbolicTensor((output.shape[0],) + steps + tuple(output.shape[1:]),
                                    output.dtype)
            final = [SymbolicTensor(s.shape, s.dtype) for s in tree.flatten(states)]
        else:
            output, final = self._loop(sequences, states, shapes,
                                       self._step_mask(mask, sequences, symbolic), training)
            if self.stateful:
                for variable, value in zip(self.states, final):
                    variable.assign(np.asarray(value.value if isinstance(value, Tensor)
                                               else value))
        return (output, *final) if self.return_state else output

    def _generic_initial_states(self, sequences, initial_state, shapes, symbolic):
        """The flat list of initial states for a cell that is not fused."""
        leaves = _flat_shapes(shapes)
        batch = sequences.shape[0]
        if initial_state is not None:
            states = tree.flatten(initial_state)
            if len(states) != len(leaves):
                raise ValueError(
                    f"Layer '{self.name}' (RNN) expects {len(leaves)} initial state(s) for "
                    f"its cell. Received: {len(states)} initial state(s)")
            return states
        if symbolic:
            return [SymbolicTensor((batch,) + s, sequences.dtype) for s in leaves]
        if self.stateful:
            if self.states is None:
                self.states = [Variable(np.zeros((batch,) + s, self.dtype), name="rnn_state",
                                        trainable=False) for s in leaves]
            return list(self.states)
        get_initial_state = getattr(self.cell, "get_initial_state", None)
        if get_initial_state is not None:
            return tree.flatten(get_initial_state(batch))
        return [np.zeros((batch,) + s, self.compute_dtype) for s in leaves]

    def _loop(self, sequences, states, shapes, mask, training):
        """Steps the cell through time; returns `(output, flat final states)`."""
        # One split (whose gradient is one concatenation) rather than an indexing op
        # per step, each of whose gradients would be a full-size array.
        timesteps = sequences.shape[1]
        inputs = ops.split(sequences, timesteps, axis=1) if timesteps > 1 else [sequences]
        steps = range(timesteps)
        if self.go_backwards:
            steps = reversed(steps)
        outputs, previous = [], None
        for t in steps:
            output, new_states = self.cell(ops.squeeze(inputs[t], axis=1),
                                           _pack(shapes, states), training=training)
            new_states = tree.flatten(new_states)
            if mask is not None:
                # (batch, 1, ...) so it broadcasts over outputs of any rank (ConvLSTM's maps)
                keep = np.reshape(mask[:, t], (-1,) + (1,) * (len(output.shape) - 1))
                held = (ops.zeros_like(output) if previous is None or self.zero_output_for_mask
                        else previous)
                output = ops.where(keep, output, held)
                new_states = [ops.where(np.reshape(keep, (-1,) + (1,) * (len(s.shape) - 1)),
                                        s, old) for s, old in zip(new_states, states)]
            outputs.append(output)
            previous, states = output, new_states
        if not self.return_sequences:
            return outputs[-1], states
        return ops.stack(outputs, axis=1), states

    def _state_count(self):
        if self._fused:
            return super()._state_count()
        return len(_flat_shapes(_state_shapes(self.cell.state_size)))

    def get_config(self):
        # Keras's RNN config holds the cell whole, not its entries merged in.
        config = Layer.get_config(self)
        config.update(self._sequence_config())
        config["cell"] = serialize(self.cell)
        return config


__all__ = ["RNN", "StackedRNNCells"]
