"""Tests of hikeras.metrics: state, epoch exactness, accuracies, get and config."""

import json

import numpy as np
import pytest

from hikeras import losses, metrics
from hikeras.backend import GradientTape, Variable

# ------------------------------------------------------------ Mean / Sum


def test_mean_and_weighted_mean():
    m = metrics.Mean()
    m.update_state([1, 3, 5, 7])
    assert float(m.result()) == 4.0
    m.reset_state()
    m.update_state([1, 3, 5, 7], sample_weight=[1, 1, 0, 0])
    assert float(m.result()) == 2.0
    assert m.result().dtype == np.float32


def test_mean_is_exact_over_batches_of_different_sizes():
    values = np.array([1.0, 2.0, 3.0, 4.0, 10.0, 20.0])
    m = metrics.Mean()
    m.update_state(values[:4])
    m.update_state(values[4:])
    assert float(m.result()) == pytest.approx(values.mean())  # 6.667, not (2.5 + 15) / 2
    weights = np.array([1.0, 0.0, 2.0, 1.0, 0.5, 0.0])
    m.reset_state()
    m.update_state(values[:4], sample_weight=weights[:4])
    m.update_state(values[4:], sample_weight=weights[4:])
    assert float(m.result()) == pytest.approx(np.average(values, weights=weights))


def test_mean_of_batch_scalars_weighted_by_batch_size():
    # How a trainer averages batch losses exactly: each batch mean weighted by its size.
    m = metrics.Mean()
    m.update_state(np.float32(2.0), sample_weight=4)
    m.update_state(np.float32(5.0), sample_weight=2)
    assert float(m.result()) == pytest.approx((2.0 * 4 + 5.0 * 2) / 6)


def test_mean_of_per_timestep_values_averages_within_each_sample():
    m = metrics.Mean()
    m.update_state(np.array([[1.0, 3.0], [5.0, 7.0], [0.0, 0.0]]))
    assert float(m.result()) == pytest.approx(16.0 / 6)
    assert float(m.count.value) == 3.0


def test_reset_state_and_empty_result():
    m = metrics.Mean()
    assert float(m.result()) == 0.0
    m.update_state([2.0, 4.0])
    m.reset_state()
    assert float(m.result()) == 0.0
    assert float(m.total.value) == 0.0 and float(m.count.value) == 0.0
    m.update_state([5.0])
    assert float(m.result()) == 5.0


def test_sum():
    m = metrics.Sum()
    m.update_state([1, 3, 5, 7])
    m.update_state([1], sample_weight=[10])
    assert float(m.result()) == 26.0
    m.reset_state()
    m.update_state([1, 3, 5, 7], sample_weight=[1, 1, 0, 0])
    assert float(m.result()) == 4.0


def test_dtype_and_keras_policy_dicts():
    assert metrics.Mean(dtype="float64").result().dtype == np.float64
    policy = {"class_name": "DTypePolicy", "config": {"name": "float64"}}
    assert metrics.Mean(dtype=policy).dtype == "float64"
    assert losses.MeanSquaredError(dtype=policy).dtype == "float64"


def test_variables_are_non_trainable_and_listed():
    m = metrics.Mean(name="loss_mean")
    assert [v.name for v in m.variables] == ["total", "count"]
    assert all(isinstance(v, Variable) and not v.trainable for v in m.variables)
    assert m.variables[0].path == "loss_mean/total"


def test_call_updates_then_returns_result():
    m = metrics.Mean()
    assert float(m([1.0, 3.0])) == 2.0
    assert float(m([8.0])) == 4.0


def test_bad_sample_weight_shape_is_a_clear_error():
    with pytest.raises(ValueError, match=r"sample_weight.shape=\(3,\)"):
        metrics.Mean().update_state(np.ones(4), sample_weight=np.ones(3))


# ------------------------------------------------------ MeanMetricWrapper


