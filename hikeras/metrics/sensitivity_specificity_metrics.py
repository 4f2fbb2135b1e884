"""One rate at the best threshold meeting a floor on another rate.

`SensitivityAtSpecificity`, `SpecificityAtSensitivity`, `PrecisionAtRecall`
and `RecallAtPrecision` accumulate confusion counts at `num_thresholds`
thresholds spread evenly over `[0, 1]` (exactly 0 and 1 at the ends, unlike
`AUC`'s widened ends; a single threshold is 0.5). `result()` computes both
rates at every threshold, keeps the thresholds where the constrained rate is
at least the requested value, and returns the largest dependent rate among
them, or 0 when no threshold qualifies.
"""

import numbers

import numpy as np

from . import metrics_utils
from .confusion_metrics import _ThresholdedCounts
from .metric import Metric


def _evenly_spaced_thresholds(num_thresholds):
    """`0, 1/(n-1), ..., 1`, computed as Keras does so the values agree bit for bit."""
    if num_thresholds == 1:
        return [0.5]
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0] + inner + [1.0]


class _RateAtRate(_ThresholdedCounts):
    """Shared state and `result()`; subclasses name the two rates and the argument."""

    _counts = ("tp", "fp", "tn", "fn")
    _argument = None  # the constructor argument holding the floor, e.g. "specificity"
    _dependent = None  # the rate maximised, e.g. "sensitivity"

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        owner, argument = type(self).__name__, self._argument
        if not isinstance(value, numbers.Real) or isinstance(value, bool) or \
                not 0 <= value <= 1:
            raise ValueError(f"{owner}: argument `{argument}` must be a number in [0, 1]. "
                             f"Received: {argument}={value!r}")
        if not isinstance(num_thresholds, numbers.Integral) or \
                isinstance(num_thresholds, bool) or num_thresholds < 1:
            raise ValueError(f"{owner}: argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds!r}")
        num_thresholds = int(num_thresholds)
        super().__init__(thresholds=_evenly_spaced_thresholds(num_thresholds),
                         class_id=class_id, name=name, dtype=dtype)
        # Keras uses the bucket method whenever there are two or more thresholds.
        self._evenly = num_thresholds > 1
        self._direction = "up"
        self.num_thresholds = num_thresholds
        setattr(self, argument, value)  # Keras's attribute: `self.specificity`, ...

    def _rates(self):
        """`{"sensitivity"|"recall", "specificity", "precision"}` at every threshold."""
        tp, fp, tn, fn = (self._variables_by_key[k].value for k in ("tp", "fp", "tn", "fn"))
        div = metrics_utils.divide_no_nan
        recall = div(tp, tp + fn)
        return {"sensitivity": recall, "recall": recall, "specificity": div(tn, tn + fp),
                "precision": div(tp, tp + fp)}

    def result(self):
        rates = self._rates()
        constrained, dependent = rates[self._argument], rates[self._dependent]
        # The floor is compared in the counts' dtype (a float32 0.7 >= 0.7 holds).
        floor = np.asarray(getattr(self, self._argument), dtype=constrained.dtype)
        feasible = constrained >= floor
        best = np.max(np.where(feasible, dependent, 0), initial=0)
        return np.asarray(best, dtype=self.dtype)[()]

    def get_config(self):
        # No `thresholds`: they follow from `num_thresholds`.
        return {**Metric.get_config(self), "class_id": self.class_id,
                "num_thresholds": self.num_thresholds,
                self._argument: getattr(self, self._argument)}


class SensitivityAtSpecificity(_RateAtRate):
    """Best sensitivity where specificity is at least `specificity`.

    Sensitivity (recall) is `tp / (tp + fn)`, specificity `tn / (tn + fp)`.

    Args:
        specificity: the floor on specificity, in `[0, 1]`.
        num_thresholds: number of thresholds, evenly spaced over `[0, 1]`
            (one threshold means 0.5). Defaults to `200`.
        class_id: compute the metric for this class (column) only.
        name: defaults to `"sensitivity_at_specificity"`.
        dtype: dtype of the state and result.

    >>> m = SensitivityAtSpecificity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> float(m.result())
    0.5
    """

    _argument = "specificity"
    _dependent = "sensitivity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds=num_thresholds, class_id=class_id,
                         name=name, dtype=dtype)


class SpecificityAtSensitivity(_RateAtRate):
    """Best specificity where sensitivity is at least `sensitivity`.

    Args: as `SensitivityAtSpecificity`, with `sensitivity` (in `[0, 1]`) as
    the floor; `name` defaults to `"specificity_at_sensitivity"`.

    >>> m = SpecificityAtSensitivity(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> round(float(m.result()), 4)
    0.6667
    """

    _argument = "sensitivity"
    _dependent = "specificity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds=num_thresholds, class_id=class_id,
                         name=name, dtype=dtype)


class PrecisionAtRecall(_RateAtRate):
    """Best precision (`tp / (tp + fp)`) where recall is at least `recall`.

    Args: as `SensitivityAtSpecificity`, with `recall` (in `[0, 1]`) as the
    floor; `name` defaults to `"precision_at_recall"`.

    >>> m = PrecisionAtRecall(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    >>> float(m.result())
    0.5
    """

    _argument = "recall"
    _dependent = "precision"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds=num_thresholds, class_id=class_id, name=name,
                         dtype=dtype)


class RecallAtPrecision(_RateAtRate):
    """Best recall where precision is at least `precision` (0 if it never is).

    Args: as `SensitivityAtSpecificity`, with `precision` (in `[0, 1]`) as
    the floor; `name` defaults to `"recall_at_precision"`.

    >>> m = RecallAtPrecision(0.8)
    >>> m.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    >>> float(m.result())
    0.5
    """

    _argument = "precision"
    _dependent = "recall"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds=num_thresholds, class_id=class_id,
                         name=name, dtype=dtype)
