"""TimeDistributed: applies a layer to every time step."""

from ... import ops
from ...backend import SymbolicTensor
from ...utils import tree
from ..layer import Layer
from ..layer_table import serialize

__all__ = ["TimeDistributed"]


class TimeDistributed(Layer):
    """Applies a layer to every time step: `(batch, time, ...)` in and out.

    The steps are folded into the batch axis, so the wrapped layer runs once
    on `(batch * time, ...)` (with its mask, if it takes one).

    Args:
        layer: the layer to apply (its weights are shared across steps).

    >>> import numpy as np
    >>> from hikeras.layers import Dense
    >>> TimeDistributed(Dense(2))(np.ones((4, 5, 3), "float32")).shape
    (4, 5, 2)
    """

    _nested_layer_keys = ("layer",)

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise TypeError(f"TimeDistributed wraps a layer instance. Received: layer={layer!r}")
        super().__init__(**kwargs)
        self.layer = layer
        self.supports_masking = True

    def _step_shape(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError(
                f"TimeDistributed '{self.name}' needs inputs of rank >= 3 (batch, time, ...). "
                f"Received: input_shape={tuple(input_shape)}")
        return (None,) + tuple(input_shape[2:])

    def build(self, input_shape):
        step_shape = self._step_shape(input_shape)
        if not self.layer.built:
            self.layer._maybe_build(SymbolicTensor(step_shape, self.dtype))
        self.built = True

    def call(self, inputs, training=None, mask=None):
        shape = tuple(inputs.shape)
        self._step_shape(shape)
        kwargs = {"training": training}
        # With a known time length, symbolic inputs (batch None) fold batch and time
        # through the reshape op like arrays do, so the computation can be traced.
        folded = None if shape[1] is None or None in shape[2:] else \
            -1 if shape[0] is None else shape[0] * shape[1]
        if mask is not None and self.layer._call_has_mask:
            if not isinstance(mask, SymbolicTensor) and tuple(mask.shape[:2]) != shape[:2]:
                raise ValueError(
                    f"The mask of TimeDistributed '{self.name}' must start with the inputs' "
                    f"(batch, time) = {shape[:2]}. Received: mask.shape={tuple(mask.shape)}")
            if folded is not None:
                mask = ops.reshape(mask, (folded,) + tuple(mask.shape[2:]))
            kwargs["mask"] = mask
        if isinstance(inputs, SymbolicTensor) and folded is None:
            kwargs.pop("mask", None)
            step = self.layer(SymbolicTensor((None,) + shape[2:], inputs.dtype), **kwargs)
            return tree.map_structure(
                lambda t: SymbolicTensor(shape[:2] + tuple(t.shape[1:]), t.dtype), step)
        outputs = self.layer(ops.reshape(inputs, (folded,) + shape[2:]), **kwargs)
        unfolded = (-1 if shape[0] is None else shape[0], shape[1])
        return tree.map_structure(
            lambda t: ops.reshape(t, unfolded + tuple(t.shape[1:])), outputs)

    def compute_mask(self, inputs, mask=None):
        return mask

    def get_config(self):
        config = super().get_config()
        config["layer"] = serialize(self.layer)
        return config
