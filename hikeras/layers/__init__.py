"""Layers, and the name table used to rebuild them from configs."""

from ..saving.serialization import deserialize_keras_object, serialize_keras_object
from .core import Activation, Dense
from .input_layer import Input, InputLayer
from .input_spec import InputSpec
from .layer import Layer
from .op_layer import OpLayer
from .regularization import Dropout
from .reshaping import Flatten, Reshape

_LAYERS = {cls.__name__: cls for cls in (
    Activation, Dense, Dropout, Flatten, InputLayer, OpLayer, Reshape,
)}


def serialize(layer):
    """`{"class_name", "config"}` for a layer."""
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """Rebuilds a layer (or model) from `serialize()` output."""
    from .. import models  # models are layers too; imported late (they import layers)

    table = dict(_LAYERS, **models.MODEL_CLASSES)
    return deserialize_keras_object(config, table, custom_objects, "layer")


__all__ = [
    "Activation", "Dense", "Dropout", "Flatten", "Input", "InputLayer", "InputSpec", "Layer",
    "OpLayer", "Reshape", "deserialize", "serialize",
]
