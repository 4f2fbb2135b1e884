"""`save()` checks up front that everything in the model can be rebuilt from its config.

A file that cannot be loaded is worse than no file: Keras only finds out at
load time (often on another machine). Before writing, every layer's config
must be JSON-able and must rebuild an object of the same class through the
registry, and the compiled loss, metrics and optimizer must round-trip too.
"""

import json

from .. import losses, metrics, optimizers
from ..layers.layer_table import deserialize
from ..models.functional import Functional
from ..models.sequential import Sequential
from ..serialization import get_registered_name
from .layer_stores import sublayers
from .training_config import deserialize_nested, get_compile_config

_HOW_TO_FIX = ("Give the class a `get_config()` returning its constructor arguments and "
               "register it with `@hikeras.saving.register_keras_serializable()` (or pass it in "
               "`custom_objects` when loading)")


def _fail(model, what, error):
    raise ValueError(f"Cannot save model '{model.name}': {what} cannot be rebuilt from its "
                     f"config ({type(error).__name__}: {error}). {_HOW_TO_FIX}. "
                     f"Received: {what}") from error


def _check_layer(model, layer):
    what = f"layer '{layer.name}' ({type(layer).__name__})"
    try:
        config = layer.get_config()
        json.dumps(config, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o))
        if isinstance(layer, (Functional, Sequential)):
            return  # their sublayers are checked one by one; rebuilding would copy weights
        rebuilt = deserialize({"class_name": get_registered_name(type(layer)),
                               "config": config})
    except Exception as e:  # noqa: BLE001 (any failure here must be reported now)
        _fail(model, what, e)
    if type(rebuilt) is not type(layer):
        _fail(model, what, TypeError(f"its name resolves to {type(rebuilt).__name__}"))


def check_rebuildable(model):
    """Raises `ValueError` naming the first object of `model` that would not load."""
    for layer in [model, *sublayers(model)]:
        _check_layer(model, layer)
    config = get_compile_config(model)
    if config is None:
        return
    try:
        optimizers.deserialize(config["optimizer"])
    except Exception as e:  # noqa: BLE001 (reported with its type and message)
        _fail(model, f"optimizer '{model.optimizer.name}'", e)
    for key, module in (("loss", losses), ("metrics", metrics)):
        try:
            deserialize_nested(config[key], module.deserialize, None)
        except Exception as e:  # noqa: BLE001 (reported with its type and message)
            _fail(model, f"the compiled {key}", e)

