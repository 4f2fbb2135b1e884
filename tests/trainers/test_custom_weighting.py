"""Weighting and metric resolution in `compile`/`fit`: weighted_metrics, class_weight,
the meaning of "accuracy", EMA weights at the end of `fit`."""

import warnings

import numpy as np
import pytest

import hikeras
from hikeras import layers


def classifier(units, activation):
    hikeras.utils.set_random_seed(0)
    return hikeras.Sequential([hikeras.Input((4,)), layers.Dense(units, activation=activation)])


def test_metrics_are_unweighted_and_weighted_metrics_are_weighted():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(10, 4)).astype("float32")
    y = rng.integers(0, 2, size=(10, 1)).astype("float32")
    weight = np.linspace(0.0, 1.0, 10).astype("float32")
    model = classifier(1, "sigmoid")
    model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=["mae"],
                  weighted_metrics=["mae"])
    logs = model.evaluate(x, y, sample_weight=weight, batch_size=3, verbose=0,
                          return_dict=True)
    errors = np.abs(model.predict(x, verbose=0) - y)[:, 0]
    np.testing.assert_allclose(logs["mae"], errors.mean(), rtol=1e-5)
    np.testing.assert_allclose(logs["weighted_mae"], np.sum(errors * weight) / weight.sum(),
                               rtol=1e-5)


def test_class_weight_weights_the_loss_and_weighted_metrics():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(8, 4)).astype("float32")
    y = np.array([0, 1, 1, 0, 1, 1, 1, 0])
    model = classifier(2, "softmax")
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss="sparse_categorical_crossentropy",
                  weighted_metrics=["accuracy"])
    history = model.fit(x, y, class_weight={0: 3.0, 1: 0.5}, batch_size=8, epochs=1,
                        verbose=0)
    probs = model.predict(x, verbose=0)
    weight = np.where(y == 0, 3.0, 0.5)
    per_sample = -np.log(np.clip(probs[np.arange(8), y], 1e-7, 1 - 1e-7))
    np.testing.assert_allclose(history.history["loss"][0], np.mean(per_sample * weight),
                               rtol=1e-5)
    hits = (np.argmax(probs, 1) == y).astype(float)
    np.testing.assert_allclose(history.history["accuracy"][0],
                               np.sum(hits * weight) / weight.sum(), rtol=1e-5)


# (loss, output units/activation, label shape) -> the metric "accuracy" means
RESOLUTION = [
    ("binary_crossentropy", 1, "sigmoid", (6, 1), "binary_accuracy"),
    ("mse", 1, None, (6, 1), "binary_accuracy"),
    ("sparse_categorical_crossentropy", 3, "softmax", (6,), "sparse_categorical_accuracy"),
    ("sparse_categorical_crossentropy", 3, "softmax", (6, 1), "sparse_categorical_accuracy"),
    ("categorical_crossentropy", 3, "softmax", (6, 3), "categorical_accuracy"),
]


@pytest.mark.parametrize("loss,units,activation,label_shape,expected", RESOLUTION)
def test_accuracy_resolution_follows_keras_and_logs_the_requested_name(
        loss, units, activation, label_shape, expected):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(6, 4)).astype("float32")
    if label_shape[-1:] == (3,):
        y = np.eye(3, dtype="float32")[rng.integers(0, 3, 6)]
    else:
        y = rng.integers(0, min(units, 2) if units > 1 else 2, size=label_shape)
        y = y.astype("float32")
    model = classifier(units, activation)
    model.compile(optimizer="sgd", loss=loss, metrics=["acc"])
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert list(logs) == ["acc", "loss"]  # Keras 3 sorts the keys (pythonify_logs)
    resolved = model.metrics[1]
    assert resolved.name == "acc"
    direct = getattr(hikeras.metrics, expected)(y, model.predict(x, verbose=0))
    np.testing.assert_allclose(logs["acc"], np.mean(direct), rtol=1e-6)


def test_accuracy_with_multi_label_binary_crossentropy_warns():
    x = np.zeros((4, 4), "float32")
    y = np.array([[1, 0, 1]] * 4, "float32")
    model = classifier(3, "sigmoid")
    model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=["accuracy"])
    with pytest.warns(UserWarning, match="binary_accuracy"):
        model.evaluate(x, y, verbose=0)


def test_crossentropy_string_resolves_from_shapes():
    x = np.zeros((4, 4), "float32")
    model = classifier(3, "softmax")
    model.compile(optimizer="sgd", loss="crossentropy", metrics=["crossentropy"])
    y = np.array([0, 1, 2, 1])
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["loss"], np.log(3.0), rtol=1e-5)  # uniform softmax
    np.testing.assert_allclose(logs["crossentropy"], np.log(3.0), rtol=1e-5)


def test_fit_ends_with_the_ema_weights():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(16, 4)).astype("float32")
    y = rng.normal(size=(16, 1)).astype("float32")
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(1)])
    optimizer = hikeras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.9)
    model.compile(optimizer=optimizer, loss="mse")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(x, y, epochs=2, batch_size=4, verbose=0)
    for weight, average in zip(model.trainable_weights, optimizer._averages):
        np.testing.assert_array_equal(weight.numpy(), average.numpy())
