"""Learning-rate schedules, by Keras's names (`optimizers.schedules`).

>>> from hikeras import optimizers
>>> schedule = ExponentialDecay(0.1, decay_steps=100, decay_rate=0.9)
>>> optimizers.SGD(learning_rate=schedule).learning_rate
0.10000000149011612
>>> deserialize(serialize(schedule)).get_config() == schedule.get_config()
True
"""

from ...serialization import deserialize_keras_object, serialize_keras_object
from .learning_rate_schedule import (
    CosineDecay,
    CosineDecayRestarts,
    ExponentialDecay,
    InverseTimeDecay,
    LearningRateSchedule,
    PiecewiseConstantDecay,
    PolynomialDecay,
)

ALL_OBJECTS_DICT = {cls.__name__: cls for cls in (
    LearningRateSchedule, ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay,
    InverseTimeDecay, CosineDecay, CosineDecayRestarts)}


def serialize(learning_rate_schedule):
    """The schedule's `{"class_name", "config"}` dict."""
    return serialize_keras_object(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    """Rebuilds a schedule from `serialize`'s output (custom ones via `custom_objects`)."""
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, custom_objects,
                                    "learning rate schedule")


__all__ = [
    "CosineDecay", "CosineDecayRestarts", "ExponentialDecay", "InverseTimeDecay",
    "LearningRateSchedule", "PiecewiseConstantDecay", "PolynomialDecay", "deserialize",
    "serialize",
]
