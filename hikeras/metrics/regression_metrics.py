"""Regression metrics: epoch means of the regression losses' per-sample values.

The functions are the losses' own (`hikeras.losses.mean_squared_error`, ...),
so a metric and a loss of the same name always agree; the classes average
them exactly over all samples of an epoch.
"""

from ..losses.regression import mean_absolute_error, mean_squared_error
from .reduction_metrics import MeanMetricWrapper

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


class MeanSquaredError(MeanMetricWrapper):
    """Mean of `square(y_true - y_pred)` over all values of the epoch.

    >>> m = MeanSquaredError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class MeanAbsoluteError(MeanMetricWrapper):
    """Mean of `abs(y_true - y_pred)` over all values of the epoch.

    >>> m = MeanAbsoluteError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, dtype=dtype)
        self._direction = "down"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}
