"""Metrics accumulate through the backend's update ops, in place.

The accumulation kernels are checked against plain-numpy references in
`tests/backend/test_ops_metric_updates.py`; Keras's values in
`test_keras_golden.py`.
"""

import numpy as np
import pytest

from hikeras import metrics
from tests.helpers.recording_backend import recording_update_ops

Y_TRUE = np.array([[0.0], [1.0], [1.0], [0.0]], np.float32)
Y_PRED = np.array([[0.2], [0.7], [0.4], [0.9]], np.float32)

METRICS = [
    (lambda: metrics.Mean(), (np.array([1.0, 2.0]),), "mean_metric_update"),
    (lambda: metrics.Sum(), (np.array([1.0, 2.0]),), "sum_metric_update"),
    (lambda: metrics.BinaryAccuracy(), (Y_TRUE, Y_PRED), "mean_metric_update"),
    (lambda: metrics.MeanSquaredError(), (Y_TRUE, Y_PRED), "mean_metric_update"),
    (lambda: metrics.Precision(), (Y_TRUE, Y_PRED), "confusion_counts_update"),
    (lambda: metrics.Recall(), (Y_TRUE, Y_PRED), "confusion_counts_update"),
    (lambda: metrics.TruePositives(), (Y_TRUE, Y_PRED), "confusion_counts_update"),
    (lambda: metrics.AUC(), (Y_TRUE, Y_PRED), "confusion_counts_update"),
    (lambda: metrics.PrecisionAtRecall(0.5), (Y_TRUE, Y_PRED), "confusion_counts_update"),
    (lambda: metrics.MeanIoU(num_classes=2), (Y_TRUE, Y_PRED > 0.5), "confusion_matrix_update"),
]


@pytest.mark.parametrize("make,args,op", METRICS, ids=lambda x: x if isinstance(x, str) else "")
def test_update_state_runs_the_backends_update_op(make, args, op):
    metric = make()
    expected = metric(*args)
    metric.reset_state()
    arrays = [v.value for v in metric.variables]
    with recording_update_ops() as calls:
        got = metric(*args)
    assert calls == [op]
    np.testing.assert_array_equal(got, expected)
    assert all(v.value is a for v, a in zip(metric.variables, arrays)), "state was replaced"
