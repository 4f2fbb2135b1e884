"""Tests of hikeras.losses: values, reductions, sample weights, gradients, errors, config."""

import json
import math

import numpy as np
import pytest

from hikeras import losses
from hikeras.backend import GradientTape

EPS = 1e-7


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _bce_reference(y, p):
    p = np.clip(p, EPS, 1 - EPS)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean(axis=-1)


def _cce_reference(y, p):
    p = p / p.sum(axis=-1, keepdims=True)
    return -(y * np.log(np.clip(p, EPS, 1 - EPS))).sum(axis=-1)


# ---------------------------------------------------------------- values

Y2 = np.array([[0.0, 1.0], [0.0, 0.0]])
P2 = np.array([[1.0, 1.0], [1.0, 0.0]])


def test_mean_squared_and_absolute_error_values():
    np.testing.assert_allclose(losses.mean_squared_error(Y2, P2 * 2), [2.5, 2.0])
    np.testing.assert_allclose(losses.mean_absolute_error(Y2, P2 * 2), [1.5, 1.0])
    assert float(losses.MeanSquaredError()(Y2, P2)) == pytest.approx(0.5)
    assert float(losses.MeanAbsoluteError()(Y2, P2 * 2)) == pytest.approx(1.25)
    assert losses.mse is losses.MSE is losses.mean_squared_error
    assert losses.mae is losses.MAE is losses.mean_absolute_error


def test_regression_label_rank_is_matched_to_predictions():
    y = np.array([1.0, 2.0, 3.0])
    p = np.array([[1.0], [3.0], [5.0]])
    np.testing.assert_allclose(losses.mean_squared_error(y, p), [0.0, 1.0, 4.0])
    assert float(losses.MeanSquaredError()(y, p)) == pytest.approx(5.0 / 3)


def test_regression_shape_mismatch_is_a_clear_error():
    with pytest.raises(ValueError, match=r"y_true.shape=\(4, 2\), y_pred.shape=\(4, 3\)"):
        losses.mean_squared_error(np.zeros((4, 2)), np.zeros((4, 3)))


def test_binary_crossentropy_values():
    y = np.array([[0.0, 1.0], [0.0, 0.0]])
    p = np.array([[0.6, 0.4], [0.4, 0.6]])
    np.testing.assert_allclose(losses.binary_crossentropy(y, p), _bce_reference(y, p), rtol=1e-6)
    np.testing.assert_allclose(losses.binary_crossentropy(y, p), [0.9163, 0.7136], atol=1e-4)
    assert float(losses.BinaryCrossentropy()(y, p)) == pytest.approx(0.81492, abs=1e-4)


def test_crossentropy_values_keras_examples():
    y = np.array([[0, 1, 0], [0, 0, 1]])
    p = np.array([[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]])
    np.testing.assert_allclose(losses.categorical_crossentropy(y, p), [0.0513, 2.3026], atol=1e-4)
    np.testing.assert_allclose(
        losses.sparse_categorical_crossentropy(np.array([1, 2]), p), [0.0513, 2.3026], atol=1e-4)
    assert float(losses.CategoricalCrossentropy()(y, p)) == pytest.approx(1.177, abs=1e-3)
    assert float(losses.SparseCategoricalCrossentropy()([1, 2], p)) == pytest.approx(1.177, abs=1e-3)
    # Keras's documented weighted and summed values.
    assert float(losses.CategoricalCrossentropy()(y, p, sample_weight=np.array([0.3, 0.7]))) \
        == pytest.approx(0.814, abs=1e-3)
    assert float(losses.CategoricalCrossentropy(reduction="sum")(y, p)) == pytest.approx(2.354,
                                                                                        abs=1e-3)


