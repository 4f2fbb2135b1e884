"""`AUC`: area under the ROC or precision-recall curve, from confusion counts."""

import numpy as np

from . import metrics_utils
from .metric import Metric, as_array

_CURVES = {"roc": "ROC", "pr": "PR"}
_SUMMATIONS = ("interpolation", "minoring", "majoring")
_EPSILON = 1e-7


class AUC(Metric):
    """Area under the ROC or PR curve, approximated by a Riemann sum over thresholds.

    Confusion counts at `num_thresholds` thresholds are accumulated over the
    epoch; `result()` integrates the curve through them. The thresholds are
    spread evenly over `[0, 1]`, the first just below 0 and the last just
    above 1 so that predictions of exactly 0 or 1 are counted correctly.

    Args:
        num_thresholds: number of thresholds (> 1). Defaults to `200`.
        curve: `"ROC"` (default) or `"PR"`.
        summation_method: `"interpolation"` (trapezoids for ROC; for PR the
            interpolation of Davis & Goadrich, 2006), `"minoring"` or
            `"majoring"` (lower/upper rectangles).
        name: defaults to `"auc"`.
        dtype: dtype of the state and result.
        thresholds: explicit thresholds in `[0, 1]`, used instead of
            `num_thresholds` (the epsilon-widened 0 and 1 are added).
        multi_label: treat each column of `(batch, labels)` inputs as its
            own binary problem and average the per-label AUCs; otherwise all
            values are flattened into one problem.
        num_labels: number of labels with `multi_label`, to create the state
            before the first batch.
        label_weights: per-label weights: for the average with
            `multi_label`, for the counts otherwise.
        from_logits: apply a sigmoid to the predictions first.

    >>> m = AUC(num_thresholds=3)
    >>> m.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9])
    >>> float(m.result())
    0.75
    """

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if str(curve).lower() not in _CURVES:
            raise ValueError(f"Invalid `curve` argument value. Expected one of "
                             f"{list(_CURVES.values())}. Received: curve={curve!r}")
        if str(summation_method).lower() not in _SUMMATIONS:
            raise ValueError(f"Invalid `summation_method` argument value. Expected one of "
                             f"{list(_SUMMATIONS)}. Received: summation_method="
                             f"{summation_method!r}")
        self.curve = _CURVES[str(curve).lower()]
        self.summation_method = str(summation_method).lower()
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            inner = sorted(metrics_utils.parse_thresholds(thresholds, None, "AUC"))
            self.num_thresholds = len(inner) + 2
            self._evenly = metrics_utils.is_evenly_distributed([0.0] + inner + [1.0])
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._evenly = True
        self._thresholds = [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]
        self.multi_label = bool(multi_label)
        self.num_labels = num_labels
        self.label_weights = None if label_weights is None else \
            np.asarray(label_weights, dtype=self.dtype)
        self._from_logits = bool(from_logits)
        self._counts = None
        if not self.multi_label:
            if num_labels:
                raise ValueError("`num_labels` is needed only when `multi_label` is True. "
                                 f"Received: num_labels={num_labels}")
            self._build(None)
        elif num_labels:
            self._build(num_labels)

    @property
    def thresholds(self):
        """The thresholds, including the epsilon-widened 0 and 1."""
        return list(self._thresholds)

    def _build(self, num_labels):
        shape = (self.num_thresholds,) if num_labels is None else \
            (self.num_thresholds, num_labels)
        self._counts = {key: self.add_variable(shape=shape, name=name) for key, name in (
            ("tp", "true_positives"), ("fp", "false_positives"), ("tn", "true_negatives"),
            ("fn", "false_negatives"))}

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's confusion counts at every threshold."""
        y_pred = as_array(y_pred, self.dtype)
        if self._counts is None:
            if y_pred.ndim != 2:
                raise ValueError("`y_pred` must have rank 2 when `multi_label=True`. "
                                 f"Received: y_pred.shape={y_pred.shape}")
            self._build(y_pred.shape[1])
        if self._from_logits:
            y_pred = 1.0 / (1.0 + np.exp(-y_pred))
        metrics_utils.update_confusion_counts(
            self._counts, y_true, y_pred, self._thresholds, sample_weight=sample_weight,
            multi_label=self.multi_label,
            label_weights=None if self.multi_label else self.label_weights,
            evenly_distributed=self._evenly)

    def _by_label(self, areas):
        """The area: summed over thresholds, then averaged over labels if multi-label."""
        by_label = areas.sum(axis=0)
        if not self.multi_label:
            return by_label
        if self.label_weights is None:
            return by_label.mean()
        return metrics_utils.divide_no_nan((by_label * self.label_weights).sum(),
                                           self.label_weights.sum())

    def _interpolated_pr_auc(self, tp, fp, fn):
        """Davis & Goadrich's interpolation of precision between thresholds."""
        div = metrics_utils.divide_no_nan
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = div(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        both_positive = (p[:-1] > 0) & (p[1:] > 0)
        ratio = np.where(both_positive, div(p[:-1], np.maximum(p[1:], 0)), 1.0)
        with np.errstate(divide="ignore"):
            log_ratio = np.log(ratio)
        return div(slope * (dtp + intercept * log_ratio), np.maximum(tp[1:] + fn[1:], 0))

    def result(self):
        if self._counts is None:
            return np.zeros((), dtype=self.dtype)[()]
        tp, fp, tn, fn = (self._counts[k].value for k in ("tp", "fp", "tn", "fn"))
        div = metrics_utils.divide_no_nan
        if self.curve == "PR" and self.summation_method == "interpolation":
            areas = self._interpolated_pr_auc(tp, fp, fn)
        else:
            recall = div(tp, tp + fn)
            if self.curve == "ROC":
                x, y = div(fp, fp + tn), recall
            else:
                x, y = recall, div(tp, tp + fp)
            if self.summation_method == "interpolation":
                heights = (y[:-1] + y[1:]) / 2.0
            elif self.summation_method == "minoring":
                heights = np.minimum(y[:-1], y[1:])
            else:
                heights = np.maximum(y[:-1], y[1:])
            areas = (x[:-1] - x[1:]) * heights
        return np.asarray(self._by_label(areas), dtype=self.dtype)[()]

    def get_config(self):
        label_weights = None if self.label_weights is None else self.label_weights.tolist()
        config = {**super().get_config(), "num_thresholds": self.num_thresholds,
                  "curve": self.curve, "summation_method": self.summation_method,
                  "multi_label": self.multi_label, "num_labels": self.num_labels,
                  "label_weights": label_weights, "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config
