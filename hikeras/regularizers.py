"""Weight regularisers: penalties added to the training loss.

A layer given `kernel_regularizer=L2(0.01)` adds `0.01 * sum(kernel**2)` to
`layer.losses` at every step, and the trainer adds `model.losses` to the
compiled loss. Penalties are computed with `hikeras.ops`, so they are
differentiable under a `GradientTape`.

>>> import numpy as np
>>> float(L2(0.5)(np.array([1.0, 2.0])))
2.5
"""

import math

import numpy as np

from . import ops
from .losses.regression import l2_normalize
from .serialization import deserialize_keras_object, resolve, serialize_keras_object


def _validate_factor(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            math.isinf(value) or math.isnan(value) or value < 0:
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative float. "
                         f"Received: {name}={value!r}")
    return float(value)


class Regularizer:
    """Base class: `__call__(x)` returns a scalar penalty; `get_config` describes it.

    >>> class SumOfSquares(Regularizer):
    ...     def __call__(self, x):
    ...         return ops.sum(ops.square(x))
    >>> float(SumOfSquares()(np.array([3.0, 4.0])))
    25.0
    """

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """`l1 * sum(|x|) + l2 * sum(x**2)`.

    >>> round(float(L1L2(l1=0.1, l2=0.01)(np.array([-1.0, 2.0]))), 6)
    0.35
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _validate_factor(l1, "l1")
        self.l2 = _validate_factor(l2, "l2")

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
    """`l1 * sum(|x|)` (Keras default factor 0.01).

    >>> float(L1(0.5)(np.array([-1.0, 2.0])))
    1.5
    """

    def __init__(self, l1=0.01):
        super().__init__(l1=l1)

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    """`l2 * sum(x**2)` (Keras default factor 0.01).

    >>> float(L2(0.5)(np.array([-1.0, 2.0])))
    2.5
    """

    def __init__(self, l2=0.01):
        super().__init__(l2=l2)

    def get_config(self):
        return {"l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """Pushes the rows (or columns) of a 2D weight towards being mutually orthogonal.

    The penalty is `factor * mean(|<u_i, u_j>|)` over all pairs `i < j` of
    L2-normalised rows (`mode="rows"`) or columns (`mode="columns"`): 0 for
    orthogonal vectors, `factor` for parallel ones.

    Args:
        factor: strength of the penalty, a float >= 0. Defaults to `0.01`.
        mode: `"rows"` (default) or `"columns"`.

    >>> float(OrthogonalRegularizer(factor=1.0)(np.eye(3)))
    0.0
    >>> round(float(OrthogonalRegularizer(factor=1.0)(np.ones((2, 3)))), 6)
    1.0
    """

    def __init__(self, factor=0.01, mode="rows"):
        self.factor = _validate_factor(factor, "factor")
        if mode not in ("rows", "columns"):
            raise ValueError('Invalid value for argument `mode`. Expected one of {"rows", '
                             f'"columns"}}. Received: mode={mode!r}')
        self.mode = mode

    def __call__(self, x):
        if len(x.shape) != 2:
            raise ValueError("Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape={tuple(x.shape)}")
        if self.mode == "rows":
            vectors = l2_normalize(x, axis=1)
            product = ops.matmul(vectors, ops.transpose(vectors))
            size = x.shape[0]
        else:
            vectors = l2_normalize(x, axis=0)
            product = ops.matmul(ops.transpose(vectors), vectors)
            size = x.shape[1]
        off_diagonal = product * (1.0 - np.eye(size, dtype=np.dtype(ops.dtype(x))))
        num_pairs = size * (size - 1.0) / 2.0
        return self.factor * 0.5 * ops.sum(ops.abs(off_diagonal)) / num_pairs

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


def l1_l2(l1=0.01, l2=0.01):
    """An `L1L2` regulariser with Keras's default factors."""
    return L1L2(l1=l1, l2=l2)


l1 = L1
l2 = L2
orthogonal_regularizer = OrthogonalRegularizer

_BUILTINS = {"Regularizer": Regularizer, "L1L2": L1L2, "L1": L1, "L2": L2, "l1": L1, "l2": L2,
             "l1_l2": l1_l2, "OrthogonalRegularizer": OrthogonalRegularizer,
             "orthogonal_regularizer": OrthogonalRegularizer}


def get(identifier):
    """Resolves a regulariser from a name, config dict or callable."""
    return resolve(identifier, _BUILTINS, "regularizer")


def serialize(regularizer):
    """The regulariser's `{"class_name", "config"}` dict."""
    return serialize_keras_object(regularizer)


def deserialize(config, custom_objects=None):
    """Rebuilds a regulariser from `serialize`'s output."""
    return deserialize_keras_object(config, _BUILTINS, custom_objects, "regularizer")
