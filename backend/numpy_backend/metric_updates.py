"""Metric update ops: the per-batch accumulation of metric state, in place.

A metric's state is a few arrays (a running total and count, confusion
counts per threshold, a confusion matrix); each op adds one batch into them
(`mutates`) and returns None. They are never differentiated. The metrics
call them through `hikeras/ops/updates.py` after checking and aligning
shapes, so the kernels receive inputs that already fit together.
"""

import numpy as np

from .. import shape_rules as rules
from ._registry import define


def _update_op(name, mutates):
    return define(name, shape=rules.updates_in_place, mutates=mutates, differentiable=False)


def _samplewise(values, sample_weight, reduce_fn):
    """One value (and one weight) per sample, as Keras's `Mean` and `Sum` reduce them.

    Values with more axes than the weights are first reduced over the extra
    trailing axes, then multiplied by the weights; both are finally reduced
    to shape `(batch_size,)` with `reduce_fn` (`np.mean` or `np.sum`).
    """
    if sample_weight is not None:
        weight = sample_weight
        if values.ndim > weight.ndim:
            values = reduce_fn(values, axis=tuple(range(weight.ndim, values.ndim)))
        weight = np.broadcast_to(weight, values.shape)
        values = values * weight
        if weight.ndim > 1:
            weight = reduce_fn(weight, axis=tuple(range(1, weight.ndim)))
        sample_weight = weight
    if values.ndim > 1:
        values = reduce_fn(values, axis=tuple(range(1, values.ndim)))
    return values, sample_weight


@_update_op("mean_metric_update", mutates=(0, 1))
def mean_metric_update(total, count, values, sample_weight=None):
    """`total += sum of weighted per-sample means`, `count += sum of weights`.

    Each sample's values (all axes after the first) are averaged first, so
    a sample counts once whatever its shape; without weights, `count` grows
    by the number of samples (1 for a scalar).
    """
    values, weight = _samplewise(values, sample_weight, np.mean)
    total += values.sum()
    if weight is not None:
        count += weight.sum()
    else:
        count += values.shape[0] if values.ndim else 1


@_update_op("sum_metric_update", mutates=(0,))
def sum_metric_update(total, values, sample_weight=None):
    """`total += sum of values * sample_weight` (weights broadcast over trailing axes)."""
    values, _ = _samplewise(values, sample_weight, np.sum)
    total += values.sum()


@_update_op("confusion_counts_update", mutates=(0, 1, 2, 3))
def confusion_counts_update(true_positives, false_positives, true_negatives, false_negatives,
                            positive, y_pred, weights, thresholds, *, multi_label=False,
                            evenly_distributed=False):
    """Adds the weighted confusion counts at every threshold; a count passed as None is skipped.

    `positive` (bool labels), `y_pred` and `weights` have one shape: flat,
    or `(batch, labels)` with `multi_label`, where each label keeps its own
    counts (shape `(thresholds, labels)`). A prediction counts as positive
    at threshold `t` when `y_pred > t`. With `evenly_distributed`
    thresholds over `[0, 1]` (AUC's), the counts come from one pass that
    drops each prediction into its bucket followed by a reversed cumulative
    sum (Keras's method), instead of a comparison against every threshold.
    """
    counts_of = _bucketed_counts if evenly_distributed else _direct_counts
    tp, fp, total_true, total_false = counts_of(positive, y_pred, weights, thresholds,
                                                multi_label)
    if true_positives is not None:
        true_positives += tp
    if false_positives is not None:
        false_positives += fp
    if true_negatives is not None:
        true_negatives += total_false - fp
    if false_negatives is not None:
        false_negatives += total_true - tp


def _bucketed_counts(positive, y_pred, weights, thresholds, multi_label):
    n = len(thresholds)
    dtype = weights.dtype
    true_w = np.where(positive, weights, 0).astype(dtype)
    false_w = np.where(positive, 0, weights).astype(dtype)
    scaled = np.clip(y_pred, 0.0, 1.0) * np.asarray(n - 1, dtype)
    buckets = np.ceil(scaled) - 1
    if thresholds[0] < 0.0 or thresholds[-1] > 1.0:  # widened ends: 0 counts above t_0
        buckets = np.maximum(buckets, 0)
    buckets = buckets.astype(np.int64)
    if multi_label:
        columns = [_bucket_sums(buckets[:, j], true_w[:, j], false_w[:, j], n)
                   for j in range(buckets.shape[1])]
        tp = np.stack([c[0] for c in columns], axis=1)
        fp = np.stack([c[1] for c in columns], axis=1)
        return tp, fp, true_w.sum(axis=0), false_w.sum(axis=0)
    tp, fp = _bucket_sums(buckets, true_w, false_w, n)
    return tp, fp, true_w.sum(), false_w.sum()


def _bucket_sums(buckets, true_w, false_w, n):
    """Per threshold, the weight of positives/negatives scoring above it."""
    valid = buckets >= 0  # a score of 0 exceeds no threshold of 0
    tp = np.bincount(buckets[valid], weights=true_w[valid], minlength=n)[:n]
    fp = np.bincount(buckets[valid], weights=false_w[valid], minlength=n)[:n]
    dtype = true_w.dtype
    return (np.cumsum(tp[::-1])[::-1].astype(dtype), np.cumsum(fp[::-1])[::-1].astype(dtype))


def _direct_counts(positive, y_pred, weights, thresholds, multi_label):
    shape = (-1,) + (1,) * y_pred.ndim
    above = y_pred[None] > thresholds.reshape(shape)  # (thresholds, *y_pred.shape)
    true_w = np.where(positive, weights, 0).astype(weights.dtype)
    false_w = np.where(positive, 0, weights).astype(weights.dtype)
    axis = 1  # the batch (or flattened) axis
    tp = np.where(above, true_w, 0).sum(axis=axis, dtype=weights.dtype)
    fp = np.where(above, false_w, 0).sum(axis=axis, dtype=weights.dtype)
    return tp, fp, true_w.sum(axis=0), false_w.sum(axis=0)


@_update_op("confusion_matrix_update", mutates=(0,))
def confusion_matrix_update(total, labels, predictions, weights, *, ignore_class=None):
    """`total[label, prediction] += weight` for every valid pair (IoU's confusion matrix).

    `labels`, `predictions` and `weights` are flat and of `total`'s dtype;
    pairs with a class outside `[0, num_classes)`, or whose label is
    `ignore_class`, are left out.
    """
    num_classes = total.shape[0]
    valid = (labels >= 0) & (labels < num_classes) & (predictions >= 0) & \
        (predictions < num_classes)
    if ignore_class is not None:
        valid &= labels != ignore_class
    matrix = np.zeros(total.shape, dtype=total.dtype)
    np.add.at(matrix, (labels[valid].astype(np.int64), predictions[valid].astype(np.int64)),
              weights[valid])
    total += matrix
