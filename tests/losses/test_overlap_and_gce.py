"""Dice, Tversky and CategoricalGeneralizedCrossEntropy: hand-worked values,
the batch-wide `axis=None` value under sample weights, errors and configs.

Real-Keras values for the same losses are in `test_keras_golden.py`.
"""

import json

import numpy as np
import pytest

from hikeras import losses

MASK = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0]])
PRED = np.array([[0.5, 1.0, 0.5, 0.0], [0.0, 0.0, 1.0, 1.0]])


# ------------------------------------------------------------------ Dice

def test_dice_by_hand():
    # Sample 0: |A∩B| = 1.5, |A| = 2, |B| = 2 -> 1 - 3 / 4. Sample 1: 1, 2, 2 -> 1 - 2 / 4.
    per_sample = losses.dice(MASK, PRED, axis=1)
    np.testing.assert_allclose(per_sample, [0.25, 0.5], rtol=1e-6)
    # The whole batch at once: 1 - 2 * 2.5 / (4 + 4).
    assert float(losses.dice(MASK, PRED)) == pytest.approx(0.375, rel=1e-6)
    assert float(losses.Dice(axis=1)(MASK, PRED)) == pytest.approx(0.375, rel=1e-6)
    assert float(losses.Dice(axis=[1], reduction="sum")(MASK, PRED)) == pytest.approx(0.75)


def test_dice_of_a_perfect_and_an_empty_prediction():
    assert float(losses.dice(MASK, MASK)) == pytest.approx(0.0, abs=1e-6)
    assert float(losses.dice(MASK, np.zeros_like(MASK))) == pytest.approx(1.0)
    # Both empty: epsilon keeps 0/0 away, the overlap is 0 and the loss 1.
    assert float(losses.dice(np.zeros((2, 2)), np.zeros((2, 2)))) == pytest.approx(1.0)


def test_batch_wide_value_is_spread_over_the_sample_weights():
    # As in Keras: one value, repeated once per weight, then reduced as usual.
    weight = np.array([1.0, 3.0])
    loss = float(losses.dice(MASK, PRED))
    assert float(losses.Dice()(MASK, PRED, weight)) == pytest.approx(loss * 2.0, rel=1e-6)
    assert float(losses.Dice(reduction="sum")(MASK, PRED, weight)) == pytest.approx(
        loss * 4.0, rel=1e-6)
    assert float(losses.Dice(reduction="mean_with_sample_weight")(MASK, PRED, weight)) == \
        pytest.approx(loss, rel=1e-6)
    np.testing.assert_allclose(losses.Dice(reduction=None)(MASK, PRED, weight),
                               [loss, 3 * loss], rtol=1e-6)


def test_dice_per_image_on_4d_masks():
    rng = np.random.default_rng(3)
    y_true = (rng.random((3, 4, 4, 2)) > 0.5).astype("float32")
    y_pred = rng.random((3, 4, 4, 2)).astype("float32")
    values = losses.Dice(axis=(1, 2, 3), reduction=None)(y_true, y_pred)
    expected = [1 - 2 * np.sum(t * p) / (np.sum(t) + np.sum(p)) for t, p in zip(y_true, y_pred)]
    np.testing.assert_allclose(values, expected, rtol=1e-5)


# --------------------------------------------------------------- Tversky

def test_tversky_by_hand():
    # Sample 0: TP = 1.5, FP = sum((1 - p) * t) = 0.5, FN = sum(p * (1 - t)) = 0.5.
    # Sample 1: TP = 1, FP = 1, FN = 1.
    values = losses.tversky(MASK, PRED, alpha=0.2, beta=0.8, axis=-1)
    np.testing.assert_allclose(values, [1 - 1.5 / 2.0, 1 - 1 / 2.0], rtol=1e-6)
    values = losses.Tversky(alpha=1.0, beta=0.0, axis=-1, reduction=None)(MASK, PRED)
    np.testing.assert_allclose(values, [1 - 1.5 / 2.0, 1 - 1 / 2.0], rtol=1e-6)
    values = losses.tversky(MASK, PRED, alpha=0.0, beta=0.0, axis=-1)
    np.testing.assert_allclose(values, [0.0, 0.0], atol=1e-6)


def test_tversky_with_equal_weights_is_dice():
    np.testing.assert_allclose(losses.tversky(MASK, PRED), losses.dice(MASK, PRED), rtol=1e-6)
    np.testing.assert_allclose(losses.Tversky(axis=1, reduction=None)(MASK, PRED),
                               losses.Dice(axis=1, reduction=None)(MASK, PRED), rtol=1e-6)


# ------------------------------------------- CategoricalGeneralizedCrossEntropy

