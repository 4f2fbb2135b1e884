"""Regression metrics: epoch means of per-sample errors, and `R2Score`.

The functions are the losses' own (`hikeras.losses.mean_squared_error`, ...),
so a metric and a loss of the same name always agree; the classes average
them exactly over all samples of an epoch. (`cosine_similarity` is the one
exception: as a metric it is the similarity itself, as a loss its negative.)
`R2Score` keeps per-output sums instead, from which the epoch's R² is exact.
"""

import warnings

import numpy as np

from ..losses.regression import (
    l2_normalize,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
)
from .metric import Metric, as_array
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


_CLASS_AGGREGATIONS = (None, "uniform_average", "variance_weighted_average")


class R2Score(Metric):
    """The coefficient of determination, `1 - SS_res / SS_tot`, over the epoch.

    Per output (last axis), `SS_res = sum(w * (y_true - y_pred)**2)` and
    `SS_tot = sum(w * (y_true - mean_w(y_true))**2)`. The metric keeps
    weighted sums of `y_true`, `y_true**2` and the squared residuals, so the
    epoch's score is exact however the data was batched. An output whose
    labels are constant (`SS_tot = 0`) scores 0 unless its residuals are 0
    too (then NaN), as in Keras.

    Args:
        class_aggregation: how to combine the per-output scores: `None` (one
            score per output), `"uniform_average"` (their mean, the default)
            or `"variance_weighted_average"` (weighted by each output's
            `SS_tot`).
        num_regressors: number of independent variables `p` of the model,
            for the adjusted R², `1 - (1 - R²) * (n - 1) / (n - p - 1)`,
            where `n` counts label values (samples times outputs). `0` (the
            default) gives the plain R². While `n <= p + 1`, the plain R² is
            returned with a warning.
        name: defaults to `"r2_score"`.
        dtype: dtype of the state and result.

    Inputs must be `(batch_size, num_outputs)`; `(batch_size,)` labels with
    `(batch_size, 1)` predictions (or the reverse) are accepted too.

    >>> m = R2Score()
    >>> m.update_state([[1.0], [4.0], [3.0]], [[2.0], [4.0], [4.0]])
    >>> round(float(m.result()), 4)
    0.5714
    """

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score",
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if class_aggregation not in _CLASS_AGGREGATIONS:
            raise ValueError(f"R2Score: invalid `class_aggregation`. Expected one of "
                             f"{_CLASS_AGGREGATIONS}. Received: "
                             f"class_aggregation={class_aggregation!r}")
        if not isinstance(num_regressors, (int, np.integer)) or \
                isinstance(num_regressors, bool) or num_regressors < 0:
            raise ValueError("R2Score: `num_regressors` must be an integer >= 0. "
                             f"Received: num_regressors={num_regressors!r}")
        self.class_aggregation = class_aggregation
        self.num_regressors = int(num_regressors)
        self.num_samples = self.add_variable(shape=(), name="num_samples")
        self._num_outputs = None  # known at the first batch

    def _build(self, num_outputs):
        # Keras's variable names and order, so saved metric states line up.
        self.squared_sum = self.add_variable(shape=(num_outputs,), name="squared_sum")
        self.sum = self.add_variable(shape=(num_outputs,), name="sum")
        self.total_mse = self.add_variable(shape=(num_outputs,), name="residual")
        self.count = self.add_variable(shape=(num_outputs,), name="count")
        self._num_outputs = num_outputs

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds one batch of `(batch_size, num_outputs)` labels and predictions."""
        y_true = as_array(y_true, self.dtype)
        y_pred = as_array(y_pred, self.dtype)
        y_true, y_pred = same_rank(y_true, y_pred)
        if y_true.ndim != 2 or y_true.shape != y_pred.shape or \
                self._num_outputs not in (None, y_pred.shape[1]):
            expected = "(batch_size, output_dim)" if self._num_outputs is None else \
                f"(batch_size, {self._num_outputs})"
            raise ValueError(f"R2Score expects labels and predictions of the same shape "
                             f"{expected}. Received: y_true.shape={y_true.shape}, "
                             f"y_pred.shape={y_pred.shape}")
        if self._num_outputs is None:
            self._build(y_pred.shape[1])
        weight = np.ones((), self.dtype) if sample_weight is None else \
            as_array(sample_weight, self.dtype)
        if weight.ndim == 1:  # one weight per sample
            weight = weight[:, None]
        try:
            weight = np.broadcast_to(weight, y_true.shape)
        except ValueError:
            raise ValueError("R2Score: `sample_weight` must broadcast to the labels' shape. "
                             f"Received: sample_weight.shape={np.shape(sample_weight)}, "
                             f"y_true.shape={y_true.shape}") from None
        weighted_true = y_true * weight
        self.sum.value += weighted_true.sum(axis=0)
        self.squared_sum.value += (y_true * weighted_true).sum(axis=0)
        self.total_mse.value += (np.square(y_true - y_pred) * weight).sum(axis=0)
        self.count.value += weight.sum(axis=0)
        self.num_samples.value += y_true.size

    def result(self):
        if self._num_outputs is None:  # nothing seen yet (Keras has no state to read)
            return np.zeros((), dtype=self.dtype)[()]
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = self.sum.value / self.count.value
            total = self.squared_sum.value - self.sum.value * mean
            scores = 1 - self.total_mse.value / total
        scores = np.where(np.isinf(scores), 0.0, scores).astype(self.dtype)
        if self.class_aggregation == "uniform_average":
            scores = scores.mean()
        elif self.class_aggregation == "variance_weighted_average":
            with np.errstate(divide="ignore", invalid="ignore"):
                scores = (total * scores).sum() / total.sum()
        return np.asarray(self._adjusted(scores), dtype=self.dtype)[()]

    def _adjusted(self, score):
        """The adjusted R² when `num_regressors` is set and there are enough values."""
        p, n = self.num_regressors, float(self.num_samples.value)
        if p == 0:
            return score
        if p >= n - 1:
            reason = "more independent regressors than data points" if p > n - 1 else \
                "a division by zero"
            warnings.warn(f"R2Score: the adjusted R2 score needs num_samples > "
                          f"num_regressors + 1, here {reason} (num_samples={int(n)}, "
                          f"num_regressors={p}). Falling back to the standard R2 score.",
                          stacklevel=3)
            return score
        n, p = np.asarray(n, self.dtype), np.asarray(p, self.dtype)
        return 1 - (1 - score) * (n - 1) / (n - p - 1)

    def get_config(self):
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