@pytest.mark.parametrize("label_shape", [(6, 1), (6,)])
def test_wrapper_is_exact_over_a_smaller_last_batch(label_shape):
    rng = np.random.default_rng(0)
    y = rng.normal(size=label_shape)
    p = rng.normal(size=label_shape)
    per_sample = np.square(y - p).reshape(6)
    m = metrics.MeanMetricWrapper(losses.mean_squared_error)
    m.update_state(y[:4], p[:4])
    m.update_state(y[4:], p[4:])
    assert float(m.result()) == pytest.approx(per_sample.mean(), rel=1e-6)
    weights = np.array([1.0, 2.0, 0.0, 1.0, 3.0, 0.0])
    m.reset_state()
    m.update_state(y[:4], p[:4], sample_weight=weights[:4])
    m.update_state(y[4:], p[4:], sample_weight=weights[4:])
    assert float(m.result()) == pytest.approx(np.average(per_sample, weights=weights), rel=1e-6)


def test_wrapper_passes_kwargs_and_names_itself_after_fn():
    m = metrics.MeanMetricWrapper(metrics.binary_accuracy, threshold=0.9)
    assert m.name == "binary_accuracy"
    m.update_state([[1], [1], [0]], [[0.95], [0.8], [0.1]])
    assert float(m.result()) == pytest.approx(2 / 3)


def test_metrics_never_record_on_a_tape():
    p = np.array([[0.2, 0.8], [0.6, 0.4]])
    y = np.array([[0.0, 1.0], [0.0, 1.0]])
    weights = Variable(np.ones((2, 2)), name="w", trainable=True)
    with GradientTape() as tape:
        tracked = weights * p  # a tracked Tensor, as a model's output would be
        before = len(tape._nodes)
        for metric in (metrics.MeanSquaredError(), metrics.CategoricalAccuracy(),
                       metrics.MeanMetricWrapper(losses.categorical_crossentropy)):
            metric.update_state(y, tracked)
            assert np.isfinite(float(metric.result()))
        assert len(tape._nodes) == before


def test_regression_metrics():
    m = metrics.MeanSquaredError()
    m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    assert float(m.result()) == pytest.approx(0.25)
    m = metrics.MeanAbsoluteError()
    m.update_state([[0, 1], [0, 0]], [[2, 1], [0, 0]], sample_weight=[1, 3])
    assert float(m.result()) == pytest.approx(1.0 / 4)
    assert metrics.mse is metrics.MSE is losses.mean_squared_error
    assert metrics.mae is metrics.MAE is losses.mean_absolute_error


# ------------------------------------------------------------- accuracies


def test_accuracy_exact_match():
    m = metrics.Accuracy()
    m.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    assert float(m.result()) == 0.75
    m.reset_state()
    m.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]], sample_weight=[1, 1, 0, 0])
    assert float(m.result()) == 0.5
    # Keras 3: one match per element; `Mean` averages within, then across samples
    np.testing.assert_array_equal(metrics.accuracy([[1, 2], [3, 4]], [[1, 0], [3, 4]]),
                                  [[1.0, 0.0], [1.0, 1.0]])


def test_binary_accuracy_threshold():
    m = metrics.BinaryAccuracy()
    m.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
    assert float(m.result()) == 0.75
    np.testing.assert_array_equal(
        metrics.binary_accuracy([1, 1, 0, 0], [0.98, 0.5, 0.0, 0.6], threshold=0.7),
        [1.0, 0.0, 1.0, 1.0])
    np.testing.assert_array_equal(
        metrics.binary_accuracy(np.array([1.0, 0.0]), np.array([[0.7], [0.2]])), [[1.0], [1.0]])
    with pytest.raises(ValueError, match="threshold=1.5"):
        metrics.BinaryAccuracy(threshold=1.5)


def test_binary_accuracy_rank_one_batches_count_per_sample():
    m = metrics.BinaryAccuracy()
    m.update_state([1, 1, 1, 1], [0.9, 0.9, 0.9, 0.9])  # 4 right
    m.update_state([1, 1], [0.1, 0.1])  # 2 wrong
    assert float(m.result()) == pytest.approx(4 / 6)


def test_categorical_accuracy():
    m = metrics.CategoricalAccuracy()
    m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    assert float(m.result()) == 0.5
    m.reset_state()
    m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]],
                   sample_weight=[0.7, 0.3])
    assert float(m.result()) == pytest.approx(0.3)


def test_categorical_accuracy_rejects_integer_labels():
    with pytest.raises(ValueError, match="use sparse_categorical_accuracy"):
        metrics.categorical_accuracy(np.array([[2], [1]]), np.full((2, 3), 1 / 3))


