"""Weight constraints: projections applied to a variable after each update.

>>> import numpy as np
>>> NonNeg()(np.array([-1.0, 2.0])).tolist()
[0.0, 2.0]
"""

import numpy as np

from .serialization import deserialize_keras_object, resolve, serialize_keras_object


class Constraint:
    """Base class: `__call__(w)` returns the projected array."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class NonNeg(Constraint):
    """Clamps weights to be non-negative."""

    def __call__(self, w):
        return np.maximum(w, 0)


class MaxNorm(Constraint):
    """Rescales slices whose L2 norm along `axis` exceeds `max_value`."""

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        norms = np.sqrt(np.sum(np.square(w), axis=self.axis, keepdims=True))
        desired = np.clip(norms, 0, self.max_value)
        return w * (desired / (1e-7 + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class UnitNorm(Constraint):
    """Rescales slices along `axis` to unit L2 norm."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (1e-7 + np.sqrt(np.sum(np.square(w), axis=self.axis, keepdims=True)))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Keeps slice norms along `axis` within [min_value, max_value], blended by `rate`."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = np.sqrt(np.sum(np.square(w), axis=self.axis, keepdims=True))
        desired = (self.rate * np.clip(norms, self.min_value, self.max_value)
                   + (1 - self.rate) * norms)
        return w * (desired / (1e-7 + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


# Keras's lowercase names for the same classes.
non_neg = NonNeg
max_norm = MaxNorm
unit_norm = UnitNorm
min_max_norm = MinMaxNorm

_BUILTINS = {
    "NonNeg": NonNeg, "non_neg": NonNeg, "MaxNorm": MaxNorm, "max_norm": MaxNorm,
    "UnitNorm": UnitNorm, "unit_norm": UnitNorm, "MinMaxNorm": MinMaxNorm,
    "min_max_norm": MinMaxNorm,
}


def get(identifier):
    """Resolves a constraint from a name, config dict or callable."""
    return resolve(identifier, _BUILTINS, "constraint")


def serialize(constraint):
    """`{"class_name", "config"}` of a constraint (a name for a plain function)."""
    return serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    """Rebuilds a constraint from `serialize`'s output (Keras 2 or Keras 3 dialect)."""
    return deserialize_keras_object(config, _BUILTINS, custom_objects, "constraint")
