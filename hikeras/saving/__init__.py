"""Saving and loading: Keras-compatible files, and Keras's `keras.saving` names.

`save_model`/`load_model` (whole models: Keras 3's `.keras` zip or Keras's HDF5 layout),
`KerasFileEditor` (inspect and edit the weights of a saved file),
`save_weights`/`load_weights` (Keras 2 and Keras 3 weights layouts, sharded
checkpoints) and `model_from_json`. The file formats sit above `hikeras.models`.

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
from .file_errors import SavedFileError
from .model_config import model_from_json
from .weight_matching import LoadReport

# The entry points that read and write files import h5py: they load on first use
# (PEP 562), so `import hikeras` does not pay for h5py.
_USES_H5PY = ("load_model", "load_weights", "save_model", "save_weights")


def __getattr__(name):
    if name in _USES_H5PY:
        from . import saving_api

        return getattr(saving_api, name)
    if name == "KerasFileEditor":
        from .file_editor import KerasFileEditor

        return KerasFileEditor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CustomObjectScope", "KerasFileEditor", "LoadReport", "SavedFileError", "custom_object_scope",
    "deserialize_keras_object", "get_custom_objects", "get_registered_name",
    "get_registered_object", "load_model", "load_weights", "model_from_json",
    "register_keras_serializable", "save_model", "save_weights", "serialize_keras_object",
]