def test_categorical_renormalises_unnormalised_probabilities():
    y = np.array([[0.0, 1.0]])
    p = np.array([[2.0, 2.0]])  # sums to 4: treated as [0.5, 0.5]
    np.testing.assert_allclose(losses.categorical_crossentropy(y, p), [math.log(2)], rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_predictions_of_exactly_zero_and_one_are_clipped(dtype):
    clipped = -math.log(EPS)  # ~16.118: a certain, wrong prediction costs -log(epsilon)
    one, zero = np.array([[1.0]], dtype=dtype), np.array([[0.0]], dtype=dtype)
    np.testing.assert_allclose(losses.binary_crossentropy(one, zero), [clipped], rtol=1e-5)
    np.testing.assert_allclose(losses.binary_crossentropy(one, one), [0.0], atol=1e-6)
    # 1 - epsilon rounds in float32, so the other side is -log(1 - float32(1 - 1e-7)).
    upper = np.asarray(1 - EPS, dtype=dtype)
    np.testing.assert_allclose(losses.binary_crossentropy(zero, one), [-np.log(1 - upper)],
                               rtol=1e-5)
    y = np.array([[1.0, 0.0]], dtype=dtype)
    p = np.array([[0.0, 1.0]], dtype=dtype)  # all mass on the wrong class
    np.testing.assert_allclose(losses.categorical_crossentropy(y, p), [clipped], rtol=1e-5)
    np.testing.assert_allclose(losses.categorical_crossentropy(1 - y, p), [0.0], atol=1e-6)
    np.testing.assert_allclose(losses.sparse_categorical_crossentropy([0], p), [clipped], rtol=1e-5)
    np.testing.assert_allclose(losses.sparse_categorical_crossentropy([1], p), [0.0], atol=1e-6)
    assert np.isfinite(float(losses.BinaryCrossentropy(dtype=dtype)(y, p)))


def test_binary_label_smoothing():
    y = np.array([[1.0, 0.0]])
    p = np.array([[0.8, 0.3]])
    expected = _bce_reference(y * 0.8 + 0.1, p)  # 1 -> 0.9, 0 -> 0.1
    np.testing.assert_allclose(losses.binary_crossentropy(y, p, label_smoothing=0.2), expected,
                               rtol=1e-6)
    loss = losses.BinaryCrossentropy(label_smoothing=0.2)
    assert float(loss(y, p)) == pytest.approx(float(expected[0]), rel=1e-6)


def test_categorical_label_smoothing():
    y = np.array([[0.0, 1.0, 0.0]])
    p = np.array([[0.2, 0.7, 0.1]])
    smoothed = y * 0.7 + 0.1  # label_smoothing 0.3 over 3 classes
    expected = _cce_reference(smoothed, p)
    np.testing.assert_allclose(losses.categorical_crossentropy(y, p, label_smoothing=0.3), expected,
                               rtol=1e-6)


def test_from_logits_matches_probabilities(rng):
    rng = np.random.default_rng(0)
    logits = rng.normal(scale=2.0, size=(6, 4))
    onehot = np.eye(4)[rng.integers(0, 4, size=6)]
    np.testing.assert_allclose(
        losses.categorical_crossentropy(onehot, logits, from_logits=True),
        losses.categorical_crossentropy(onehot, _softmax(logits)), atol=1e-5)
    labels = onehot.argmax(-1)
    np.testing.assert_allclose(
        losses.sparse_categorical_crossentropy(labels, logits, from_logits=True),
        losses.sparse_categorical_crossentropy(labels, _softmax(logits)), atol=1e-5)
    targets = rng.integers(0, 2, size=(6, 3)).astype(float)
    bin_logits = rng.normal(scale=2.0, size=(6, 3))
    np.testing.assert_allclose(
        losses.binary_crossentropy(targets, bin_logits, from_logits=True),
        losses.binary_crossentropy(targets, _sigmoid(bin_logits)), atol=1e-5)
    assert float(losses.BinaryCrossentropy(from_logits=True)(targets, bin_logits)) == \
        pytest.approx(float(losses.BinaryCrossentropy()(targets, _sigmoid(bin_logits))), abs=1e-5)


def test_sparse_labels_of_shape_n_1_and_float_dtype():
    p = np.array([[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]])
    expected = losses.sparse_categorical_crossentropy(np.array([1, 2]), p)
    np.testing.assert_allclose(losses.sparse_categorical_crossentropy(np.array([[1], [2]]), p),
                               expected)
    np.testing.assert_allclose(losses.sparse_categorical_crossentropy(np.array([1.0, 2.0]), p),
                               expected)


def test_sparse_segmentation_labels(rng):
    rng = np.random.default_rng(1)
    p = _softmax(rng.normal(size=(2, 3, 3, 4)))
    labels = rng.integers(0, 4, size=(2, 3, 3))
    values = losses.sparse_categorical_crossentropy(labels, p)
    assert values.shape == (2, 3, 3)
    np.testing.assert_allclose(values, _cce_reference(np.eye(4)[labels], p), rtol=1e-5)


def test_sparse_ignore_class():
    p = np.array([[0.05, 0.95, 0.0], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]])
    y = np.array([1, 255, 2])
    values = losses.sparse_categorical_crossentropy(y, p, ignore_class=255)
    full = losses.sparse_categorical_crossentropy(np.array([1, 0, 2]), p)
    np.testing.assert_allclose(values, [full[0], 0.0, full[2]], rtol=1e-6)
    loss = losses.SparseCategoricalCrossentropy(ignore_class=255)
    # The mean is over the two labels that count, not all three.
    assert float(loss(y, p)) == pytest.approx((full[0] + full[2]) / 2, rel=1e-5)
    assert float(losses.SparseCategoricalCrossentropy(ignore_class=-1)([-1, -1, 2], p)) == \
        pytest.approx(full[2], rel=1e-5)


