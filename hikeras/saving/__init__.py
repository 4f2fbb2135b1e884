"""Saving and loading: Keras-compatible files, and Keras's `keras.saving` names.

`save_model`/`load_model` (whole models: Keras 3's `.keras` zip or Keras's HDF5 layout),
`save_weights`/`load_weights` (Keras 2 and Keras 3 weights layouts, sharded
checkpoints) and `model_from_json`.

The name -> class registry behind `custom_objects` and `serialize_keras_object`/
`deserialize_keras_object` live on the ground floor, `hikeras.serialization`,
which every package imports; they are re-exported here under Keras's names
(`hikeras.saving.register_keras_serializable`, ...). See docs/saving.md.
"""

from ..serialization import (
    CustomObjectScope,
    custom_object_scope,
    deserialize_keras_object,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)

# The file formats import layers, models and optimizers: they are loaded on
# first use (PEP 562).
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