@pytest.mark.parametrize("labels", [[2, 1, 0, 1], [[2], [1], [0], [1]]])
def test_sparse_categorical_accuracy_label_shapes(labels):
    p = np.array([[0.1, 0.6, 0.3], [0.05, 0.95, 0], [0.5, 0.2, 0.3], [0.3, 0.3, 0.4]])
    values = metrics.sparse_categorical_accuracy(labels, p)
    np.testing.assert_array_equal(values, [0.0, 1.0, 1.0, 0.0])
    m = metrics.SparseCategoricalAccuracy()
    m.update_state(labels, p, sample_weight=[0.5, 1.0, 1.0, 0.0])
    assert float(m.result()) == pytest.approx(2.0 / 2.5)


def test_sparse_categorical_accuracy_segmentation_labels():
    rng = np.random.default_rng(3)
    p = rng.random((2, 4, 4, 5))
    labels = rng.integers(0, 5, size=(2, 4, 4))
    expected = (p.argmax(-1) == labels).astype(np.float32)
    np.testing.assert_array_equal(metrics.sparse_categorical_accuracy(labels, p), expected)
    np.testing.assert_array_equal(metrics.sparse_categorical_accuracy(labels[..., None], p),
                                  expected)
    m = metrics.SparseCategoricalAccuracy()
    m.update_state(labels, p)
    assert float(m.result()) == pytest.approx(expected.mean())


def test_sparse_categorical_accuracy_rejects_one_hot_labels():
    with pytest.raises(ValueError, match="one-hot"):
        metrics.sparse_categorical_accuracy(np.eye(3), np.eye(3))


SEGMENT_PROBS = np.array([[[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]],
                          [[0.2, 0.2, 0.6], [0.5, 0.4, 0.1], [0.1, 0.1, 0.8]]], "float32")
SEGMENT_LABELS = np.array([[0, -1, 2], [-1, -1, 1]])  # -1: a "void" position


def test_sparse_crossentropy_metric_leaves_ignored_positions_out():
    kept = -np.log([0.7, 0.4, 0.1])  # sample 0 positions 0 and 2, sample 1 position 2
    m = metrics.SparseCategoricalCrossentropy(ignore_class=-1)
    m.update_state(SEGMENT_LABELS, SEGMENT_PROBS)
    np.testing.assert_allclose(m.result(), kept.mean(), rtol=1e-6)
    loss = losses.SparseCategoricalCrossentropy(ignore_class=-1)
    np.testing.assert_allclose(m.result(), loss(SEGMENT_LABELS, SEGMENT_PROBS), rtol=1e-6)
    weighted = metrics.SparseCategoricalCrossentropy(ignore_class=-1)
    weighted.update_state(SEGMENT_LABELS[..., None], SEGMENT_PROBS, sample_weight=[1.0, 2.0])
    np.testing.assert_allclose(weighted.result(), (kept[0] + kept[1] + 2 * kept[2]) / 4,
                               rtol=1e-6)
    assert weighted.get_config()["ignore_class"] == -1


