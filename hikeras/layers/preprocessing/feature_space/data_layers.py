"""The two small layers a `FeatureSpace` adds to its graph, under Keras's class names.

Keras's functional models built from a feature space contain a
`TFDIdentity` (the preprocessor of a plain `float` feature) and a
`TFDConcat` (joining the encoded features); the names are kept so that such
a model's config reads the same in both frameworks.
"""

from .... import ops
from ...layer import Layer
from ...layer_table import register_layer_classes

__all__ = []  # internal to FeatureSpace; registered below for deserialisation


class TFDIdentity(Layer):
    """Returns its input (cast to the layer's float dtype)."""

    def call(self, inputs):
        return inputs


class TFDConcat(Layer):
    """Concatenates a list of tensors along `axis`."""

    def __init__(self, axis, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return ops.concatenate(list(inputs), axis=self.axis)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


register_layer_classes({"TFDIdentity": TFDIdentity, "TFDConcat": TFDConcat})
