"""Pipeline: preprocessing layers applied in order, as one layer."""

from ..layer import Layer
from ..layer_table import serialize

__all__ = ["Pipeline"]


class Pipeline(Layer):
    """Applies `layers` one after the other.

    Unlike a `Sequential` model, a pipeline is a plain layer: it passes dicts
    (`{"images": ..., "labels": ...}`) through, and `training` reaches every
    augmentation layer in it.

    Args:
        layers: the layers, in the order they apply.
        name: the layer's name.

    >>> import numpy as np
    >>> from hikeras import layers
    >>> pipeline = Pipeline([layers.Rescaling(2.0), layers.Rescaling(0.5, offset=1.0)])
    >>> pipeline(np.array([[1.0, 3.0]])).tolist()
    [[2.0, 4.0]]
    """

    _nested_layer_keys = ("layers",)

    def __init__(self, layers, name=None, **kwargs):
        layers = list(layers) if isinstance(layers, (list, tuple)) else layers
        if not isinstance(layers, list) or not all(isinstance(l, Layer) for l in layers):
            raise ValueError("Pipeline expects a list of layers. "
                             f"Received: layers={layers!r}")
        super().__init__(name=name, **kwargs)
        self._pipeline = layers
        for layer in layers:  # tracked as sublayers: their weights are the pipeline's
            if not any(layer is known for known in self._layers):
                self._layers.append(layer)

    @property
    def layers(self):
        """The layers, in the order they apply."""
        return list(self._pipeline)

    def call(self, inputs, training=True):
        for layer in self._pipeline:
            inputs = layer(inputs, training=training)
        return inputs

    def compute_output_spec(self, inputs, training=None):
        # Each layer's own rule, not a trace of `call`: random layers draw
        # per-image values, which a symbolic batch (size None) cannot give.
        for layer in self._pipeline:
            layer._maybe_build(inputs)
            inputs = layer.compute_output_spec(inputs)
        return inputs

    def get_config(self):
        config = super().get_config()
        config["layers"] = [serialize(layer) for layer in self._pipeline]
        return config
