"""Custom losses and metrics end to end: functions, subclasses, exact epoch values, errors."""

import os
import warnings

import numpy as np
import pytest

import hikeras
from hikeras import layers, losses, metrics, ops


def regression_model(seed=0):
    hikeras.utils.set_random_seed(seed)
    return hikeras.Sequential([hikeras.Input((3,)), layers.Dense(1)])


def data(n=10, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 3)).astype("float32"), rng.normal(size=(n, 1)).astype("float32")


def quartic_error(y_true, y_pred):
    return ops.mean(ops.square(ops.square(y_pred - y_true)), axis=-1)


def test_function_loss_is_differentiable_weighted_and_reduced():
    x, y = data()
    model = regression_model()
    pred = model.predict(x, verbose=0)
    weight = np.linspace(0.0, 2.0, len(x)).astype("float32")
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss=quartic_error)
    per_sample = ((pred - y) ** 4)[:, 0]
    got = model.evaluate(x, y, sample_weight=weight, batch_size=len(x), verbose=0)
    np.testing.assert_allclose(got, np.sum(per_sample * weight) / len(x), rtol=1e-5)
    wrapped = losses.LossFunctionWrapper(quartic_error, reduction="sum")
    np.testing.assert_allclose(float(wrapped(y, pred)), per_sample.sum(), rtol=1e-5)
    model.compile(optimizer=hikeras.optimizers.SGD(0.01), loss=quartic_error)
    first = model.evaluate(x, y, verbose=0)
    model.fit(x, y, epochs=5, batch_size=5, verbose=0)
    assert model.evaluate(x, y, verbose=0) < first


def test_custom_metric_function_is_exact_over_an_uneven_epoch():
    """10 samples in batches of 4, 4, 2: the epoch value is the mean over samples."""
    x, y = data()

    def absolute_cubed(y_true, y_pred):
        return ops.mean(ops.abs(y_pred - y_true) ** 3, axis=-1)

    model = regression_model()
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss="mse",
                  metrics=[absolute_cubed])
    logs = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    pred = model.predict(x, verbose=0)
    np.testing.assert_allclose(logs["absolute_cubed"], np.mean(np.abs(pred - y) ** 3),
                               rtol=1e-5)
    np.testing.assert_allclose(logs["loss"], np.mean((pred - y) ** 2), rtol=1e-5)


class ScaledMSE(losses.Loss):
    def __init__(self, scale=2.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, y_true, y_pred):
        return self.scale * ops.mean(ops.square(y_pred - y_true), axis=-1)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale}


class LargestError(metrics.Metric):
    """A metric with its own state: the largest absolute error seen in the epoch."""

    def __init__(self, name="largest_error", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.largest = self.add_variable(shape=(), name="largest")

    def update_state(self, y_true, y_pred, sample_weight=None):
        error = np.max(np.abs(np.asarray(y_pred) - np.asarray(y_true)))
        self.largest.value[...] = max(float(self.largest.value), float(error))

    def result(self):
        return self.largest.value.copy()[()]


def test_loss_subclass_and_stateful_metric_subclass():
    x, y = data()
    model = regression_model()
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss=ScaledMSE(3.0),
                  metrics=[LargestError()])
    logs = model.evaluate(x, y, batch_size=3, verbose=0, return_dict=True)
    pred = model.predict(x, verbose=0)
    np.testing.assert_allclose(logs["loss"], 3.0 * np.mean((pred - y) ** 2), rtol=1e-5)
    np.testing.assert_allclose(logs["largest_error"], np.max(np.abs(pred - y)), rtol=1e-6)
    assert ScaledMSE.from_config(ScaledMSE(3.0).get_config()).scale == 3.0


def f1score(y_true, y_pred):
    """Macro F1 over classes for one-hot (batch, H, W, classes) segmentation maps."""
    num_classes = y_pred.shape[-1]
    predicted = ops.one_hot(ops.argmax(y_pred, axis=-1), num_classes)
    y_true = ops.cast(y_true, "float32")
    tp = ops.sum(predicted * y_true, axis=(1, 2))
    fp = ops.sum(predicted * (1.0 - y_true), axis=(1, 2))
    fn = ops.sum((1.0 - predicted) * y_true, axis=(1, 2))
    f1 = 2.0 * tp / ops.maximum(2.0 * tp + fp + fn, 1e-7)
    return ops.mean(f1, axis=-1)  # one value per image


