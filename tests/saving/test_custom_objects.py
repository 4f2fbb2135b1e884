"""Issue 16, item 2: models with custom objects save, warn, and load with `custom_objects`.

Written as a user writes the script: an unregistered layer, a layer without
`get_config`, a `Lambda`, a custom loss and metric function, and `Loss` and
`Metric` subclasses. Saving never fails on them; it warns once per object,
naming it and the fix; loading with `custom_objects` gives the same model; a
`Lambda`'s function is looked up by name, never run from the file; and
`ModelCheckpoint` keeps training going.
"""

import warnings

import numpy as np
import pytest

import hikeras as keras
from hikeras import ops
from hikeras.saving.file_errors import SavedFileError
from tests.scenarios.keras_scenarios import path


class Scale(keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class NoConfig(keras.layers.Layer):
    """Has constructor arguments but no get_config(): recorded automatically, as Keras 3."""

    def __init__(self, factor, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.factor, self.offset = factor, offset

    def call(self, x):
        return x * self.factor + self.offset


class WithArray(keras.layers.Layer):
    def __init__(self, table, **kwargs):
        super().__init__(**kwargs)
        self.table = table

    def call(self, x):
        return x


def double(x):
    return x * 2.0


def scaled_tanh(x):
    return ops.tanh(x) * 0.5


def halves(shape, dtype=None):
    return np.full(shape, 0.5, dtype or "float32")


def my_loss(y_true, y_pred):
    return ops.mean(ops.square(y_true - y_pred), axis=-1) * 2.0


def my_metric(y_true, y_pred):
    return ops.mean(ops.abs(y_true - y_pred), axis=-1)


class MyLoss(keras.losses.Loss):
    def call(self, y_true, y_pred):
        return ops.mean(ops.abs(y_true - y_pred), axis=-1)


class PredictionSum(keras.metrics.Metric):
    def __init__(self, name="prediction_sum", **kwargs):
        super().__init__(name=name, **kwargs)
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.total.assign(self.total + ops.sum(y_pred))

    def result(self):
        return self.total


def _model(extra, loss="mse", metrics=None):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), extra])
    model.compile("adam", loss, metrics=metrics)
    return model


CASES = {
    "layer": (lambda: _model(Scale(3.0, name="scale")), {"Scale": Scale}),
    "no_get_config": (lambda: _model(NoConfig(3.0, offset=1.0)), {"NoConfig": NoConfig}),
    "lambda": (lambda: _model(keras.layers.Lambda(double)), {"double": double}),
    "activation_and_initializer": (
        lambda: _model(keras.layers.Dense(2, activation=scaled_tanh, kernel_initializer=halves)),
        {"scaled_tanh": scaled_tanh, "halves": halves}),
    "loss_and_metric_functions": (
        lambda: _model(keras.layers.Dense(2), my_loss, [my_metric]),
        {"my_loss": my_loss, "my_metric": my_metric}),
    "loss_and_metric_classes": (
        lambda: _model(keras.layers.Dense(2), MyLoss(), [PredictionSum()]),
        {"MyLoss": MyLoss, "PredictionSum": PredictionSum}),
}


def _data(rng):
    return rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 2)).astype("float32")