# ------------------------------------------------------ reductions, weights

def _per_sample():
    y = np.array([[0.0], [1.0], [2.0], [3.0]])
    p = np.array([[1.0], [1.0], [0.0], [5.0]])
    return y, p, np.array([1.0, 0.0, 4.0, 4.0])  # per-sample squared errors


@pytest.mark.parametrize("reduction, expected", [
    ("sum_over_batch_size", 9.0 / 4), ("sum", 9.0), ("mean", 9.0 / 4), ("auto", 9.0 / 4),
])
def test_reductions(reduction, expected):
    y, p, _ = _per_sample()
    assert float(losses.MeanSquaredError(reduction=reduction)(y, p)) == pytest.approx(expected)


@pytest.mark.parametrize("reduction", ["none", None])
def test_reduction_none_returns_weighted_values(reduction):
    y, p, per_sample = _per_sample()
    loss = losses.MeanSquaredError(reduction=reduction)
    assert loss.reduction == "none"
    np.testing.assert_allclose(loss(y, p), per_sample)
    np.testing.assert_allclose(loss(y, p, sample_weight=[1, 2, 3, 0]), per_sample * [1, 2, 3, 0])


def test_auto_reduction_is_normalised_and_bad_reduction_rejected():
    assert losses.MeanSquaredError(reduction="auto").get_config()["reduction"] == \
        "sum_over_batch_size"
    with pytest.raises(ValueError, match="reduction='average'"):
        losses.MeanSquaredError(reduction="average")


def test_sample_weight_zero_weights_still_count_in_the_divisor():
    y, p, per_sample = _per_sample()
    weights = np.array([1.0, 0.0, 0.0, 2.0])
    loss = losses.MeanSquaredError()
    assert float(loss(y, p, sample_weight=weights)) == pytest.approx((1.0 + 8.0) / 4)
    assert float(loss(y, p, sample_weight=np.zeros(4))) == 0.0
    mean_w = losses.MeanSquaredError(reduction="mean_with_sample_weight")
    assert float(mean_w(y, p, sample_weight=weights)) == pytest.approx(9.0 / 3)
    assert float(mean_w(y, p, sample_weight=np.zeros(4))) == 0.0


@pytest.mark.parametrize("shape", [(4,), (4, 1), (4, 1, 1)])
def test_sample_weight_shapes_per_sample(shape):
    y, p, per_sample = _per_sample()
    weights = np.array([1.0, 2.0, 3.0, 4.0])
    loss = losses.MeanSquaredError(reduction="none")
    out = loss(y, p, sample_weight=weights.reshape(shape))
    assert out.shape == (4,)
    np.testing.assert_allclose(out, per_sample * weights)


def test_scalar_sample_weight():
    y, p, per_sample = _per_sample()
    assert float(losses.MeanSquaredError()(y, p, sample_weight=2.0)) == \
        pytest.approx(2 * per_sample.mean())


def test_per_sample_weights_scale_every_timestep():
    y = np.zeros((2, 3, 1))
    p = np.arange(6.0).reshape(2, 3, 1)  # per-timestep losses (2, 3)
    loss = losses.MeanSquaredError()
    per_step = np.square(p[..., 0])
    assert float(loss(y, p, sample_weight=np.array([1.0, 0.5]))) == \
        pytest.approx((per_step * [[1.0], [0.5]]).sum() / 6)
    step_w = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    assert float(loss(y, p, sample_weight=step_w)) == pytest.approx((per_step * step_w).sum() / 6)


def test_bad_sample_weight_shape_is_a_clear_error():
    y, p, _ = _per_sample()
    with pytest.raises(ValueError, match=r"sample_weight.shape=\(3,\)"):
        losses.MeanSquaredError()(y, p, sample_weight=np.ones(3))


def test_integer_predictions_are_cast_to_the_loss_dtype():
    out = losses.MeanSquaredError()(np.array([[1], [2]]), np.array([[1], [4]]))
    assert out.dtype == np.float32
    assert float(out) == pytest.approx(2.0)


