"""Weight regularisers: penalties added to the training loss.

>>> import numpy as np
>>> float(L2(0.5)(np.array([1.0, 2.0])))
2.5
"""

from . import ops
from .saving.serialization import resolve, serialize_keras_object


class Regularizer:
    """Base class: `__call__(x)` returns a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """`l1 * sum(|x|) + l2 * sum(x**2)`."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = float(l1)
        self.l2 = float(l2)

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty = penalty + self.l1 * ops.sum(ops.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * ops.sum(ops.square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """`l1 * sum(|x|)` (Keras default factor 0.01)."""

    def __init__(self, l1=0.01):
        super().__init__(l1=l1)

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    """`l2 * sum(x**2)` (Keras default factor 0.01)."""

    def __init__(self, l2=0.01):
        super().__init__(l2=l2)

    def get_config(self):
        return {"l2": self.l2}


def l1_l2(l1=0.01, l2=0.01):
    """An `L1L2` regulariser with Keras's default factors."""
    return L1L2(l1=l1, l2=l2)


l1 = L1
l2 = L2

_BUILTINS = {"L1L2": L1L2, "L1": L1, "L2": L2, "l1": L1, "l2": L2, "l1_l2": l1_l2}


def get(identifier):
    """Resolves a regulariser from a name, config dict or callable."""
    return resolve(identifier, _BUILTINS, "regularizer")


def serialize(regularizer):
    return serialize_keras_object(regularizer)
