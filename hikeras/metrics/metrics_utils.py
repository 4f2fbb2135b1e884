"""Confusion counts at thresholds: the accumulator behind Precision, Recall and AUC.

For every threshold `t`, a prediction counts as positive when `y_pred > t`,
and each (label, prediction) pair adds its weight to one of the true/false
positive/negative counts. Counts (not per-batch ratios) are what metrics
accumulate, so an epoch's precision is exact however it was batched.

When the thresholds are evenly spaced over `[0, 1]` (AUC's default), the
counts come from one pass over the predictions: each prediction is dropped
into the bucket of the highest threshold it exceeds, and a reversed
cumulative sum turns bucket totals into counts at every threshold (Keras's
method, so the two agree even for predictions that equal a threshold).
"""

import numpy as np

from ..ops import updates

NEG_INF = -1e10  # the threshold used with `top_k`: every kept prediction exceeds it


def parse_thresholds(thresholds, default, owner):
    """`thresholds` as a list of floats in `[0, 1]`, or `[default]` when None."""
    if thresholds is None:
        return [default]
    values = list(thresholds) if isinstance(thresholds, (list, tuple, np.ndarray)) \
        else [thresholds]
    bad = [t for t in values if t is None or not 0 <= t <= 1]
    if bad:
        raise ValueError(f"{owner}: threshold values must be in [0, 1]. "
                         f"Received: thresholds={thresholds!r}")
    return [float(t) for t in values]


def is_evenly_distributed(thresholds):
    """Whether `thresholds` are `0, 1/(n-1), ..., 1` (n >= 3), within epsilon."""
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype=np.float32) / (n - 1)
    return bool(np.allclose(thresholds, even, atol=1e-7))


def same_rank(x1, x2, expand_rank_1=True):
    """Keras's rank fix-up for two numpy arrays whose ranks differ by a trailing 1."""
    if x1.ndim == x2.ndim + 1 and x1.shape[-1] == 1:
        if x2.ndim == 1 and expand_rank_1:
            x2 = x2[..., None]
        else:
            x1 = x1[..., 0]
    elif x2.ndim == x1.ndim + 1 and x2.shape[-1] == 1:
        if x1.ndim == 1 and expand_rank_1:
            x1 = x1[..., None]
        else:
            x2 = x2[..., 0]
    return x1, x2


def filter_top_k(scores, k):
    """`scores` with all but the `k` largest along the last axis set to `NEG_INF`."""
    order = np.argsort(-scores, axis=-1, kind="stable")[..., :k]
    keep = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(keep, order, True, axis=-1)
    return np.where(keep, scores, np.asarray(NEG_INF, dtype=scores.dtype))


def update_confusion_counts(counts, y_true, y_pred, thresholds, *, top_k=None, class_id=None,
                            sample_weight=None, multi_label=False, label_weights=None,
                            evenly_distributed=False):
    """Adds one batch to confusion-count variables.

    Args:
        counts: dict with some of the keys `"tp"`, `"fp"`, `"tn"`, `"fn"`,
            each a `Variable` of shape `(num_thresholds,)` (or
            `(num_thresholds, num_labels)` with `multi_label`).
        y_true: labels; nonzero counts as positive.
        y_pred: scores, compared with `>` against each threshold.
        thresholds: the thresholds, increasing.
        top_k: keep only the `k` highest scores per sample as candidates.
        class_id: restrict to this column of `(batch, classes)` inputs.
        sample_weight: weights broadcastable to the labels.
        multi_label: keep one set of counts per label (last axis).
        label_weights: per-label weights applied when labels are flattened.
        evenly_distributed: whether `thresholds` are evenly spaced over
            `[0, 1]` (possibly widened by epsilon at both ends), to use the
            bucket method.
    """
    dtype = next(iter(counts.values())).value.dtype
    y_true = np.asarray(y_true).astype(dtype, copy=False)
    y_pred = np.asarray(y_pred).astype(dtype, copy=False)
    y_pred, y_true = same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = np.expand_dims(np.asarray(sample_weight, dtype=dtype), -1)
        _, sample_weight = same_rank(y_true, sample_weight, expand_rank_1=False)
    if top_k is not None:
        y_pred = filter_top_k(y_pred, top_k)
    if class_id is not None:
        if y_pred.ndim == 1:
            raise ValueError("When class_id is provided, y_pred must be a 2D array of shape "
                             f"(num_samples, num_classes). Received: y_pred.shape={y_pred.shape}")
        y_true = y_true[..., class_id, None]
        y_pred = y_pred[..., class_id, None]
    try:
        y_true = np.broadcast_to(y_true, y_pred.shape)
        weights = np.ones(y_pred.shape, dtype) if sample_weight is None else \
            np.broadcast_to(sample_weight, y_pred.shape)
    except ValueError:
        raise ValueError(
            "Labels and sample weights must match the predictions' shape. Received: "
            f"y_true.shape={np.shape(y_true)}, y_pred.shape={y_pred.shape}, "
            f"sample_weight.shape={np.shape(sample_weight)}") from None
    if label_weights is not None and not multi_label:
        weights = weights * np.broadcast_to(np.asarray(label_weights, dtype), y_pred.shape)
    positive = y_true != 0
    if not multi_label:
        positive, y_pred, weights = positive.reshape(-1), y_pred.reshape(-1), weights.reshape(-1)
    state = [counts[key].value if key in counts else None for key in ("tp", "fp", "tn", "fn")]
    updates.confusion_counts_update(*state, positive, y_pred, weights,
                                    np.asarray(thresholds, dtype=dtype), multi_label=multi_label,
                                    evenly_distributed=evenly_distributed)


def divide_no_nan(a, b):
    """`a / b`, with 0 where `b` is 0."""
    a, b = np.asarray(a), np.asarray(b)
    out = np.zeros(np.broadcast_shapes(a.shape, b.shape), dtype=np.result_type(a, b))
    np.divide(a, b, out=out, where=b != 0)
    return out