def _save(model, path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.save(path)
    return [str(w.message) for w in caught if "not registered" in str(w.message)]


@pytest.mark.parametrize("ext", ["keras", "h5"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_saves_warns_and_loads_with_custom_objects(case, ext, tmp_path, rng):
    make, custom_objects = CASES[case]
    model = make()
    x, y = _data(rng)
    model.fit(x, y, epochs=1, verbose=0)
    messages = _save(model, tmp_path / f"m.{ext}")
    assert len(messages) == 1
    message = messages[0]
    for name in custom_objects:
        assert f"'{name}': {name}" in message
    assert "custom_objects=" in message and "register_keras_serializable" in message
    assert len(message) < 400
    loaded = keras.saving.load_model(tmp_path / f"m.{ext}", custom_objects=custom_objects)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-6)
    expected = model.evaluate(x, y, verbose=0, return_dict=True)
    got = loaded.evaluate(x, y, verbose=0, return_dict=True)
    assert got.keys() == expected.keys()
    for key in expected:
        if key != "prediction_sum":  # a running sum: it carries the state of each run
            np.testing.assert_allclose(got[key], expected[key], rtol=1e-5)
    loaded.fit(x, y, epochs=1, verbose=0)


def test_names_each_object_once(tmp_path):
    model = keras.Sequential([keras.Input((3,)), Scale(name="a"), Scale(name="b"),
                              keras.layers.Lambda(double), keras.layers.Lambda(double)])
    model.compile("adam", my_loss, metrics=[my_metric, my_loss])
    (message,) = _save(model, tmp_path / "m.keras")
    for name in ("Scale", "double", "my_loss", "my_metric"):
        assert message.count(f"'{name}': {name}") == 1


def test_registered_objects_do_not_warn(tmp_path):
    registered = keras.saving.register_keras_serializable(package="scenario")(double)
    model = _model(keras.layers.Lambda(registered))
    assert _save(model, tmp_path / "m.keras") == []
    assert keras.saving.load_model(tmp_path / "m.keras").layers[-1].function is registered


@pytest.mark.parametrize("ext", ["keras", "h5"])
def test_loading_without_custom_objects_names_what_is_missing(ext, tmp_path):
    _save(_model(keras.layers.Lambda(double)), tmp_path / f"m.{ext}")
    with pytest.raises(SavedFileError, match=r"double.*custom_objects"):
        keras.saving.load_model(tmp_path / f"m.{ext}")
    _save(_model(Scale(name="scale")), tmp_path / f"s.{ext}")
    with pytest.raises(SavedFileError, match=r"Unknown layer: 'Scale'.*custom_objects"):
        keras.saving.load_model(tmp_path / f"s.{ext}")


def test_lambda_function_comes_from_custom_objects_not_the_file(tmp_path):
    _save(_model(keras.layers.Lambda(double)), tmp_path / "m.keras")
    calls = []

    def other(x):
        calls.append(1)
        return x * 0.0

    loaded = keras.saving.load_model(tmp_path / "m.keras", custom_objects={"double": other})
    assert loaded.layers[-1].function is other
    np.testing.assert_array_equal(loaded.predict(np.ones((2, 3), "float32"), verbose=0), 0.0)
    assert calls


def test_layer_whose_config_misses_arguments_is_saved_with_a_warning(tmp_path):
    model = _model(WithArray(np.ones(3)))
    with pytest.warns(UserWarning, match=r"cannot be rebuilt.*\['table'\]"):
        model.save(tmp_path / "m.keras")
    assert (tmp_path / "m.keras").exists()


def test_model_checkpoint_never_stops_training_on_custom_objects(tmp_path, rng):
    model = _model(Scale(name="scale"), my_loss, [my_metric])
    x, y = _data(rng)
    path = str(tmp_path / "ckpt-{epoch}.keras")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        history = model.fit(x, y, epochs=3, verbose=0,
                            callbacks=[keras.callbacks.ModelCheckpoint(path)])
    assert len(history.history["loss"]) == 3
    assert len([w for w in caught if "not registered" in str(w.message)]) == 1
    last = keras.saving.load_model(tmp_path / "ckpt-3.keras", custom_objects={
        "Scale": Scale, "my_loss": my_loss, "my_metric": my_metric})
    np.testing.assert_allclose(last.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-6)


def test_an_impossible_save_names_its_reason(tmp_path):
    model = _model(Scale(factor=object(), name="scale"))
    with pytest.raises(ValueError, match=r"layer 'scale' \(Scale\).*JSON"):
        model.save(tmp_path / "m.keras")


@pytest.mark.parametrize("ext", ["keras", "h5"])
def test_keras_written_lambda_takes_its_function_from_custom_objects(ext):
    model = keras.saving.load_model(path("lambda_named", ext), custom_objects={"double": double})
    assert model.layers[-1].function is double
    x = np.ones((2, 3), "float32")
    dense = model.layers[0]
    np.testing.assert_allclose(model.predict(x, verbose=0), 2.0 * dense(x), rtol=1e-6)
    with pytest.raises(SavedFileError, match=r"'double'.*custom_objects"):
        keras.saving.load_model(path("lambda_named", ext))


def test_keras_written_lambda_bytecode_is_never_run():
    with pytest.raises(SavedFileError, match=r"lambda"):
        keras.saving.load_model(path("lambda_anonymous", "keras"))
    with pytest.raises(SavedFileError, match=r"lambda"):
        keras.saving.load_model(path("lambda_anonymous", "keras"), safe_mode=False)
