"""Optimizers, by Keras's names.

`get` turns what `model.compile(optimizer=...)` was given into an optimizer:
a name (`"adam"`, `"SGD"`), a `{"class_name", "config"}` dict, a class or an
instance.

>>> get("adam").learning_rate
0.001
>>> get({"class_name": "SGD", "config": {"learning_rate": 0.1}}).learning_rate
0.1
"""

from ..serialization import deserialize_keras_object, resolve, serialize_keras_object
from . import schedules
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .ftrl import Ftrl
from .lamb import Lamb
from .lion import Lion
from .loss_scale_optimizer import LossScaleOptimizer
from .multi_optimizer import MultiOptimizer, OptimizerMap
from .muon import Muon
from .nadam import Nadam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .schedule_free_adamw import ScheduleFreeAdamW
from .sgd import SGD

# Keras matches built-in optimizer names case-insensitively ("Adam", "adam", "ADAM").
ALL_OBJECTS_DICT = {cls.__name__.lower(): cls for cls in (
    SGD, Adam, AdamW, Adamax, Nadam, RMSprop, Adagrad, Adadelta, Ftrl, Lion, Lamb,
    Adafactor, ScheduleFreeAdamW, Muon)}
ALL_OBJECTS_DICT["LossScaleOptimizer"] = LossScaleOptimizer
ALL_OBJECTS_DICT["MultiOptimizer"] = MultiOptimizer


def _canonical(identifier):
    """`identifier` with a built-in class name lowered, so lookups ignore case."""
    if isinstance(identifier, str) and identifier.lower() in ALL_OBJECTS_DICT:
        return identifier.lower()
    if isinstance(identifier, dict) and isinstance(identifier.get("class_name"), str):
        return {**identifier, "class_name": _canonical(identifier["class_name"])}
    return identifier


def serialize(optimizer):
    """The optimizer's `{"class_name", "config"}` dict."""
    return serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """Rebuilds an optimizer (without its state) from a name or a config dict."""
    return deserialize_keras_object(_canonical(config), ALL_OBJECTS_DICT, custom_objects,
                                    "optimizer")


LossScaleOptimizer.deserialize_inner = staticmethod(deserialize)


def get(identifier):
    """An optimizer from a name, a config dict, a class or an instance.

    Classes and names are instantiated with their defaults; None gives None.
    An unknown name raises `ValueError` listing the valid choices.
    """
    optimizer = resolve(_canonical(identifier), ALL_OBJECTS_DICT, "optimizer")
    if optimizer is not None and not isinstance(optimizer, Optimizer):
        raise ValueError(f"Could not interpret optimizer identifier; expected a name, a "
                         f"config dict or an Optimizer. Received: optimizer={identifier!r}")
    return optimizer


__all__ = [
    "SGD",
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "Ftrl",
    "Lamb",
    "Lion",
    "LossScaleOptimizer",
    "MultiOptimizer",
    "Muon",
    "Nadam",
    "Optimizer",
    "OptimizerMap",
    "RMSprop",
    "ScheduleFreeAdamW",
    "deserialize",
    "get",
    "schedules",
    "serialize",
]
