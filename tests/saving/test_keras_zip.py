"""Writing Keras 3's `.keras` archives: round trips, compile and optimizer state, errors.

How the archives compare with the ones real Keras 3 writes is checked in
test_keras_interop.py; here hikeras writes and reads its own.
"""

import json
import zipfile

import h5py
import numpy as np
import pytest

import hikeras
from tests.fixtures.make_keras_fixtures import KINDS, build, data, first_batch
from tests.saving.saving_models import (
    assert_same_outputs,
    functional,
    mlp,
    nested,
    randomize,
    sample_x,
)


def _trained(kind):
    hikeras.utils.set_random_seed(0)
    model = build(hikeras, kind)
    x, y = data(kind)
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=0.01), loss="mse",
                  metrics=["mae"])
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    return model


def _members(path):
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


@pytest.mark.parametrize("kind", KINDS)
def test_round_trip_predicts_and_continues_training_identically(kind, tmp_path):
    model = _trained(kind)
    model.save(tmp_path / "m.keras")
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    x, y = data(kind)
    assert type(loaded) is type(model)
    assert_same_outputs(model, loaded, x)
    assert loaded.compiled and int(loaded.optimizer.iterations) == 2
    assert loaded.optimizer.get_config() == model.optimizer.get_config()
    for var, saved in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(var.value, saved.value)
    assert loaded.train_on_batch(x[:8], first_batch(y)) == model.train_on_batch(
        x[:8], first_batch(y))
    for a, b in zip(loaded.weights, model.weights):
        np.testing.assert_array_equal(a.value, b.value)


@pytest.mark.parametrize("make", [mlp, functional, nested])
def test_round_trip_with_a_registered_custom_layer(make, tmp_path):
    model = randomize(make())
    model.compile(optimizer=hikeras.optimizers.SGD(learning_rate=0.1, momentum=0.9),
                  loss="mse")
    hikeras.saving.save_model(model, tmp_path / "m.keras")
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    assert_same_outputs(model, loaded, sample_x())
    assert type(loaded.optimizer).__name__ == "SGD"
    config = json.loads(_members(tmp_path / "m.keras")["config.json"])
    assert "saving_tests>ScaleWithStats" in json.dumps(config)


def test_archive_holds_keras3s_members_and_compile_config(tmp_path):
    model = _trained("nested")
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as archive:
        assert archive.namelist() == ["metadata.json", "config.json", "model.weights.h5"]
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
    members = _members(tmp_path / "m.keras")
    metadata = json.loads(members["metadata.json"])
    assert metadata["keras_version"].startswith("3.") and "@" in metadata["date_saved"]
    config = json.loads(members["config.json"])
    compile_config = config["compile_config"]
    assert compile_config["optimizer"]["module"] == "keras.optimizers"
    assert compile_config["optimizer"]["class_name"] == "Adam"
    assert compile_config["loss"] == "mse" and compile_config["metrics"] == ["mae"]
    # Keras 3 numbers a nested model's calls from 0 and writes nodes as dicts.
    head = config["config"]["layers"][2]
    tensor = head["inbound_nodes"][0]["args"][0]
    assert tensor["class_name"] == "__keras_tensor__"
    assert tensor["config"] == {"shape": [None, 3], "dtype": "float32",
                                "keras_history": ["inner", 0, 0]}


def test_compile_config_gives_losses_and_metrics_their_modules(tmp_path):
    model = mlp()
    model.compile(optimizer="adam", loss=hikeras.losses.MeanSquaredError(),
                  metrics=[hikeras.metrics.RootMeanSquaredError(), "mae"])
    model.save(tmp_path / "m.keras")
    compile_config = json.loads(_members(tmp_path / "m.keras")["config.json"])["compile_config"]
    assert compile_config["loss"]["module"] == "keras.losses"
    assert compile_config["metrics"][0]["module"] == "keras.metrics"
    assert compile_config["metrics"][1] == "mae"
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    assert loaded.compiled


def test_without_optimizer_or_compile(tmp_path):
    model = _trained("mlp")
    model.save(tmp_path / "m.keras", include_optimizer=False)
    config = json.loads(_members(tmp_path / "m.keras")["config.json"])
    assert "compile_config" not in config
    with zipfile.ZipFile(tmp_path / "m.keras") as archive, \
            archive.open("model.weights.h5") as member, h5py.File(member) as f:
        assert "optimizer" not in f
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    assert not loaded.compiled
    assert_same_outputs(model, loaded, data("mlp")[0])
    model.save(tmp_path / "c.keras")
    assert not hikeras.models.load_model(tmp_path / "c.keras", compile=False).compiled


def test_uncompiled_model(tmp_path):
    model = randomize(nested())
    model.save(tmp_path / "m.keras")
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    assert not loaded.compiled
    assert_same_outputs(model, loaded, sample_x())


def test_load_weights_reads_our_archive(tmp_path):
    source = randomize(functional())
    source.save(tmp_path / "m.keras")
    target = functional(seed=4)
    report = target.load_weights(tmp_path / "m.keras")
    assert not report.missing and not report.unexpected
    assert_same_outputs(source, target, sample_x())


@pytest.mark.parametrize("name", ["m.keras", "m.h5"])
def test_overwrite_false_keeps_an_existing_file(name, tmp_path):
    path = tmp_path / name
    path.write_bytes(b"previous")
    with pytest.raises(FileExistsError, match="overwrite=False"):
        mlp().save(path, overwrite=False)
    assert path.read_bytes() == b"previous"
    mlp().save(path)
    assert hikeras.models.load_model(path).count_params() == mlp().count_params()


def test_failed_write_keeps_the_previous_archive(tmp_path, monkeypatch):
    from hikeras.saving import keras_zip_writer

    path = tmp_path / "m.keras"
    mlp().save(path)
    before = path.read_bytes()

    def crash(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(keras_zip_writer, "write_keras3_weights", crash)
    with pytest.raises(RuntimeError, match="disk full"):
        mlp().save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m.keras"]


def test_unknown_suffix_and_mismatched_save_format(tmp_path):
    with pytest.raises(ValueError, match=r"'\.keras'.*'\.h5'.*m\.tf"):
        mlp().save(tmp_path / "m.tf")
    with pytest.raises(ValueError, match="save_format='h5'"):
        mlp().save(tmp_path / "m.keras", save_format="h5")
    mlp().save(tmp_path / "m.keras", save_format="keras")
    assert zipfile.is_zipfile(tmp_path / "m.keras")
