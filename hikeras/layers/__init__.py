"""Layers, and the name table used to rebuild them from configs.

Each family module lists its public layers (and functional forms such as
`add`, `concatenate`) in `__all__`; everything listed is exported here, and
every `Layer` subclass among them is registered for deserialisation.
"""

import importlib

from ..saving.serialization import deserialize_keras_object, serialize_keras_object
from .input_layer import Input, InputLayer
from .input_spec import InputSpec
from .layer import Layer

_FAMILIES = (
    "core", "regularization", "reshaping", "op_layer", "convolutional", "pooling",
    "normalization", "wrapper", "spectral_normalization", "recurrent", "conv_lstm",
    "embedding", "masking", "merging", "advanced_activations", "attention", "preprocessing",
    "preprocessing_image", "preprocessing_geometric", "preprocessing_color",
    "preprocessing_categorical", "preprocessing_text",
)

__all__ = ["Input", "InputLayer", "InputSpec", "Layer", "deserialize", "serialize"]
_LAYERS = {"InputLayer": InputLayer}
for _family in _FAMILIES:
    _module = importlib.import_module(f"{__name__}.{_family}")
    for _name in _module.__all__:
        _obj = getattr(_module, _name)
        globals()[_name] = _obj
        __all__.append(_name)
        if isinstance(_obj, type) and issubclass(_obj, Layer):
            _LAYERS[_name] = _obj


def serialize(layer):
    """`{"class_name", "config"}` for a layer."""
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """Rebuilds a layer (or model) from `serialize()` output."""
    from .. import models  # models are layers too; imported late (they import layers)

    table = dict(_LAYERS, **models.MODEL_CLASSES)
    return deserialize_keras_object(config, table, custom_objects, "layer")
