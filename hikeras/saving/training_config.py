"""The `training_config` of saved models: what `compile()` was given, as JSON.

Keras's schema: `loss`, `metrics`, `weighted_metrics`, `loss_weights` as
serialised identifiers (a name, or a `{"class_name", "config"}` dict; lists
and dicts of them per output) plus `optimizer_config`. Keras 2 may write the
optimizer's class as `"Custom>Adam"`; built-in names are accepted that way too.
Keras 3's `.keras` archives hold the same under `compile_config`, with the
optimizer under `optimizer` and a `module` hint on every built-in class.
"""

import inspect

from .. import losses, metrics, optimizers
from ..serialization import get_registered_object, normalize_config
from .file_errors import SavedFileError, file_error
from .model_config import with_module_hints

# Optimizer arguments only newer Keras knows, at their "unused" values: left out of
# `training_config` so tf.keras (which rejects them) and Keras 3 both read it.
_UNSET_OPTIMIZER_ARGUMENTS = {
    "weight_decay": None, "use_ema": False, "ema_momentum": 0.99,
    "ema_overwrite_frequency": None, "loss_scale_factor": None,
    "gradient_accumulation_steps": None,
}
_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError)


def _serialize_nested(value, serialize):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict):
        return {k: _serialize_nested(v, serialize) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_serialize_nested(v, serialize) for v in value]
    return serialize(value)


def _known_arguments_only(config, table):
    """A built-in class's config without the keys other Keras versions add (`fn`, ...)."""
    cls = table.get(config.get("class_name"))
    inner = config.get("config")
    if not (isinstance(cls, type) and isinstance(inner, dict)):
        return config
    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return config
    return {**config, "config": {k: v for k, v in inner.items() if k in params}}


# Names `compile()` itself interprets from the data's shapes: they stay names.
_SHAPE_DEPENDENT_NAMES = ("accuracy", "acc", "crossentropy", "ce")


def _deserialize_name(name, deserialize, custom_objects):
    """A custom object for a custom name; a built-in name stays the string `compile()` got.

    `compile()` resolves strings itself: `"accuracy"` becomes binary, sparse or
    categorical accuracy from the first batch's shapes, which the exact-match
    `accuracy` function a lookup would give cannot do.
    """
    if get_registered_object(name, custom_objects) is not None:
        return deserialize(name, custom_objects)
    if name.lower() not in _SHAPE_DEPENDENT_NAMES:
        deserialize(name, custom_objects)  # an unknown name fails here, at load time
    return name


def deserialize_nested(value, deserialize, custom_objects, table=None):
    """Identifiers inside lists/dicts (per output) deserialised; a config dict is a leaf."""
    if value is None:
        return None
    if isinstance(value, dict) and "class_name" in value and table is not None:
        value = _known_arguments_only(value, table)
    if isinstance(value, str):
        return _deserialize_name(value, deserialize, custom_objects)
    if isinstance(value, dict) and "class_name" in value:
        return deserialize(value, custom_objects)
    if isinstance(value, dict):
        return {k: deserialize_nested(v, deserialize, custom_objects, table)
                for k, v in value.items()}
    if isinstance(value, list):
        return [deserialize_nested(v, deserialize, custom_objects, table) for v in value]
    raise TypeError(f"expected a name, a config dict, or a list/dict of them; found {value!r}")


def get_compile_config(model):
    """`compile()`'s arguments, serialised (None if the model is not compiled)."""
    if not getattr(model, "compiled", False):
        return None
    args = model._compile_args
    return {
        "optimizer": optimizers.serialize(model.optimizer),
        "loss": _serialize_nested(args["loss"], losses.serialize),
        "metrics": _serialize_nested(args["metrics"], metrics.serialize),
        "loss_weights": args["loss_weights"],
        "weighted_metrics": None,
    }


def training_config(model):
    """Keras's `training_config` attribute (the optimizer under `optimizer_config`)."""
    config = get_compile_config(model)
    if config is None:
        return None
    optimizer = config.pop("optimizer")
    optimizer["config"] = {k: v for k, v in optimizer["config"].items()
                           if k not in _UNSET_OPTIMIZER_ARGUMENTS
                           or v != _UNSET_OPTIMIZER_ARGUMENTS[k]}
    config["optimizer_config"] = optimizer
    config["loss"] = _full_loss_names(config["loss"])
    return config


def _full_loss_names(value):
    """Loss aliases (`"mse"`) as their functions' names: Keras 3 cannot read an alias
    from an `.h5` training config (not even in files it wrote itself)."""
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _full_loss_names(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_full_loss_names(v) for v in value]
    if not isinstance(value, str) or value.lower() in _SHAPE_DEPENDENT_NAMES:
        return value
    fn = losses.ALL_OBJECTS_DICT.get(value)
    return fn.__name__ if callable(fn) and not isinstance(fn, type) else value


def keras3_compile_config(model):
    """`get_compile_config()` as Keras 3's `.keras` loader needs it (None if not compiled)."""
    config = get_compile_config(model)
    if config is None:
        return None
    config["optimizer"] = with_module_hints(config["optimizer"], "keras.optimizers")
    for key, module in (("loss", "keras.losses"), ("metrics", "keras.metrics"),
                        ("weighted_metrics", "keras.metrics")):
        config[key] = _hinted_nested(config[key], module)
    return config


def _hinted_nested(value, module):
    """Per-output lists/dicts of serialised identifiers, each given its module hint."""
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _hinted_nested(v, module) for k, v in value.items()}
    if isinstance(value, list):
        return [_hinted_nested(v, module) for v in value]
    return with_module_hints(value, module)


def _optimizer_config(config):
    if isinstance(config, dict) and isinstance(config.get("class_name"), str):
        package, _, name = config["class_name"].rpartition(">")
        if package == "Custom" and name.lower() in optimizers.ALL_OBJECTS_DICT:
            return {**config, "class_name": name}
    return config


def compile_from_config(model, config, custom_objects=None, source="<config>"):
    """Compiles `model` from `get_compile_config()`/`training_config` output."""
    if not isinstance(config, dict):
        raise file_error(source, "has a training config that is not a JSON object")
    config = normalize_config(config)
    try:
        optimizer_config = config.get("optimizer_config", config.get("optimizer"))
        optimizer = optimizers.deserialize(_optimizer_config(optimizer_config),
                                           custom_objects=custom_objects)
        if optimizer is None:
            raise file_error(source, f"has a training config without an optimizer "
                                     f"(optimizer_config={optimizer_config!r})")
        loss = deserialize_nested(config.get("loss"), losses.deserialize, custom_objects,
                                  losses.ALL_OBJECTS_DICT)
        metric_list = deserialize_nested(config.get("metrics"), metrics.deserialize,
                                         custom_objects, metrics.ALL_OBJECTS_DICT)
        model.compile(optimizer=optimizer, loss=loss, metrics=metric_list,
                      loss_weights=config.get("loss_weights"))
    except SavedFileError:
        raise
    except _ERRORS as e:
        raise file_error(source, f"has a training config that cannot be used: "
                                 f"{type(e).__name__}: {e}") from None