def test_top_k_accuracies():
    p = np.array([[0.1, 0.9, 0.8, 0.0], [0.05, 0.95, 0.0, 0.0], [0.4, 0.3, 0.2, 0.1]])
    labels = np.array([2, 1, 3])
    np.testing.assert_array_equal(metrics.sparse_top_k_categorical_accuracy(labels, p, k=1),
                                  [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(metrics.sparse_top_k_categorical_accuracy(labels, p, k=2),
                                  [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(
        metrics.top_k_categorical_accuracy(np.eye(4)[labels], p, k=2), [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(metrics.sparse_top_k_categorical_accuracy(labels, p), [1, 1, 1])
    # Ties at the k-th score count as in the top k, as in Keras.
    np.testing.assert_array_equal(
        metrics.sparse_top_k_categorical_accuracy([0, 2], [[0.5, 0.5, 0.0], [0.2, 0.4, 0.4]], k=1),
        [1.0, 1.0])
    m = metrics.SparseTopKCategoricalAccuracy(k=1)
    m.update_state([[2], [1]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], sample_weight=[0.7, 0.3])
    assert float(m.result()) == pytest.approx(0.3)
    m = metrics.TopKCategoricalAccuracy(k=1)
    m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    assert float(m.result()) == 0.5
    with pytest.raises(ValueError, match="label value of 7"):
        metrics.sparse_top_k_categorical_accuracy([7, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])


# ------------------------------------------------------ get and config


def test_get_strings():
    assert metrics.get("mse") is losses.mean_squared_error
    assert metrics.get("mae") is losses.mean_absolute_error
    assert metrics.get("accuracy") is metrics.accuracy
    assert metrics.get("binary_accuracy") is metrics.binary_accuracy
    assert metrics.get("categorical_accuracy") is metrics.categorical_accuracy
    assert metrics.get("sparse_categorical_accuracy") is metrics.sparse_categorical_accuracy
    assert metrics.get("categorical_crossentropy") is losses.categorical_crossentropy
    assert isinstance(metrics.get("CategoricalAccuracy"), metrics.CategoricalAccuracy)
    assert isinstance(metrics.get(metrics.Mean), metrics.Mean)
    m = metrics.Accuracy()
    assert metrics.get(m) is m
    assert metrics.get(None) is None


def test_get_unknown_name_lists_valid_choices():
    with pytest.raises(ValueError, match="Unknown metric: 'acuracy'") as info:
        metrics.get("acuracy")
    assert "sparse_categorical_accuracy" in str(info.value)


@pytest.mark.parametrize("metric", [
    metrics.Mean(name="my_mean"),
    metrics.Sum(dtype="float64"),
    metrics.Accuracy(),
    metrics.BinaryAccuracy(threshold=0.3),
    metrics.CategoricalAccuracy(name="acc"),
    metrics.SparseCategoricalAccuracy(),
    metrics.TopKCategoricalAccuracy(k=3),
    metrics.SparseTopKCategoricalAccuracy(k=2, name="top2"),
    metrics.MeanSquaredError(),
    metrics.MeanAbsoluteError(name="mae"),
    metrics.MeanMetricWrapper(metrics.binary_accuracy, name="strict", threshold=0.8),
    metrics.MeanMetricWrapper(losses.categorical_crossentropy, from_logits=True),
])
def test_config_round_trip(metric):
    config = metric.get_config()
    json.dumps(config)
    rebuilt = type(metric).from_config(config)
    assert rebuilt.get_config() == config
    again = metrics.deserialize(json.loads(json.dumps(metrics.serialize(metric))))
    assert type(again) is type(metric) and again.get_config() == config


def test_keras_config_keys():
    assert metrics.BinaryAccuracy().get_config() == {
        "name": "binary_accuracy", "dtype": "float32", "threshold": 0.5}
    assert metrics.SparseTopKCategoricalAccuracy().get_config() == {
        "name": "sparse_top_k_categorical_accuracy", "dtype": "float32", "k": 5}
    assert metrics.MeanMetricWrapper(metrics.binary_accuracy, threshold=0.8).get_config() == {
        "name": "binary_accuracy", "dtype": "float32", "fn": "binary_accuracy", "threshold": 0.8}


def test_rebuilt_wrapper_computes_the_same():
    m = metrics.MeanMetricWrapper(losses.categorical_crossentropy, from_logits=True)
    rebuilt = metrics.MeanMetricWrapper.from_config(m.get_config())
    y, p = np.eye(3), np.array([[2.0, 0.0, 0.0], [0.0, 1.0, 0.5], [0.1, 0.2, 0.3]])
    assert float(m(y, p)) == pytest.approx(float(rebuilt(y, p)))


def test_custom_metric_subclass():
    class Maximum(metrics.Metric):
        def __init__(self, name=None, dtype=None):
            super().__init__(name=name, dtype=dtype)
            self.best = self.add_variable(shape=(), initializer="zeros", name="best")

        def update_state(self, values):
            self.best.assign(max(float(self.best.value), float(np.max(values))))

        def result(self):
            return self.best.value.copy()

    m = Maximum()
    assert m.name == "maximum"
    m.update_state([1.0, 4.0])
    m.update_state([2.0])
    assert float(m.result()) == 4.0
    m.reset_state()
    assert float(m.result()) == 0.0


def test_direction_hints():
    assert metrics.Accuracy()._direction == "up"
    assert metrics.MeanSquaredError()._direction == "down"
    assert metrics.MeanMetricWrapper(losses.binary_crossentropy)._direction == "down"
