"""Confusion-count metrics against hand counts; exactness over any batching."""

import numpy as np
import pytest

from hikeras import metrics

Y = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1], dtype="float32")
S = np.array([0.9, 0.8, 0.3, 0.6, 0.1, 0.55, 0.45, 0.0, 1.0, 0.7], dtype="float32")


def test_precision_recall_by_hand():
    precision, recall = metrics.Precision(), metrics.Recall()
    for m in (precision, recall):
        m.update_state(Y, S)
    # predicted positive (> 0.5): idx 0,1,3,5,8,9 -> tp 4 (0,3,8,9), fp 2 (1,5); fn 2 (2,6)
    assert float(precision.result()) == pytest.approx(4 / 6)
    assert float(recall.result()) == pytest.approx(4 / 6)
    at = metrics.Precision(thresholds=[0.0, 0.75])
    at.update_state(Y, S)
    np.testing.assert_allclose(at.result(), [6 / 9, 2 / 3])  # score 0.0 is not > 0


def test_auc_roc_equals_the_rank_statistic_for_distinct_scores():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    s = rng.random(400)
    m = metrics.AUC(num_thresholds=10001)
    m.update_state(y, s)
    pos, neg = s[y == 1], s[y == 0]
    exact = np.mean(pos[:, None] > neg[None, :])
    assert float(m.result()) == pytest.approx(exact, abs=2e-3)


@pytest.mark.parametrize("make", [
    lambda: metrics.Precision(thresholds=[0.3, 0.5]), lambda: metrics.Recall(),
    lambda: metrics.AUC(), lambda: metrics.AUC(curve="PR"),
    lambda: metrics.F1Score(average="macro", threshold=0.5),
])
def test_epoch_value_does_not_depend_on_batching(make):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, (50, 2)).astype("float32")
    s = rng.random((50, 2)).astype("float32")
    whole, pieces = make(), make()
    whole.update_state(y, s)
    for lo, hi in ((0, 7), (7, 32), (32, 50)):
        pieces.update_state(y[lo:hi], s[lo:hi])
    np.testing.assert_allclose(pieces.result(), whole.result(), rtol=1e-6)


def test_f1_per_class_and_averages_by_hand():
    y = np.array([[1, 0, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1]], "float32")
    p = np.array([[0.9, 0.1, 0], [0.2, 0.7, 0.1], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8]], "float32")
    m = metrics.F1Score()
    m.update_state(y, p)
    # argmax: class 0 predicted twice (1 right), class 1 once (right), class 2 once (right)
    f1 = np.array([2 * 0.5 * 1 / 1.5, 2 * 1 * 0.5 / 1.5, 1.0])
    np.testing.assert_allclose(m.result(), f1, rtol=1e-5)
    weighted = metrics.F1Score(average="weighted")
    weighted.update_state(y, p)
    assert float(weighted.result()) == pytest.approx(np.sum(f1 * [1, 2, 1]) / 4, rel=1e-5)


def test_mean_iou_by_hand_with_ignore_class():
    y = np.array([0, 0, 1, 1, 2, 255])
    p = np.array([0, 1, 1, 1, 0, 2])
    m = metrics.MeanIoU(num_classes=3, ignore_class=255)
    m.update_state(y, p)
    # class 0: tp 1, fp 1, fn 1 -> 1/3; class 1: tp 2, fp 1 -> 2/3; class 2: tp 0 fn 1 -> 0
    assert float(m.result()) == pytest.approx((1 / 3 + 2 / 3 + 0) / 3, rel=1e-5)
    iou = metrics.IoU(num_classes=3, target_class_ids=[1])
    iou.update_state(y[:5], p[:5])
    assert float(iou.result()) == pytest.approx(2 / 3, rel=1e-5)


def test_rmse_and_cosine_similarity_metric_by_hand():
    rmse = metrics.RootMeanSquaredError()
    rmse.update_state([[0.0, 0.0], [1.0, 1.0]], [[3.0, 4.0], [1.0, 1.0]])
    assert float(rmse.result()) == pytest.approx(np.sqrt(25 / 4))
    cos = metrics.CosineSimilarity()
    cos.update_state([[1.0, 0.0], [0.0, 2.0]], [[1.0, 1.0], [0.0, 5.0]])
    assert float(cos.result()) == pytest.approx((1 / np.sqrt(2) + 1) / 2)