PROBS = np.array([[0.25, 0.75], [0.36, 0.64], [0.19, 0.81]])


def test_gce_by_hand():
    # p = 0.75, 0.36, 0.81 for the true classes; q = 0.5 -> (1 - sqrt(p)) / 0.5.
    values = losses.categorical_generalized_cross_entropy(np.array([1, 0, 1]), PROBS, q=0.5)
    np.testing.assert_allclose(values, [2 * (1 - 0.75 ** 0.5), 0.8, 0.2], rtol=1e-6)
    loss = losses.CategoricalGeneralizedCrossEntropy(q=0.5, reduction="sum")
    assert float(loss(np.array([1, 0, 1]), PROBS)) == pytest.approx(
        2 * (1 - 0.75 ** 0.5) + 1.0, rel=1e-6)


def test_gce_limits_are_crossentropy_and_mae():
    labels = np.array([1, 0, 1])
    p = PROBS[np.arange(3), labels]
    np.testing.assert_allclose(
        losses.categorical_generalized_cross_entropy(labels, PROBS, q=1e-4), -np.log(p),
        rtol=1e-3)
    np.testing.assert_allclose(
        losses.categorical_generalized_cross_entropy(labels, PROBS, q=0.9999), 1 - p, rtol=1e-3)


def test_gce_labels_of_shape_n_1_mean_the_same_labels():
    # Keras 3.15 broadcasts such labels against every sample; we drop the axis.
    loss = losses.CategoricalGeneralizedCrossEntropy(reduction=None)
    np.testing.assert_allclose(loss(np.array([[1], [0], [1]]), PROBS),
                               loss(np.array([1, 0, 1]), PROBS))


def test_gce_label_outside_the_classes_costs_one_over_q():
    values = losses.categorical_generalized_cross_entropy(np.array([2, 1]), PROBS[:2], q=0.25)
    np.testing.assert_allclose(values, [4.0, 4 * (1 - 0.64 ** 0.25)], rtol=1e-6)


@pytest.mark.parametrize("q", [0.0, 1.0, -0.5, 1.5, "0.5", None, True])
def test_gce_rejects_q_outside_the_open_unit_interval(q):
    with pytest.raises(ValueError, match="CategoricalGeneralizedCrossEntropy") as info:
        losses.CategoricalGeneralizedCrossEntropy(q=q)
    assert str(info.value).endswith(f"Received: q={q!r}")


# ------------------------------------------------------------ configs

def test_keras_defaults_and_config_keys():
    assert losses.Dice().get_config() == {
        "name": "dice", "reduction": "sum_over_batch_size", "axis": None}
    assert losses.Tversky().get_config() == {
        "name": "tversky", "reduction": "sum_over_batch_size", "alpha": 0.5, "beta": 0.5,
        "axis": None}
    assert losses.CategoricalGeneralizedCrossEntropy().get_config() == {
        "name": "categorical_generalized_cross_entropy",
        "reduction": "sum_over_batch_size", "q": 0.5}


@pytest.mark.parametrize("loss", [
    losses.Dice(axis=(1, 2), reduction="sum", name="my_dice"),
    losses.Tversky(alpha=0.3, beta=0.7, axis=-1),
    losses.CategoricalGeneralizedCrossEntropy(q=0.7, reduction=None),
], ids=["dice", "tversky", "gce"])
def test_config_round_trip_through_json(loss):
    config = loss.get_config()
    again = losses.deserialize(json.loads(json.dumps(losses.serialize(loss))))
    assert type(again) is type(loss)
    assert again.get_config() == json.loads(json.dumps(config))
    rng = np.random.default_rng(0)
    y_pred = rng.random((2, 3, 3))
    y_pred /= y_pred.sum(-1, keepdims=True)
    y_true = np.array([[0, 1, 2], [2, 2, 0]]) if "q" in config else (y_pred > 0.3) * 1.0
    np.testing.assert_allclose(again(y_true, y_pred), loss(y_true, y_pred), rtol=1e-6)


@pytest.mark.parametrize("name, cls", [
    ("Dice", losses.Dice), ("Tversky", losses.Tversky),
    ("CategoricalGeneralizedCrossEntropy", losses.CategoricalGeneralizedCrossEntropy)])
def test_class_names_resolve(name, cls):
    assert isinstance(losses.get(name), cls)
    assert isinstance(losses.deserialize({"class_name": name, "config": {}}), cls)


@pytest.mark.parametrize("name", ["dice", "tversky", "categorical_generalized_cross_entropy"])
def test_function_names_resolve(name):
    assert losses.get(name) is getattr(losses, name)
    assert losses.serialize(getattr(losses, name)) == name
