"""Every metric against values written by real Keras 3, batch by batch.

Each case feeds two batches of different sizes (6 and 4 samples) and checks
the result after each, so accumulation over an epoch is tested, not just one
call. Edge cases: scores of exactly 0, 0.5 and 1 (threshold ties), a zero
sample weight, a label column without positives, too few values for the
adjusted R² (Keras and hikeras both warn and fall back to the plain R²).
"""

import numpy as np
import pytest

from hikeras import metrics
from tests.fixtures.keras_training import f32, golden

CASES = golden()["metrics"]
_INTEGER_LABELS = {"SparseCategoricalAccuracy", "SparseTopKCategoricalAccuracy",
                   "SparseCategoricalCrossentropy", "MeanIoU", "IoU"}


def _array(value, cls, is_label):
    if value is None:
        return None
    if is_label and cls in _INTEGER_LABELS:
        return np.asarray(value, dtype="int64")
    if cls in ("MeanIoU", "IoU") and not is_label:
        return np.asarray(value) if np.asarray(value).ndim == 2 and \
            np.asarray(value).dtype.kind == "f" and np.asarray(value).shape[-1] == 4 \
            else np.asarray(value, dtype="int64")
    return f32(value)


@pytest.mark.filterwarnings("ignore:R2Score. the adjusted R2 score needs")
@pytest.mark.parametrize("name", sorted(CASES))
def test_metric_matches_keras_after_each_batch(name):
    entry = CASES[name]
    cls = entry["class_name"]
    metric = getattr(metrics, cls)(**entry["config"])
    for batch, expected in zip(entry["batches"], entry["results"]):
        if cls in ("Mean", "Sum"):
            values, weight = batch
            metric.update_state(f32(values), sample_weight=f32(weight))
        else:
            y_true, y_pred, weight = batch
            metric.update_state(_array(y_true, cls, True), _array(y_pred, cls, False),
                                sample_weight=f32(weight))
        if expected is not None:
            np.testing.assert_allclose(np.asarray(metric.result(), dtype="float64"), expected,
                                       rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_metric_resets_and_round_trips_config(name):
    entry = CASES[name]
    metric = getattr(metrics, entry["class_name"])(**entry["config"])
    rebuilt = type(metric).from_config(metric.get_config())
    assert rebuilt.get_config() == metric.get_config()
    metric.reset_state()
    assert all(not np.any(v.value) for v in metric.variables)