def test_labels_compute_in_the_loss_dtype_sparse_labels_stay_integer():
    seen = {}

    class Spy(losses.Loss):
        def call(self, y_true, y_pred):
            seen["dtype"] = y_true.dtype
            return losses.mean_squared_error(y_true, y_pred)

    out = Spy()(np.array([[1], [0]]), np.array([[0.5], [0.5]], dtype=np.float32))
    assert seen["dtype"] == np.float32 and out.dtype == np.float32

    class SparseSpy(losses.SparseCategoricalCrossentropy):
        def call(self, y_true, y_pred):
            seen["dtype"] = y_true.dtype
            return super().call(y_true, y_pred)

    SparseSpy()(np.array([0, 1]), np.full((2, 2), 0.5))
    assert np.issubdtype(seen["dtype"], np.integer)


# ------------------------------------------------------------- gradients

def _numeric_grad(f, x, h=1e-6):
    grad = np.zeros_like(x)
    for index in np.ndindex(*x.shape):
        old = x[index]
        x[index] = old + h
        up = float(f(x))
        x[index] = old - h
        down = float(f(x))
        x[index] = old
        grad[index] = (up - down) / (2 * h)
    return grad


def _gradient(loss, y, p, sample_weight=None):
    p = p.copy()
    with GradientTape() as tape:
        tape.watch(p)
        value = loss(y, p, sample_weight=sample_weight)
    analytic = tape.gradient(value, p)
    numeric = _numeric_grad(lambda x: loss(y, x, sample_weight=sample_weight), p.copy())
    return np.asarray(analytic), numeric


# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(42)
_LOGITS = _TABLE_RNG.normal(size=(3, 4))
_PROBS = _softmax(_LOGITS)
_ONEHOT = np.eye(4)[[0, 3, 1]]
_WEIGHTS = np.array([0.5, 0.0, 2.0])


@pytest.mark.parametrize("loss, y, p", [
    (losses.MeanSquaredError(dtype="float64"), _ONEHOT, _LOGITS),
    (losses.MeanAbsoluteError(dtype="float64"), _ONEHOT, _LOGITS + 0.05),
    (losses.BinaryCrossentropy(dtype="float64"), _ONEHOT, _sigmoid(_LOGITS)),
    (losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1, dtype="float64"), _ONEHOT,
     _LOGITS),
    (losses.CategoricalCrossentropy(dtype="float64"), _ONEHOT, _PROBS),
    (losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.2, dtype="float64"),
     _ONEHOT, _LOGITS),
    (losses.SparseCategoricalCrossentropy(dtype="float64"), np.array([0, 3, 1]), _PROBS),
    (losses.SparseCategoricalCrossentropy(from_logits=True, dtype="float64"), np.array([0, 3, 1]),
     _LOGITS),
    (losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1, dtype="float64"),
     np.array([0, -1, 1]), _LOGITS),
    (losses.Dice(dtype="float64"), _ONEHOT, _PROBS),
    (losses.Dice(axis=-1, dtype="float64"), _ONEHOT, _PROBS),
    (losses.Tversky(alpha=0.3, beta=0.7, axis=1, dtype="float64"), _ONEHOT, _PROBS),
    (losses.CategoricalGeneralizedCrossEntropy(q=0.3, dtype="float64"), np.array([0, 3, 1]),
     _PROBS),
], ids=["mse", "mae", "bce", "bce_logits", "cce", "cce_logits", "scce", "scce_logits",
        "scce_ignore", "dice", "dice_axis", "tversky", "gce"])
@pytest.mark.parametrize("weighted", [False, True])
def test_gradients_match_finite_differences(loss, y, p, weighted):
    analytic, numeric = _gradient(loss, y, p, _WEIGHTS if weighted else None)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-4, atol=1e-6)


# ---------------------------------------------------------------- errors

def test_integer_labels_with_categorical_crossentropy():
    p = _softmax(np.zeros((4, 3)))
    for labels in (np.array([0, 1, 2, 1]), np.array([[0], [1], [2], [1]])):
        with pytest.raises(ValueError, match="use sparse_categorical_crossentropy") as info:
            losses.CategoricalCrossentropy()(labels, p)
        assert f"y_true.shape={labels.shape}" in str(info.value)
        assert "y_pred.shape=(4, 3)" in str(info.value)


def test_one_hot_labels_with_sparse_categorical_crossentropy():
    p = _softmax(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="Use categorical_crossentropy"):
        losses.SparseCategoricalCrossentropy()(np.eye(3)[[0, 1, 2, 1]], p)


