"""Metrics from confusion counts: TruePositives & co., Precision, Recall.

They accumulate weighted counts over the epoch (see `metrics_utils`) and
divide only in `result()`, so an epoch's precision is exact, not an average
of per-batch precisions. With several thresholds, `result()` gives one value
per threshold.
"""

import numpy as np

from . import metrics_utils
from .metric import Metric


class _ThresholdedCounts(Metric):
    """Shared set-up: thresholds, `top_k`, `class_id` and the count variables."""

    _counts = ()  # which of "tp", "fp", "tn", "fn" the metric keeps

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        default = 0.5 if top_k is None else metrics_utils.NEG_INF
        self.thresholds = metrics_utils.parse_thresholds(thresholds, default, type(self).__name__)
        self._evenly = metrics_utils.is_evenly_distributed(self.thresholds)
        names = {"tp": "true_positives", "fp": "false_positives", "tn": "true_negatives",
                 "fn": "false_negatives"}
        self._variables_by_key = {
            key: self.add_variable(shape=(len(self.thresholds),), name=names[key])
            for key in self._counts}

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's weighted counts at every threshold."""
        metrics_utils.update_confusion_counts(
            self._variables_by_key, y_true, y_pred, self.thresholds, top_k=self.top_k,
            class_id=self.class_id, sample_weight=sample_weight,
            evenly_distributed=self._evenly)

    def _per_threshold(self, values):
        values = np.asarray(values, dtype=self.dtype)
        return values[0] if len(self.thresholds) == 1 else values

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


class _ConditionCount(_ThresholdedCounts):
    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(thresholds=thresholds, name=name, dtype=dtype)

    def result(self):
        return self._per_threshold(self._variables_by_key[self._counts[0]].value)


class TruePositives(_ConditionCount):
    """Weighted count of positives predicted positive (`y_pred > threshold`).

    >>> m = TruePositives()
    >>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> float(m.result())
    2.0
    """

    _counts = ("tp",)


class FalsePositives(_ConditionCount):
    """Weighted count of negatives predicted positive.

    >>> m = FalsePositives()
    >>> m.update_state([0, 1, 0, 0], [0, 0, 1, 1])
    >>> float(m.result())
    2.0
    """

    _counts = ("fp",)


class TrueNegatives(_ConditionCount):
    """Weighted count of negatives predicted negative.

    >>> m = TrueNegatives()
    >>> m.update_state([0, 1, 0, 0], [1, 1, 0, 0])
    >>> float(m.result())
    2.0
    """

    _counts = ("tn",)


class FalseNegatives(_ConditionCount):
    """Weighted count of positives predicted negative.

    >>> m = FalseNegatives()
    >>> m.update_state([0, 1, 1, 1], [0, 1, 0, 0])
    >>> float(m.result())
    2.0
    """

    _counts = ("fn",)


class Precision(_ThresholdedCounts):
    """`tp / (tp + fp)` over the epoch (0 when nothing was predicted positive).

    Args:
        thresholds: a float or list of floats in `[0, 1]`; a prediction above
            a threshold counts as positive. Defaults to `0.5` (or, with
            `top_k`, to keeping every top-k prediction).
        top_k: only the `k` highest-scored classes of each sample count as
            predicted positive.
        class_id: compute the metric for this class (column) only.
        name: defaults to `"precision"`.
        dtype: dtype of the state and result.

    >>> m = Precision()
    >>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> round(float(m.result()), 4)
    0.6667
    """

    _counts = ("tp", "fp")

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds=thresholds, top_k=top_k, class_id=class_id, name=name,
                         dtype=dtype)
        self._direction = "up"

    def result(self):
        tp, fp = self._variables_by_key["tp"].value, self._variables_by_key["fp"].value
        return self._per_threshold(metrics_utils.divide_no_nan(tp, tp + fp))

    def get_config(self):
        return {**super().get_config(), "top_k": self.top_k, "class_id": self.class_id}


class Recall(_ThresholdedCounts):
    """`tp / (tp + fn)` over the epoch (0 when there were no positives).

    Args: as `Precision`; `name` defaults to `"recall"`.

    >>> m = Recall()
    >>> m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    >>> round(float(m.result()), 4)
    0.6667
    """

    _counts = ("tp", "fn")

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(thresholds=thresholds, top_k=top_k, class_id=class_id, name=name,
                         dtype=dtype)
        self._direction = "up"

    def result(self):
        tp, fn = self._variables_by_key["tp"].value, self._variables_by_key["fn"].value
        return self._per_threshold(metrics_utils.divide_no_nan(tp, tp + fn))

    def get_config(self):
        return {**super().get_config(), "top_k": self.top_k, "class_id": self.class_id}
