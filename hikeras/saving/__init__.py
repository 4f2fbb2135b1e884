"""Saving and loading: Keras-compatible files, the object registry, configs.

`save_model`/`load_model` (whole models: Keras 3's `.keras` zip or Keras's HDF5 layout),
`save_weights`/`load_weights` (Keras 2 and Keras 3 weights layouts, sharded
checkpoints), `model_from_json`, and the name -> class registry behind
`custom_objects`. See docs/saving.md.
"""

from .object_registration import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from .serialization import deserialize_keras_object, serialize_keras_object

# The file formats import layers, models and optimizers, which import this
# package for the registry: they are loaded on first use (PEP 562).
_LAZY = {
    "load_model": "saving_api", "save_model": "saving_api", "load_weights": "saving_api",
    "save_weights": "saving_api", "model_from_json": "model_config",
    "LoadReport": "weight_matching", "SavedFileError": "file_errors",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CustomObjectScope", "LoadReport", "SavedFileError", "custom_object_scope",
    "deserialize_keras_object", "get_custom_objects", "get_registered_name",
    "get_registered_object", "load_model", "load_weights", "model_from_json",
    "register_keras_serializable", "save_model", "save_weights", "serialize_keras_object",
]