@pytest.mark.parametrize("bad", [3, -2])
def test_sparse_label_out_of_range_names_the_value(bad):
    p = _softmax(np.zeros((3, 3)))
    with pytest.raises(ValueError, match=rf"label value of {bad}\b.*\[0, 3\)"):
        losses.sparse_categorical_crossentropy(np.array([0, bad, 1]), p)


def test_sparse_non_integer_labels_and_wrong_shape():
    p = _softmax(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="label value of 0.5"):
        losses.sparse_categorical_crossentropy(np.array([0.5, 1.0]), p)
    with pytest.raises(ValueError, match=r"expects y_true of shape \(2,\)"):
        losses.sparse_categorical_crossentropy(np.array([0, 1, 2]), p)


def test_binary_crossentropy_shape_mismatch():
    with pytest.raises(ValueError, match="sparse_categorical_crossentropy"):
        losses.binary_crossentropy(np.array([0, 1]), np.full((2, 3), 0.5))


# ------------------------------------------------------ get and config

def test_get_strings():
    assert losses.get("mse") is losses.mean_squared_error
    assert losses.get("MSE") is losses.mean_squared_error
    assert losses.get("mae") is losses.mean_absolute_error
    assert losses.get("bce") is losses.binary_crossentropy
    assert losses.get("sparse_categorical_crossentropy") is losses.sparse_categorical_crossentropy
    assert isinstance(losses.get("CategoricalCrossentropy"), losses.CategoricalCrossentropy)
    assert isinstance(losses.get(losses.MeanSquaredError), losses.MeanSquaredError)
    instance = losses.BinaryCrossentropy()
    assert losses.get(instance) is instance
    assert losses.get(None) is None


def test_get_unknown_name_lists_valid_choices():
    with pytest.raises(ValueError, match="Unknown loss: 'mean_sqared_error'") as info:
        losses.get("mean_sqared_error")
    assert "mean_squared_error" in str(info.value)
    assert "CategoricalCrossentropy" in str(info.value)


@pytest.mark.parametrize("loss", [
    losses.MeanSquaredError(reduction="sum", name="my_mse"),
    losses.MeanAbsoluteError(),
    losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1, reduction="none"),
    losses.CategoricalCrossentropy(label_smoothing=0.2, axis=1),
    losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=255),
    losses.LossFunctionWrapper(losses.binary_crossentropy, name="bce_ls", label_smoothing=0.3),
    losses.Dice(axis=[1, 2], reduction="sum"),
    losses.Tversky(alpha=0.2, beta=0.8, name="tv"),
    losses.CategoricalGeneralizedCrossEntropy(q=0.25),
])
def test_config_round_trip(loss):
    config = loss.get_config()
    json.dumps(config)
    rebuilt = type(loss).from_config(config)
    assert rebuilt.get_config() == config
    again = losses.deserialize(json.loads(json.dumps(losses.serialize(loss))))
    assert type(again) is type(loss) and again.get_config() == config
    assert losses.get(losses.serialize(loss)).get_config() == config


def test_keras_config_keys():
    assert losses.CategoricalCrossentropy().get_config() == {
        "name": "categorical_crossentropy", "reduction": "sum_over_batch_size",
        "from_logits": False, "label_smoothing": 0.0, "axis": -1}
    assert losses.SparseCategoricalCrossentropy().get_config() == {
        "name": "sparse_categorical_crossentropy", "reduction": "sum_over_batch_size",
        "from_logits": False, "ignore_class": None}
    assert losses.MeanSquaredError().get_config() == {
        "name": "mean_squared_error", "reduction": "sum_over_batch_size"}


def test_function_serialises_to_its_name():
    assert losses.serialize(losses.mean_squared_error) == "mean_squared_error"
    assert losses.deserialize("categorical_crossentropy") is losses.categorical_crossentropy


def test_loss_function_wrapper_uses_function_name_and_kwargs():
    loss = losses.LossFunctionWrapper(losses.categorical_crossentropy, from_logits=True)
    assert loss.name == "categorical_crossentropy"
    logits = np.array([[1.0, 2.0, 0.5]])
    y = np.array([[0.0, 1.0, 0.0]])
    assert float(loss(y, logits)) == pytest.approx(
        float(losses.categorical_crossentropy(y, _softmax(logits))[0]), abs=1e-6)


def test_custom_subclass():
    class Cubed(losses.Loss):
        def call(self, y_true, y_pred):
            from hikeras import ops
            return ops.mean(ops.abs(y_pred - y_true) ** 3, axis=-1)

    loss = Cubed()
    assert loss.name == "cubed"
    assert float(loss(np.array([[0.0], [0.0]]), np.array([[1.0], [2.0]]))) == pytest.approx(4.5)
