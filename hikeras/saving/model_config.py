"""Model architecture as JSON: `to_json`, `model_from_json`, and Keras 3 configs.

We write Keras 2's dialect (it is the one Keras 2 and Keras 3 both read).
Reading accepts Keras 3's as well: `deserialize_keras_object` passes every
config through `config_dialect.normalize_config`.

Deserialising never runs code from the file: every `class_name` is looked up
in `custom_objects`, the registry or the built-in tables, and an unknown
name is an error that says how to register it.
"""

import json

from ..layers.layer_table import deserialize, serialize
from ..serialization.config_errors import ConfigError
from ..serialization.limits import ResourceLimitError, check_layer_count, weight_budget
from ..trainers.trainer import Trainer
from ..version import __version__
from .file_errors import SavedFileError, file_error
from .h5_attributes import parse_json

_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError,
           MemoryError, OverflowError)


# Keras 3 finds built-in classes through a `module` key (tf.keras writes it too).
_MODEL_MODULES = {"Sequential": "keras", "Functional": "keras.src.models.functional"}
# Layers Keras keeps outside `keras.layers`: FeatureSpace's own two.
_LAYER_MODULES = {"TFDIdentity": "keras.src.layers.preprocessing.feature_space",
                  "TFDConcat": "keras.src.layers.preprocessing.feature_space"}
_ARGUMENT_MODULES = {"_initializer": "keras.initializers", "_regularizer": "keras.regularizers",
                     "_constraint": "keras.constraints"}


def with_module_hints(entry, module):
    """Adds Keras's `module`/`registered_name` keys to a serialised built-in object.

    >>> with_module_hints({"class_name": "Adam", "config": {}}, "keras.optimizers")
    {'module': 'keras.optimizers', 'class_name': 'Adam', 'config': {}, 'registered_name': None}
    """
    if not (isinstance(entry, dict) and isinstance(entry.get("class_name"), str)):
        return entry
    if ">" in entry["class_name"]:  # a registered custom object: Keras needs it registered
        return entry
    entry = {"module": module, **entry, "registered_name": None}
    config = entry.get("config")
    if not isinstance(config, dict):
        return entry
    config = dict(config)
    for key, value in config.items():
        suffix = next((s for s in _ARGUMENT_MODULES if key.endswith(s)), None)
        if suffix is not None:
            config[key] = with_module_hints(value, _ARGUMENT_MODULES[suffix])
    for key in ("layers", "cells"):  # a model's layers, StackedRNNCells's cells
        if isinstance(config.get(key), list):
            config[key] = [_layer_hints(layer) for layer in config[key]]
    for key in _NESTED_LAYER_KEYS:
        if isinstance(config.get(key), dict):
            config[key] = _layer_hints(config[key])
    entry["config"] = config
    return entry


# Config keys that hold one nested layer: wrappers (TimeDistributed, Bidirectional,
# SpectralNormalization) and RNN(cell). Keras cannot rebuild them without their module.
_NESTED_LAYER_KEYS = ("layer", "backward_layer", "cell")


def _layer_hints(layer):
    if not isinstance(layer, dict):
        return layer
    name = layer.get("class_name")
    return with_module_hints(layer, _MODEL_MODULES.get(name) or _LAYER_MODULES.get(name,
                                                                                  "keras.layers"))


def model_to_config(model):
    """`{"class_name", "config"}` of a model (Keras 2 dialect, with Keras's module hints)."""
    config = serialize(model)
    return with_module_hints(config, _MODEL_MODULES.get(config["class_name"], "keras"))


def deserialize_model(config, custom_objects=None, source="<config>", stored_bytes=None):
    """Builds a model from a `{"class_name", "config"}` dict of either dialect.

    `stored_bytes`, the size of the weights the file stores (None for a bare
    config), bounds what the rebuilt layers may allocate (see `limits`).
    """
    if not isinstance(config, dict) or not isinstance(config.get("class_name"), str):
        raise file_error(source, "has a model config without a 'class_name' string")
    if not isinstance(config.get("config"), dict):
        raise file_error(source, "has a model config whose 'config' is not an object")
    try:
        check_layer_count(config, "its model config")
        with weight_budget(stored_bytes):
            model = deserialize(config, custom_objects=custom_objects)
    except SavedFileError:
        raise
    except (ConfigError, ResourceLimitError) as e:
        raise file_error(source, f"has a model config that cannot be rebuilt: {e}"[:-1]) from e
    except _ERRORS as e:
        raise file_error(source, f"has a model config that cannot be rebuilt: "
                                 f"{type(e).__name__}: {e}") from None
    # `Trainer` is what makes a layer a model (`Model` = layer + trainer + saving methods).
    # It is checked rather than `Model`: `Model`'s saving methods import the formats, this
    # module among them, and importing `models` here would pull every format into the
    # cycle of that tie.
    if not isinstance(model, Trainer):
        raise file_error(source, f"has a config for a {type(model).__name__}, not a model")
    return model


def model_to_json(model, **kwargs):
    """The model's architecture as a JSON string (`json.dumps` kwargs pass through)."""
    config = model_to_config(model)
    config["keras_version"] = "2.15.0"
    config["backend"] = "tensorflow"
    config["hikeras_version"] = __version__
    return json.dumps(config, default=_json_default, **kwargs)


def model_from_json(json_string, custom_objects=None):
    """A model (with fresh weights) from `to_json()` output, Keras 2's or Keras 3's.

    >>> import hikeras
    >>> model = hikeras.Sequential([hikeras.Input((3,)), hikeras.layers.Dense(2)])
    >>> clone = model_from_json(model.to_json())
    >>> clone.output_shape
    (None, 2)
    """
    if isinstance(json_string, bytes):
        try:
            json_string = json_string.decode("utf-8")
        except UnicodeDecodeError:
            raise file_error("<json string>", "is not valid UTF-8") from None
    if not isinstance(json_string, str):
        raise TypeError(f"model_from_json expects a JSON string. "
                        f"Received: {type(json_string).__name__}")
    config = parse_json(json_string, "<json string>", "a model config")
    return deserialize_model(config, custom_objects, "<json string>")


def _json_default(obj):
    """numpy scalars/arrays and tuples in configs, as plain JSON values."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if hasattr(obj, "item"):
        return obj.item()
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable: {obj!r}")