def segmentation_model():
    hikeras.utils.set_random_seed(1)
    inputs = hikeras.Input((4, 4, 2))
    outputs = layers.Conv2D(3, 1, activation="softmax")(inputs)
    return hikeras.Model(inputs, outputs)


def segmentation_data(n=6):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(n, 4, 4, 2)).astype("float32")
    labels = rng.integers(0, 3, size=(n, 4, 4))
    return x, np.eye(3, dtype="float32")[labels]


def _f1_reference(y_true, y_pred):
    predicted = np.eye(y_pred.shape[-1])[np.argmax(y_pred, -1)]
    tp = (predicted * y_true).sum(axis=(1, 2))
    fp = (predicted * (1 - y_true)).sum(axis=(1, 2))
    fn = ((1 - predicted) * y_true).sum(axis=(1, 2))
    return (2 * tp / np.maximum(2 * tp + fp + fn, 1e-7)).mean(axis=-1)


def test_segmentation_f1_metric_written_with_ops(tmp_path):
    x, y = segmentation_data()
    model = segmentation_model()
    model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=[f1score])
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0)
    assert "f1score" in history.history
    logs = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    pred = model.predict(x, verbose=0)
    np.testing.assert_allclose(logs["f1score"], _f1_reference(y, pred).mean(), rtol=1e-5)

    path = os.path.join(tmp_path, "segmenter.h5")
    # hikeras's save checks that the training config can be rebuilt, so the
    # function must be resolvable by name while saving too
    with hikeras.saving.custom_object_scope({"f1score": f1score}):
        model.save(path)
    with pytest.raises(Exception, match="f1score"):
        hikeras.models.load_model(path)  # the function is not in the file
    reloaded = hikeras.models.load_model(path, custom_objects={"f1score": f1score})
    again = reloaded.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    np.testing.assert_allclose(again["f1score"], logs["f1score"], rtol=1e-6)


def argmax_loss(y_true, y_pred):
    hits = ops.cast(ops.equal(ops.argmax(y_pred, axis=-1), ops.argmax(y_true, axis=-1)),
                    "float32")
    return 1.0 - hits


def test_non_differentiable_loss_raises_at_the_first_step():
    x, y = segmentation_data()
    model = segmentation_model()
    model.compile(optimizer="sgd", loss=argmax_loss)
    with pytest.raises(ValueError, match="not differentiable"):
        model.fit(x, y, epochs=1, verbose=0)
    # the same function is fine as a metric
    model.compile(optimizer="sgd", loss="categorical_crossentropy", metrics=[argmax_loss])
    model.fit(x, y, epochs=1, verbose=0)


def test_rank_one_labels_are_not_broadcast_against_column_predictions():
    x, y = data()
    model = regression_model()
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss="mse", metrics=["mae"])
    with_column = model.evaluate(x, y, verbose=0, return_dict=True)
    with_rank_one = model.evaluate(x, y[:, 0], verbose=0, return_dict=True)
    assert with_rank_one == pytest.approx(with_column, rel=1e-6)
    with pytest.raises(ValueError, match="shape"):
        losses.mean_squared_error(np.zeros((4, 2)), np.zeros((4, 3)))


def test_categorical_crossentropy_on_one_unit_output_raises():
    model = regression_model()
    model.compile(optimizer="sgd", loss="categorical_crossentropy")
    with pytest.raises(ValueError, match="1 unit"):
        model.fit(*data(), verbose=0)


def test_from_logits_on_softmax_probabilities_warns():
    x, y = segmentation_data()
    model = segmentation_model()
    model.compile(optimizer="sgd",
                  loss=losses.CategoricalCrossentropy(from_logits=True))
    with pytest.warns(UserWarning, match="from_logits=True"):
        model.fit(x, y, epochs=1, verbose=0)
    model.compile(optimizer="sgd", loss=losses.CategoricalCrossentropy())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(x, y, epochs=1, verbose=0)
