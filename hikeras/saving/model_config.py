"""Model architecture as JSON: `to_json`, `model_from_json`, and Keras 3 configs.

We write Keras 2's dialect (it is the one Keras 2 and Keras 3 both read).
Reading accepts Keras 3's as well: `deserialize_keras_object` passes every
config through `config_dialect.normalize_config`.

Deserialising never runs code from the file: every `class_name` is looked up
in `custom_objects`, the registry or the built-in tables, and an unknown
name is an error that says how to register it.
"""

import json

from ..layers.layer import Layer
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
_MODEL_MODULES = {"Sequential": "keras", "Functional": "keras.src.models.functional",
                  "FeatureSpace": "keras.utils"}   # a FeatureSpace saved on its own
# Layers Keras keeps outside `keras.layers`: FeatureSpace's own two.
_FEATURE_SPACE_MODULE = "keras.src.layers.preprocessing.feature_space"
_LAYER_MODULES = {"TFDIdentity": _FEATURE_SPACE_MODULE, "TFDConcat": _FEATURE_SPACE_MODULE}
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
    if entry["class_name"] == "FeatureSpace":
        _feature_space_hints(config)
    entry["config"] = config
    return entry


def _feature_space_hints(config):
    """A FeatureSpace's `Feature`s and `Cross`es, which Keras registers under those
    names in its feature_space module, and each feature's preprocessor layer."""
    def spec(entry):
        if not (isinstance(entry, dict) and isinstance(entry.get("config"), dict)):
            return entry
        inner = dict(entry["config"])
        if isinstance(inner.get("preprocessor"), dict):
            inner["preprocessor"] = _layer_hints(inner["preprocessor"])
        return {"module": _FEATURE_SPACE_MODULE, **entry, "config": inner,
                "registered_name": entry.get("class_name")}

    if isinstance(config.get("features"), dict):
        config["features"] = {key: spec(value) for key, value in config["features"].items()}
    if isinstance(config.get("crosses"), list):
        config["crosses"] = [spec(value) for value in config["crosses"]]


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


def deserialize_model(config, custom_objects=None, source="<config>", stored_bytes=None,
                      standalone_layers=False):
    """Builds a model from a `{"class_name", "config"}` dict of either dialect.

    `stored_bytes`, the size of the weights the file stores (None for a bare
    config), bounds what the rebuilt layers may allocate (see `limits`). With
    `standalone_layers`, a config for a layer that is not a model is accepted
    too (a `.keras` file may hold one, such as a saved `FeatureSpace`) and
    built from the config's `build_config`, as Keras does.
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
    if isinstance(model, Trainer):
        return model
    if not standalone_layers or not isinstance(model, Layer):
        raise file_error(source, f"has a config for a {type(model).__name__}, not a model")
    try:
        model.build_from_config(config.get("build_config"))
    except _ERRORS as e:
        raise file_error(source, f"has a build config that does not fit its "
                                 f"{type(model).__name__}: {type(e).__name__}: {e}") from None
    return model


def standalone_build_config(layer):
    """`{"build_config": ...}` for a layer saved on its own (not a model), else `{}`."""
    if isinstance(layer, Trainer):
        return {}
    build_config = layer.get_build_config()
    return {} if build_config is None else {"build_config": build_config}


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
