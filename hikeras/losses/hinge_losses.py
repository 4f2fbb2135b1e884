"""Hinge losses, for classifiers trained with margins (SVM-style).

Labels are -1/1; 0/1 labels are converted to -1/1 first (all of them, and
only when every label is 0 or 1), as Keras does.
"""

import numpy as np

from .. import ops
from ..backend import Tensor
from .loss import Loss, LossFunctionWrapper, as_tensor_or_array


def _signed_labels(y_true):
    """0/1 labels mapped to -1/1; anything else is left as it is."""
    values = y_true.value if isinstance(y_true, Tensor) else np.asarray(y_true)
    if np.all((values == 0) | (values == 1)):
        return 2.0 * y_true - 1.0
    return y_true


def _prepare(y_true, y_pred):
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    return _signed_labels(y_true), y_pred


def hinge(y_true, y_pred):
    """`mean(maximum(1 - y_true * y_pred, 0), axis=-1)`.

    >>> import numpy as np
    >>> hinge(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]])).tolist()
    [1.0]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    """`mean(square(maximum(1 - y_true * y_pred, 0)), axis=-1)`.

    >>> import numpy as np
    >>> squared_hinge(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]])).tolist()
    [1.25]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.square(ops.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    """`maximum(neg - pos + 1, 0)` with `pos = sum(y_true * y_pred)` and
    `neg = max((1 - y_true) * y_pred)` over the last (class) axis.

    >>> import numpy as np
    >>> categorical_hinge(np.array([[0.0, 1.0]]), np.array([[0.3, 0.6]])).tolist()
    [0.7]
    """
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    positive = ops.sum(y_true * y_pred, axis=-1)
    negative = ops.max((1.0 - y_true) * y_pred, axis=-1)
    return ops.maximum(negative - positive + 1.0, 0.0)


class Hinge(LossFunctionWrapper):
    """`maximum(1 - y_true * y_pred, 0)`, with -1/1 (or 0/1) labels.

    >>> import numpy as np
    >>> float(Hinge()(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]])))
    1.0
    """

    def __init__(self, reduction="sum_over_batch_size", name="hinge", dtype=None):
        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class SquaredHinge(LossFunctionWrapper):
    """`square(maximum(1 - y_true * y_pred, 0))`, with -1/1 (or 0/1) labels.

    >>> import numpy as np
    >>> float(SquaredHinge()(np.array([[0.0, 1.0]]), np.array([[0.5, 0.5]])))
    1.25
    """

    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class CategoricalHinge(LossFunctionWrapper):
    """`maximum(neg - pos + 1, 0)` for one-hot labels (see `categorical_hinge`).

    >>> import numpy as np
    >>> round(float(CategoricalHinge()(np.array([[0.0, 1.0]]), np.array([[0.3, 0.6]]))), 4)
    0.7
    """

    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge",
                 dtype=None):
        super().__init__(categorical_hinge, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)
