"""Regression metrics: epoch means of per-sample errors.

The functions are the losses' own (`hikeras.losses.mean_squared_error`, ...),
so a metric and a loss of the same name always agree; the classes average
them exactly over all samples of an epoch. (`cosine_similarity` is the one
exception: as a metric it is the similarity itself, as a loss its negative.)
"""

import numpy as np

from ..losses.regression import (
    l2_normalize,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
)
from .metric import as_array
from .metrics_utils import same_rank
from .reduction_metrics import Mean, MeanMetricWrapper

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
logcosh = log_cosh


def cosine_similarity(y_true, y_pred, axis=-1):
    """`sum(l2_norm(y_true) * l2_norm(y_pred), axis)`: 1 for the same direction.

    >>> import numpy as np
    >>> cosine_similarity(np.array([[0.0, 1.0], [1.0, 1.0]]),
    ...                   np.array([[1.0, 0.0], [2.0, 2.0]])).round(4).tolist()
    [0.0, 1.0]
    """
    y_pred = as_array(y_pred)
    y_true = as_array(y_true, y_pred.dtype)
    y_true, y_pred = same_rank(y_true, y_pred)
    return np.sum(l2_normalize(y_true, axis) * l2_normalize(y_pred, axis), axis=axis)


class _ErrorMean(MeanMetricWrapper):
    """A `MeanMetricWrapper` around a fixed function, configured by name and dtype only."""

    def __init__(self, name=None, dtype=None):
        super().__init__(type(self)._function, name=name or self._default_name, dtype=dtype)
        self._direction = "down"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class MeanSquaredError(_ErrorMean):
    """Mean of `square(y_true - y_pred)` over all values of the epoch.

    >>> m = MeanSquaredError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """

    _function = staticmethod(mean_squared_error)
    _default_name = "mean_squared_error"


class MeanAbsoluteError(_ErrorMean):
    """Mean of `abs(y_true - y_pred)` over all values of the epoch.

    >>> m = MeanAbsoluteError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """

    _function = staticmethod(mean_absolute_error)
    _default_name = "mean_absolute_error"


class MeanAbsolutePercentageError(_ErrorMean):
    """Mean of `100 * abs((y_true - y_pred) / y_true)` over the epoch.

    >>> m = MeanAbsolutePercentageError()
    >>> m.update_state([[2.0, 4.0]], [[1.0, 5.0]])
    >>> float(m.result())
    37.5
    """

    _function = staticmethod(mean_absolute_percentage_error)
    _default_name = "mean_absolute_percentage_error"


class MeanSquaredLogarithmicError(_ErrorMean):
    """Mean of `square(log(y_true + 1) - log(y_pred + 1))` over the epoch.

    >>> m = MeanSquaredLogarithmicError()
    >>> m.update_state([[0.0]], [[np.e - 1]])
    >>> round(float(m.result()), 4)
    1.0
    """

    _function = staticmethod(mean_squared_logarithmic_error)
    _default_name = "mean_squared_logarithmic_error"


class LogCoshError(_ErrorMean):
    """Mean of `log(cosh(y_pred - y_true))` over the epoch.

    >>> m = LogCoshError()
    >>> m.update_state([[0.0]], [[1.0]])
    >>> round(float(m.result()), 4)
    0.4338
    """

    _function = staticmethod(log_cosh)
    _default_name = "logcosh"


class CosineSimilarity(MeanMetricWrapper):
    """Mean cosine similarity between labels and predictions along `axis`.

    >>> m = CosineSimilarity()
    >>> m.update_state([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]])
    >>> round(float(m.result()), 4)
    0.5
    """

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)
        self.axis = axis
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


class RootMeanSquaredError(Mean):
    """`sqrt(mean(square(y_pred - y_true)))` over every value of the epoch.

    >>> m = RootMeanSquaredError()
    >>> m.update_state([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 0.0]])
    >>> float(m.result())
    0.5
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's squared errors (and optional per-sample weights)."""
        y_true = as_array(y_true, self.dtype)
        y_pred = as_array(y_pred, self.dtype)
        y_true, y_pred = same_rank(y_true, y_pred)
        super().update_state(np.square(y_pred - y_true), sample_weight=sample_weight)

    def result(self):
        return np.sqrt(super().result()).astype(self.dtype)[()]
