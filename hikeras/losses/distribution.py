"""Losses between distributions and counts: `KLDivergence` and `Poisson`."""

from .. import ops
from ..backend import epsilon
from .loss import Loss, LossFunctionWrapper, as_tensor_or_array


def kl_divergence(y_true, y_pred):
    """`sum(y_true * log(y_true / y_pred), axis=-1)`, both clipped to `[epsilon, 1]`.

    >>> import numpy as np
    >>> kl_divergence(np.array([[0.5, 0.5]]), np.array([[0.5, 0.5]])).tolist()
    [0.0]
    """
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    y_true = ops.clip(y_true, epsilon(), 1.0)
    y_pred = ops.clip(y_pred, epsilon(), 1.0)
    return ops.sum(y_true * ops.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    """`mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)`.

    >>> import numpy as np
    >>> np.round(poisson(np.array([[1.0]]), np.array([[1.0]])), 4).tolist()
    [1.0]
    """
    y_pred = as_tensor_or_array(y_pred)
    y_true = as_tensor_or_array(y_true, y_pred.dtype)
    return ops.mean(y_pred - y_true * ops.log(y_pred + epsilon()), axis=-1)


class KLDivergence(LossFunctionWrapper):
    """Kullback-Leibler divergence from the label distribution to the prediction.

    >>> import numpy as np
    >>> round(float(KLDivergence()(np.array([[1.0, 0.0]]), np.array([[0.5, 0.5]]))), 4)
    0.6931
    """

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class Poisson(LossFunctionWrapper):
    """Poisson negative log-likelihood up to a constant: `y_pred - y_true * log(y_pred)`.

    >>> import numpy as np
    >>> round(float(Poisson()(np.array([[1.0]]), np.array([[1.0]]))), 4)
    1.0
    """

    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)
