"""Bidirectional: runs a recurrent layer forwards and backwards and merges the two."""

from ... import ops
from ...backend import SymbolicTensor
from ...utils import tree
from ..layer import Layer
from ..layer_table import deserialize, serialize

__all__ = ["Bidirectional"]


_MERGE_MODES = ("concat", "sum", "mul", "ave", None)


def _clone(layer, name, **changes):
    """A fresh layer from `layer`'s config (no shared weights or state)."""
    config = serialize(layer)
    config["config"].update(changes, name=name)
    return deserialize(config)


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and a copy backwards, and merges the outputs.

    Args:
        layer: the recurrent layer (e.g. `LSTM(8)`); Bidirectional uses a
            fresh copy of it as `forward_layer`.
        merge_mode: `"concat"` (default), `"sum"`, `"mul"`, `"ave"`, or None
            to return both outputs as a list.
        weights: optional initial weights, forward layer's then backward's.
        backward_layer: the layer processing the reversed sequence; by
            default a copy of `layer` with `go_backwards` flipped.

    With `return_sequences`, the backward output is reversed back into time
    order before merging, and masked steps output zeros in both directions.
    `initial_state` takes the forward layer's states, then the backward's.
    Weights are ordered forward layer first, then backward layer (Keras's
    order).

    >>> import numpy as np
    >>> from hikeras.layers import LSTM
    >>> Bidirectional(LSTM(4, return_sequences=True))(np.ones((2, 5, 3), "float32")).shape
    (2, 5, 8)
    """

    _nested_layer_keys = ("layer", "backward_layer")

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise TypeError(f"Bidirectional wraps a layer instance. Received: layer={layer!r}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise TypeError("`backward_layer` must be a layer instance. "
                             f"Received: backward_layer={backward_layer!r}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Bidirectional: merge_mode must be one of {list(_MERGE_MODES)}. "
                             f"Received: merge_mode={merge_mode!r}")
        super().__init__(**kwargs)
        base = layer.name.removeprefix("forward_")
        self.forward_layer = _clone(layer, "forward_" + base)
        if backward_layer is None:
            self.backward_layer = _clone(layer, "backward_" + base.removeprefix("backward_"),
                                         go_backwards=not layer.go_backwards)
        else:
            self.backward_layer = backward_layer
        self._check_pair()
        for direction in (self.forward_layer, self.backward_layer):
            if hasattr(direction, "zero_output_for_mask"):
                direction.zero_output_for_mask = direction.return_sequences
        self.merge_mode = merge_mode
        self._initial_weights = weights
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self.input_spec = layer.input_spec

    def _check_pair(self):
        fwd, bwd = self.forward_layer, self.backward_layer
        if fwd.go_backwards == bwd.go_backwards:
            raise ValueError(
                "Bidirectional: the forward and backward layers must have different "
                f"`go_backwards`. Received: forward go_backwards={fwd.go_backwards}, "
                f"backward go_backwards={bwd.go_backwards}")
        for attr in ("stateful", "return_sequences", "return_state"):
            if getattr(fwd, attr) != getattr(bwd, attr):
                raise ValueError(
                    f"Bidirectional: the forward and backward layers must agree on `{attr}`. "
                    f"Received: forward {attr}={getattr(fwd, attr)}, "
                    f"backward {attr}={getattr(bwd, attr)}")

    def build(self, input_shape):
        for direction in (self.forward_layer, self.backward_layer):
            if not direction.built:
                direction._maybe_build(SymbolicTensor(input_shape, self.dtype))
        if self._initial_weights is not None:
            half = len(self._initial_weights) // 2
            self.forward_layer.set_weights(self._initial_weights[:half])
            self.backward_layer.set_weights(self._initial_weights[half:])
            self._initial_weights = None
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=None):
        kwargs = {"training": training, "mask": mask}
        forward_state = backward_state = None
        if initial_state is not None:
            states = tree.flatten(initial_state)
            half = len(states) // 2
            forward_state, backward_state = states[:half], states[half:]
        y = self.forward_layer(sequences, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(sequences, initial_state=backward_state, **kwargs)
        states = ()
        if self.return_state:
            states = tuple(y[1:]) + tuple(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = y_rev[:, ::-1]
        if self.merge_mode == "concat":
            output = ops.concatenate([y, y_rev], axis=-1)
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if not self.return_state:
            return output
        return (*output, *states) if self.merge_mode is None else (output, *states)

    @property
    def states(self):
        if self.forward_layer.states and self.backward_layer.states:
            return tuple(self.forward_layer.states + self.backward_layer.states)
        return None

    def reset_states(self, states=None):
        """Resets the states of both directions (stateful layers only)."""
        if not self.stateful:
            raise AttributeError(f"Layer '{self.name}' is not stateful; it keeps no states.")
        self.forward_layer.reset_states()
        self.backward_layer.reset_states()

    reset_state = reset_states

    def compute_mask(self, inputs, mask=None):
        mask = tree.flatten(mask)[0] if mask is not None else None
        if self.return_sequences:
            output_mask = [mask, mask] if self.merge_mode is None else mask
        else:
            output_mask = [None, None] if self.merge_mode is None else None
        if not self.return_state:
            return output_mask
        num_states = 2 * self.forward_layer.cell.num_states
        if self.merge_mode is None:
            return output_mask + [None] * num_states
        return [output_mask] + [None] * num_states

    def get_config(self):
        config = super().get_config()
        config.update({"merge_mode": self.merge_mode,
                       "layer": serialize(self.forward_layer),
                       "backward_layer": serialize(self.backward_layer)})
        return config
