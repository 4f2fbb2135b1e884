"""Correlation between labels and predictions along an axis, averaged over samples.

`pearson_correlation` and `concordance_correlation` give one coefficient per
sample (by default along the last axis, e.g. across a sample's outputs or
time steps); `PearsonCorrelation` and `ConcordanceCorrelation` average those
per-sample coefficients over the epoch, as `Mean` does. Variances are
population variances (divided by the count, not count - 1), as in Keras.
"""

import numpy as np

from .. import backend
from .metric import as_array
from .metrics_utils import same_rank
from .reduction_metrics import MeanMetricWrapper


def _as_pair(y_true, y_pred, axis):
    """Float arrays of equal rank, and `axis` as numpy wants it (a JSON list -> tuple)."""
    y_pred = as_array(y_pred)
    if y_pred.dtype.kind not in "fc":
        y_pred = y_pred.astype(backend.floatx())
    y_true = as_array(y_true, y_pred.dtype)
    y_true, y_pred = same_rank(y_true, y_pred)
    return y_true, y_pred, tuple(axis) if isinstance(axis, list) else axis


def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's correlation coefficient of `y_true` and `y_pred` along `axis`.

    `mean(z(y_true) * z(y_pred))`, where `z` standardises to mean 0 and
    (population) standard deviation 1. Constant values give NaN.

    >>> import numpy as np
    >>> pearson_correlation(np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
    ...                     np.array([[2.0, 4.0, 6.0], [3.0, 2.0, 1.0]])).round(4).tolist()
    [1.0, -1.0]
    """
    y_true, y_pred, axis = _as_pair(y_true, y_pred, axis)
    true_centred = y_true - y_true.mean(axis=axis, keepdims=True)
    pred_centred = y_pred - y_pred.mean(axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        true_z = true_centred / true_centred.std(axis=axis, keepdims=True)
        pred_z = pred_centred / pred_centred.std(axis=axis, keepdims=True)
    return (true_z * pred_z).mean(axis=axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation coefficient of `y_true` and `y_pred` along `axis`.

    `2 * cov / (var(y_true) + var(y_pred) + (mean(y_true) - mean(y_pred))**2)`:
    like Pearson's coefficient, but also penalising a shift or a change of
    scale, so it is 1 only for `y_pred == y_true`. A small epsilon keeps the
    denominator nonzero.

    >>> import numpy as np
    >>> concordance_correlation(np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]),
    ...                         np.array([[1.0, 2.0, 3.0], [2.0, 3.0, 4.0]])).round(4).tolist()
    [1.0, 0.5714]
    """
    y_true, y_pred, axis = _as_pair(y_true, y_pred, axis)
    true_mean = y_true.mean(axis=axis, keepdims=True)
    pred_mean = y_pred.mean(axis=axis, keepdims=True)
    true_centred, pred_centred = y_true - true_mean, y_pred - pred_mean
    denominator = (np.square(true_centred).mean(axis=axis, keepdims=True)
                   + np.square(pred_centred).mean(axis=axis, keepdims=True)
                   + np.square(true_mean - pred_mean))
    epsilon = np.asarray(backend.epsilon(), dtype=y_pred.dtype)
    return (2 * true_centred * pred_centred / (denominator + epsilon)).mean(axis=axis)


class PearsonCorrelation(MeanMetricWrapper):
    """Mean over samples of `pearson_correlation` along `axis`.

    Args:
        name: defaults to `"pearson_correlation"`.
        dtype: dtype of the state and result.
        axis: the axis (or axes) along which each coefficient is computed.
            Defaults to `-1`.

    >>> m = PearsonCorrelation()
    >>> m.update_state([[0, 1, 0.5], [1, 1, 0.2]], [[0.1, 0.9, 0.5], [1, 0.9, 0.2]])
    >>> round(float(m.result()), 4)
    0.9967
    """

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


class ConcordanceCorrelation(MeanMetricWrapper):
    """Mean over samples of `concordance_correlation` along `axis`.

    Args:
        name: defaults to `"concordance_correlation"`.
        dtype: dtype of the state and result.
        axis: the axis (or axes) along which each coefficient is computed.
            Defaults to `-1`.

    >>> m = ConcordanceCorrelation()
    >>> m.update_state([[0, 1, 0.5], [1, 1, 0.2]], [[0.1, 0.9, 0.5], [1, 0.9, 0.2]])
    >>> round(float(m.result()), 4)
    0.9816
    """

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis
        self._direction = "up"

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}
