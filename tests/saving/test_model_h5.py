"""Whole-model `.h5`: architecture, weights, compile state, exact continued training."""

import json

import h5py
import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.saving import SavedFileError, register_keras_serializable
from tests.saving.saving_models import (
    assert_same_outputs,
    functional,
    mlp,
    nested,
    randomize,
    sample_x,
)


def _targets(model, x):
    rng = np.random.default_rng(3)
    shapes = [o.shape[1:] for o in model.outputs]
    ys = [rng.normal(size=(len(x),) + tuple(s)).astype("float32") for s in shapes]
    return ys if len(ys) > 1 else ys[0]


@pytest.mark.parametrize("build", [mlp, functional, nested])
def test_reloaded_model_predicts_and_trains_identically(tmp_path, build):
    x = sample_x()
    model = build()
    y = _targets(model, x)
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=0.01), loss="mse",
                  metrics=["mae"])
    model.fit(x, y, epochs=3, batch_size=5, verbose=0, shuffle=False)
    model.save(tmp_path / "m.h5")
    loaded = hikeras.models.load_model(tmp_path / "m.h5")
    assert type(loaded) is type(model)
    assert_same_outputs(model, loaded, x)
    assert int(loaded.optimizer.iterations) == 3
    assert loaded.optimizer.learning_rate == pytest.approx(0.01)
    for _ in range(2):
        a = model.train_on_batch(x, y)
        b = loaded.train_on_batch(x, y)
        assert a == b
    assert_same_outputs(model, loaded, x)


def test_file_layout_is_keras_legacy(tmp_path):
    model = nested()
    model.compile(optimizer="adam", loss="mse")
    model.fit(sample_x(), np.zeros((5, 2), "float32"), verbose=0)
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5") as f:
        assert {"keras_version", "backend", "model_config", "training_config"} <= set(f.attrs)
        config = json.loads(f.attrs["model_config"])
        assert config["class_name"] == "Functional"
        block = config["config"]["layers"][1]
        assert block["class_name"] == "Sequential"
        assert block["inbound_nodes"] == [[["input_layer", 0, 0, {}]]]
        # A nested Sequential is written without its InputLayer, so tf.keras and Keras 3
        # both count its calls from 0 (Keras 3 rejects tf.keras's numbering from 1).
        assert block["config"]["layers"][0]["class_name"] != "InputLayer"
        assert config["config"]["layers"][2]["inbound_nodes"] == [[["block", 0, 0, {}]]]
        training = json.loads(f.attrs["training_config"])
        assert training["loss"] == "mean_squared_error"  # Keras 3 cannot read "mse" here
        assert training["optimizer_config"]["class_name"] == "Adam"
        names = [n.decode() for n in f["optimizer_weights"].attrs["weight_names"]]
        assert names[:2] == ["adam/iteration", "adam/learning_rate"]
        assert f["optimizer_weights/adam/iteration"][()] == 1
        assert [n.decode() for n in f["model_weights"].attrs["layer_names"]] == [
            "input_layer", "block", "head"]


def test_uncompiled_model_and_compile_false(tmp_path):
    model = randomize(mlp())
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5") as f:
        assert "training_config" not in f.attrs and "optimizer_weights" not in f
    loaded = hikeras.models.load_model(tmp_path / "m.h5")
    assert not loaded.compiled
    model.compile(optimizer="sgd", loss="mse")
    model.save(tmp_path / "m.h5")
    assert not hikeras.models.load_model(tmp_path / "m.h5", compile=False).compiled


def test_weights_file_is_not_a_model(tmp_path):
    mlp().save_weights(tmp_path / "w.h5")
    with pytest.raises(SavedFileError, match="model_config.*load_weights"):
        hikeras.models.load_model(tmp_path / "w.h5")


def test_load_weights_accepts_a_full_model_file(tmp_path):
    source = randomize(functional())
    source.save(tmp_path / "m.h5")
    target = functional(seed=4)
    target.load_weights(tmp_path / "m.h5")
    assert_same_outputs(source, target, sample_x())


def test_get_compile_config_round_trip():
    model = mlp()
    assert model.get_compile_config() is None
    model.compile(optimizer=hikeras.optimizers.SGD(learning_rate=0.3, momentum=0.5),
                  loss=hikeras.losses.MeanSquaredError(), metrics=["mae"])
    config = json.loads(json.dumps(model.get_compile_config()))
    other = mlp()
    other.compile_from_config(config)
    assert type(other.optimizer).__name__ == "SGD"
    assert other.optimizer.get_config() == model.optimizer.get_config()


# ----------------------------------------------------------------- custom objects

@register_keras_serializable(package="saving_tests")
def doubled(x):
    return x * 2.0


def test_registered_function_and_custom_objects_at_load(tmp_path):
    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(2, activation=doubled)])
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5") as f:
        assert "saving_tests>doubled" in f.attrs["model_config"]
    loaded = hikeras.models.load_model(tmp_path / "m.h5")
    assert_same_outputs(model, loaded, np.ones((1, 2), "float32"))


def test_unknown_class_at_load_names_it_and_the_fix(tmp_path):
    config = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(2)]).to_json()
    config = config.replace('"Dense"', '"MyDense"')
    with pytest.raises(SavedFileError, match="Unknown layer: 'MyDense'.*register_keras_serial"):
        hikeras.models.model_from_json(config)
    loaded = hikeras.models.model_from_json(config, custom_objects={"MyDense": layers.Dense})
    assert loaded.output_shape == (None, 2)
