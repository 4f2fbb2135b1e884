"""The built-in layers by name, and `serialize`/`deserialize` over them.

The table is filled from above: `hikeras.layers` adds every layer its family
modules export, and `hikeras.models` adds the model classes (a model is a layer
too, so a wrapper's layer or a saved model rebuilds through the same table).
The modules that rebuild nested layers (`Layer.from_config` for a wrapper's
layer or an RNN's cells, `Sequential`, the file formats) import this module,
never the packages that fill it. `import hikeras` imports both, so the table is
complete before anything is deserialised.
"""

from ..serialization import deserialize_keras_object, serialize_keras_object

# class name -> class, as written in configs ("Dense", "Sequential", "Model", ...)
LAYER_CLASSES = {}


def register_layer_classes(classes):
    """Adds `{name: class}` entries to the table (called by `hikeras.layers`, `hikeras.models` and `hikeras.applications`)."""
    LAYER_CLASSES.update(classes)


def serialize(layer):
    """`{"class_name", "config"}` for a layer."""
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """Rebuilds a layer (or model) from `serialize()` output."""
    return deserialize_keras_object(config, LAYER_CLASSES, custom_objects, "layer")
