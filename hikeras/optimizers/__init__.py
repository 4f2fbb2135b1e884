"""Optimizers, by Keras's names.

`get` turns what `model.compile(optimizer=...)` was given into an optimizer:
a name (`"adam"`, `"SGD"`), a `{"class_name", "config"}` dict, a class or an
instance.

>>> get("adam").learning_rate
0.001
>>> get({"class_name": "SGD", "config": {"learning_rate": 0.1}}).learning_rate
0.1
"""

from ..saving.serialization import deserialize_keras_object, resolve, serialize_keras_object
from .adam import Adam
from .optimizer import Optimizer
from .sgd import SGD

ALL_OBJECTS_DICT = {"Optimizer": Optimizer, "SGD": SGD, "Adam": Adam, "sgd": SGD,
                    "adam": Adam}


def serialize(optimizer):
    """The optimizer's `{"class_name", "config"}` dict."""
    return serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """Rebuilds an optimizer (without state) from a name or a config dict.

    Names are matched case-insensitively for the built-in optimizers, as Keras does.
    """
    if isinstance(config, dict) and isinstance(config.get("class_name"), str):
        config = {**config, "class_name": _canonical(config["class_name"])}
        cls = deserialize_keras_object(config["class_name"], ALL_OBJECTS_DICT,
                                       custom_objects, "optimizer")
        return cls.from_config(dict(config.get("config") or {}), custom_objects=custom_objects)
    if isinstance(config, str):
        config = _canonical(config)
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, custom_objects, "optimizer")


def _canonical(name):
    lowered = name.lower()
    return lowered if lowered in ALL_OBJECTS_DICT else name


def get(identifier):
    """An optimizer from a name, a config dict, a class or an instance.

    Classes and names are instantiated with their defaults. An unknown name
    raises `ValueError` listing the valid choices.
    """
    if isinstance(identifier, (str, dict)):
        identifier = deserialize(identifier)
    if identifier is None or not (isinstance(identifier, (Optimizer, type))
                                  or hasattr(identifier, "apply_gradients")):
        raise ValueError(f"Could not interpret optimizer identifier. "
                         f"Received: optimizer={identifier!r}")
    return resolve(identifier, ALL_OBJECTS_DICT, "optimizer")


__all__ = ["Adam", "Optimizer", "SGD", "deserialize", "get", "serialize"]
