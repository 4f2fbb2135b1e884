"""The metrics' calls into the backend: one function per accumulation op.

Each function adds one batch into the state arrays it is given (a metric
variable's `.value`) through the active backend's op of the same name, and
returns None. The numpy kernels are in
`backend/numpy_backend/metric_updates.py`; a compiled backend overrides them
by name. Callers check and align the shapes first: the ops assume inputs
that fit together.
"""

from ..backend import apply


def mean_metric_update(total, count, values, sample_weight=None):
    """Adds the (weighted) per-sample means of `values` to `total`, their weights to `count`.

    `sample_weight`, when given, has at most `values`' rank and broadcasts
    against its leading axes.
    """
    apply("mean_metric_update", total, count, values, sample_weight)


def sum_metric_update(total, values, sample_weight=None):
    """Adds the (weighted) sum of `values` to `total`."""
    apply("sum_metric_update", total, values, sample_weight)


def confusion_counts_update(counts, positive, y_pred, weights, thresholds, *, multi_label,
                            evenly_distributed):
    """Adds weighted confusion counts at each threshold to the arrays in `counts`.

    `counts` maps some of `"tp"`, `"fp"`, `"tn"`, `"fn"` to arrays of shape
    `(num_thresholds,)` (or `(num_thresholds, num_labels)` with
    `multi_label`); `positive`, `y_pred` and `weights` share one shape.
    """
    apply("confusion_counts_update", counts.get("tp"), counts.get("fp"), counts.get("tn"),
          counts.get("fn"), positive, y_pred, weights, thresholds, multi_label=multi_label,
          evenly_distributed=evenly_distributed)


def confusion_matrix_update(total, labels, predictions, weights, *, ignore_class=None):
    """Adds each valid (label, prediction) pair's weight to the confusion matrix `total`."""
    apply("confusion_matrix_update", total, labels, predictions, weights,
          ignore_class=ignore_class)
