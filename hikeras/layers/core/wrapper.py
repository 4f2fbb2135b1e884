"""`Wrapper`: the base of layers that take another layer and augment it (Keras's name)."""

from ...backend import SymbolicTensor
from ..layer import Layer
from ..layer_table import serialize


class Wrapper(Layer):
    """Abstract base of a layer that wraps one other layer, stored as `self.layer`.

    It builds the wrapped layer on the wrapper's input shape and serialises
    it under the config key `"layer"`; subclasses add what the wrapper does.

    Args:
        layer: the layer to wrap (a `Layer` instance).
    """

    _nested_layer_keys = ("layer",)

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"{type(self).__name__} wraps a layer instance. "
                             f"Received: layer={layer!r}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer._maybe_build(SymbolicTensor(tuple(input_shape), self.dtype))
        self.built = True

    def get_config(self):
        config = super().get_config()
        config["layer"] = serialize(self.layer)
        return config


__all__ = ["Wrapper"]
