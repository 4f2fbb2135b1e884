"""Metric update ops against plain-numpy references (loops and sums, no buckets)."""

import numpy as np
import pytest

from hikeras.backend import apply
from tests.helpers.check_op import params
from tests.helpers.check_update_op import update_case


def _mean_ref(total, count, values, weight):
    if weight is None:
        per_sample = values.reshape(len(values), -1).mean(axis=1) if values.ndim else values
        return total + per_sample.sum(), count + (len(values) if values.ndim else 1)
    if values.ndim > weight.ndim:  # average each sample's extra axes first
        values = values.mean(axis=tuple(range(weight.ndim, values.ndim)))
    weight = np.broadcast_to(weight, values.shape)
    n = len(values) if values.ndim else 1
    weighted = (values * weight).reshape(n, -1).mean(axis=1)
    return total + weighted.sum(), count + weight.reshape(n, -1).mean(axis=1).sum()


def _sum_ref(total, values, weight):
    if weight is None:
        return (total + values.sum(),)
    if values.ndim > weight.ndim:
        values = values.sum(axis=tuple(range(weight.ndim, values.ndim)))
    return (total + (values * weight).sum(),)


def _confusion_ref(tp, fp, tn, fn, positive, y_pred, weights, thresholds, *, multi_label,
                   evenly_distributed):
    """A loop over thresholds: `y_pred > t` is a predicted positive."""
    axis = 0 if multi_label else None
    out = []
    for t in thresholds:
        above = y_pred > t
        out.append(((weights * (positive & above)).sum(axis=axis),
                    (weights * (~positive & above)).sum(axis=axis),
                    (weights * (~positive & ~above)).sum(axis=axis),
                    (weights * (positive & ~above)).sum(axis=axis)))
    new = [np.stack([row[k] for row in out]) for k in range(4)]
    return tuple(None if count is None else count + add
                 for count, add in zip((tp, fp, tn, fn), new))


def _confusion_matrix_ref(total, labels, predictions, weights, *, ignore_class):
    total = total.copy()
    n = total.shape[0]
    for label, prediction, weight in zip(labels, predictions, weights):
        if 0 <= label < n and 0 <= prediction < n and label != ignore_class:
            total[int(label), int(prediction)] += weight
    return (total,)


def _cases():
    rng = np.random.default_rng(22)

    def r(*shape):
        return rng.uniform(0.0, 1.0, size=shape)

    cases = [
        update_case("mean_metric_update", np.array(1.5), np.array(2.0), r(6), None,
                    reference=_mean_ref, label="unweighted"),
        update_case("mean_metric_update", np.array(1.5), np.array(2.0), r(6, 3), None,
                    reference=_mean_ref, label="unweighted-per-position"),
        update_case("mean_metric_update", np.array(0.0), np.array(0.0), np.array(0.25), None,
                    reference=_mean_ref, label="scalar"),
        update_case("mean_metric_update", np.array(1.5), np.array(2.0), r(6), r(6),
                    reference=_mean_ref, label="weighted"),
        update_case("mean_metric_update", np.array(1.5), np.array(2.0), r(6, 3, 2), r(6),
                    reference=_mean_ref, label="weights-per-sample"),
        update_case("mean_metric_update", np.array(1.5), np.array(2.0), r(6, 3), r(6, 3),
                    reference=_mean_ref, label="weights-per-position"),
        update_case("sum_metric_update", np.array(1.5), r(6, 3), None, reference=_sum_ref,
                    label="unweighted"),
        update_case("sum_metric_update", np.array(1.5), r(6, 3, 2), r(6, 3), reference=_sum_ref,
                    label="weighted"),
    ]
    # Scores on a grid between the thresholds, so float32 and float64 agree on `y > t`.
    evenly = np.linspace(0.0, 1.0, 11)
    grid = (np.arange(10) + 0.5) / 10

    def scores(*shape):
        return rng.choice(np.concatenate([grid, [0.0, 1.0]]), size=shape)

    def counts(*shape):
        return rng.integers(0, 5, size=shape).astype(np.float64)

    for label, multi, thresholds, kept in [
            ("direct", False, np.array([0.25, 0.55, 0.8]), "tp fp tn fn"),
            ("direct-precision", False, np.array([0.25, 0.55, 0.8]), "tp fp"),
            ("buckets", False, evenly, "tp fp tn fn"),
            ("buckets-widened", False, np.concatenate([[-1e-7], evenly[1:-1], [1 + 1e-7]]),
             "tp fp tn fn"),
            ("multi-label-buckets", True, evenly, "tp fp tn fn"),
            ("multi-label-direct", True, np.array([0.25, 0.55, 0.8]), "tp tn")]:
        shape = (12, 3) if multi else (36,)
        state = [counts(len(thresholds), *shape[1:]) if key in kept.split() else None
                 for key in ("tp", "fp", "tn", "fn")]
        cases.append(update_case(
            "confusion_counts_update", *state, rng.random(shape) > 0.5, scores(*shape),
            r(*shape), thresholds, label=label, reference=_confusion_ref,
            attrs={"multi_label": multi,
                   "evenly_distributed": label.endswith("buckets") or "widened" in label}))
    for ignore_class in (None, 1):
        cases.append(update_case(
            "confusion_matrix_update", counts(4, 4), rng.integers(-1, 5, 30).astype(np.float64),
            rng.integers(0, 4, 30).astype(np.float64), r(30), attrs={"ignore_class": ignore_class},
            reference=_confusion_matrix_ref, label=f"ignore_class={ignore_class}"))
    return cases


CASES = _cases()


@pytest.mark.parametrize("op_case", params(CASES))
def test_metric_update_op(op_case):
    op_case.run()


def test_weighted_mean_by_hand():
    total, count = np.zeros((), np.float32), np.zeros((), np.float32)
    apply("mean_metric_update", total, count, np.array([1.0, 3.0, 5.0, 7.0], np.float32),
          np.array([1.0, 1.0, 0.0, 0.0], np.float32))
    assert (float(total), float(count)) == (4.0, 2.0)
    apply("mean_metric_update", total, count, np.array([[2.0, 4.0]], np.float32), None)
    assert (float(total), float(count)) == (7.0, 3.0)  # one sample, the mean of its values


def test_confusion_counts_by_hand():
    tp, fp, tn, fn = (np.zeros(2, np.float32) for _ in range(4))
    positive = np.array([True, True, False, False])
    y_pred = np.array([0.9, 0.4, 0.6, 0.1], np.float32)
    apply("confusion_counts_update", tp, fp, tn, fn, positive, y_pred,
          np.array([1.0, 2.0, 3.0, 4.0], np.float32), np.array([0.3, 0.5], np.float32),
          multi_label=False, evenly_distributed=False)
    assert tp.tolist() == [3.0, 1.0] and fp.tolist() == [3.0, 3.0]
    assert tn.tolist() == [4.0, 4.0] and fn.tolist() == [0.0, 2.0]


def test_confusion_matrix_by_hand():
    total = np.zeros((3, 3), np.int32)
    apply("confusion_matrix_update", total, np.array([0, 1, 1, 2, 5], np.int32),
          np.array([0, 1, 2, 2, 0], np.int32), np.ones(5, np.int32), ignore_class=None)
    assert total.tolist() == [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
