"""Files written by real Keras 2 (tf.keras) and Keras 3 load into hikeras, and back.

The fixtures in tests/fixtures/keras_saving/ come from
tests/fixtures/make_keras_fixtures.py (run in a separate environment with
tensorflow-cpu and tf-keras): small models trained a few Adam steps, saved in
every format, with Keras's predictions and the predictions after one more
`train_on_batch` from the saved optimizer state. That script also loads
hikeras-written files (`.keras` archives included) in both Keras versions and
records the outcome in `keras_reads_hikeras.json`, checked here.
"""

import json
import zipfile
from pathlib import Path

import h5py
import numpy as np
import pytest

import hikeras
from tests.fixtures.make_keras_fixtures import KINDS, build, data, first_batch

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "keras_saving"
REFERENCE = np.load(FIXTURES / "reference.npz", allow_pickle=False)
TAGS = ("k2", "k3")


def _outputs(model, x):
    out = model.predict(x, verbose=0)
    return [np.asarray(o) for o in out] if isinstance(out, list) else [np.asarray(out)]


def _assert_predicts(model, tag, kind, key="pred", atol=1e-5):
    x = REFERENCE[f"{kind}_x"]
    got = _outputs(model, x)
    for i, out in enumerate(got):
        np.testing.assert_allclose(out, REFERENCE[f"{tag}_{kind}_{key}{i}"], atol=atol)
    assert f"{tag}_{kind}_{key}{len(got)}" not in REFERENCE


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("kind", KINDS)
def test_full_model_h5_predicts_and_continues_training_like_keras(tag, kind):
    model = hikeras.models.load_model(FIXTURES / f"{tag}_{kind}.h5")
    _assert_predicts(model, tag, kind)
    assert int(model.optimizer.iterations) == 2
    assert model.optimizer.learning_rate == pytest.approx(0.01)
    if (tag, kind) == ("k3", "rnn"):
        # Keras 3's next LSTM training step differs from Keras 2's and ours by
        # ~2e-3 (its predictions and saved optimizer state match; Keras 2's
        # continuation of the same model matches ours to 1e-5).
        return
    x, y = data(kind)
    model.train_on_batch(x[:8], first_batch(y))
    # A training step through BatchNormalization rounds differently: 1e-4.
    _assert_predicts(model, tag, kind, key="next", atol=1e-4 if kind == "cnn" else 1e-5)


@pytest.mark.parametrize("kind", KINDS)
def test_keras3_zip_loads(kind):
    # Keras 3.15 leaves the optimizer out of the zip's compile config, so the
    # model comes back compiled with its loss only when an optimizer is named.
    model = hikeras.models.load_model(FIXTURES / f"k3_{kind}.keras")
    _assert_predicts(model, "k3", kind)


@pytest.mark.parametrize("name", ["k2_{}_weights.h5", "k3_{}.weights.h5", "k2_{}.h5",
                                  "k3_{}.h5", "k3_{}.keras"])
@pytest.mark.parametrize("kind", KINDS)
def test_weights_load_topologically_into_our_build(name, kind):
    model = build(hikeras, kind)
    report = model.load_weights(FIXTURES / name.format(kind))
    assert not report.missing and not report.unexpected
    _assert_predicts(model, name[:2], kind)


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("kind", KINDS)
def test_json_of_both_dialects_rebuilds_the_architecture(tag, kind):
    model = hikeras.models.model_from_json((FIXTURES / f"{tag}_{kind}.json").read_text())
    weights = f"{tag}_{kind}_weights.h5" if tag == "k2" else f"{tag}_{kind}.weights.h5"
    model.load_weights(FIXTURES / weights)
    _assert_predicts(model, tag, kind)


def _tree(path, skip=()):
    """`{dataset path: shape}` of an HDF5 file, for layout comparisons."""
    found = {}
    with h5py.File(path) as f:
        f.visititems(lambda n, o: found.__setitem__(n, o.shape)
                     if isinstance(o, h5py.Dataset) and not n.startswith(skip) else None)
    return found


def _ours(kind, tmp_path, suffix):
    model = build(hikeras, kind)
    path = tmp_path / f"ours{suffix}"
    model.save_weights(path)
    return path


@pytest.mark.parametrize("kind", ["mlp", "functional"])
def test_our_legacy_weights_layout_is_keras2s(kind, tmp_path):
    ours = _ours(kind, tmp_path, ".h5")
    theirs = FIXTURES / f"k2_{kind}_weights.h5"
    skip = ("top_level_model_weights",)
    assert _tree(ours) == _tree(theirs, skip)
    with h5py.File(ours) as a, h5py.File(theirs) as b:
        assert set(b.attrs) <= set(a.attrs)
        names = [n.decode() for n in a.attrs["layer_names"]]
        assert names[1:] == list(b.attrs["layer_names"])[1:]  # Keras 2 calls its input input_1


@pytest.mark.parametrize("kind", KINDS)
def test_our_keras3_weights_layout_is_keras3s(kind, tmp_path):
    ours = _ours(kind, tmp_path, ".weights.h5")
    assert _tree(ours) == _tree(FIXTURES / f"k3_{kind}.weights.h5", skip=("optimizer",))


def test_our_full_model_layout_is_keras2s(tmp_path):
    model = build(hikeras, "mlp")
    x, y = data("mlp")
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="mse")
    model.fit(x, y, batch_size=8, verbose=0, shuffle=False)
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5") as a, h5py.File(FIXTURES / "k2_mlp.h5") as b:
        # hikeras adds its random-state group, which Keras never visits (see below).
        assert set(b.attrs) <= set(a.attrs) and set(b) == set(a) - {"hikeras_random_state"}
        assert set(json.loads(b.attrs["training_config"])) <= set(
            json.loads(a.attrs["training_config"]))
    assert _tree(tmp_path / "m.h5", skip=("optimizer_weights",)) == _tree(
        FIXTURES / "k2_mlp.h5", skip=("optimizer_weights", "model_weights/top_level"))


def _zip_members(path):
    with zipfile.ZipFile(path) as archive:
        return archive.namelist(), json.loads(archive.read("config.json")), json.loads(
            archive.read("metadata.json"))


def _zip_weights_tree(path, tmp_path):
    with zipfile.ZipFile(path) as archive:
        target = tmp_path / f"{path.stem}.weights.h5"
        target.write_bytes(archive.read("model.weights.h5"))
    return _tree(target)


def _graph(config):
    """Per layer of a functional config: its class, and for each call the class, node and
    tensor index of every input tensor (layer names differ between Keras and hikeras)."""
    layers = config["config"]["layers"]
    classes = {layer["name"]: layer["class_name"] for layer in layers}
    return [(layer["class_name"], [
        [(classes[t["config"]["keras_history"][0]], *t["config"]["keras_history"][1:],
          t["config"]["shape"]) for t in node["args"]] for node in layer["inbound_nodes"]])
        for layer in layers]


def _classes(config):
    """`(module, class_name)` of the model and of each of its layers, nested models' too."""
    inner = config["config"].get("layers", [])
    return [(config.get("module"), config["class_name"]), [_classes(c) for c in inner]]


@pytest.mark.parametrize("kind", KINDS)
def test_our_keras_archive_is_keras3s(kind, tmp_path):
    model = build(hikeras, kind)
    x, y = data(kind)
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=0.01), loss="mse")
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    model.save(tmp_path / "ours.keras")
    theirs = FIXTURES / f"k3_{kind}.keras"
    our_names, ours, our_metadata = _zip_members(tmp_path / "ours.keras")
    their_names, expected, their_metadata = _zip_members(theirs)
    assert our_names == their_names
    assert set(their_metadata) <= set(our_metadata)
    assert _zip_weights_tree(tmp_path / "ours.keras", tmp_path) == _zip_weights_tree(
        theirs, tmp_path)
    assert _classes(ours) == _classes(expected)
    if ours["class_name"] == "Functional":
        assert _graph(ours) == _graph(expected)
    # Keras 3.15 leaves the optimizer out of its own files' compile config (see
    # test_keras3_zip_loads); Keras 3 needs it to restore the optimizer's variables.
    assert set(expected["compile_config"]) - {"run_eagerly", "steps_per_execution",
                                              "jit_compile"} <= set(ours["compile_config"])
    assert ours["compile_config"]["optimizer"]["module"] == "keras.optimizers"


def test_keras_reads_what_hikeras_writes():
    """Issue 16, item 12: tf.keras and Keras 3 both read every file we write, including a
    nested Sequential base (written without its InputLayer, so both number its calls
    from 0), a first layer declared with `input_shape=` (no `batch_input_shape` beside
    the InputLayer) and a loss given by alias (written by its full name)."""
    results = json.loads((FIXTURES / "keras_reads_hikeras.json").read_text())
    results.pop("versions")
    failures = {k for k, v in results.items() if not v["ok"]}
    assert failures == set(), failures
    assert len(results) == 48
    assert all(v["max_abs_diff"] < 1e-5 for v in results.values() if "max_abs_diff" in v)


@pytest.mark.parametrize("kind", KINDS)
def test_keras3_loads_our_keras_archives_and_resumes_training(kind):
    result = json.loads((FIXTURES / "keras_reads_hikeras.json").read_text())[
        f"k3_reads_{kind}_model.keras"]
    assert result["ok"] and result["max_abs_diff"] < 1e-5
    assert result["iterations"] == 2  # the optimizer's state came with the file
    # One more Adam step in Keras lands where hikeras's does; Keras 3's LSTM
    # step differs by ~3e-3 (as for its own files, see above).
    assert result["next_max_abs_diff"] < (1e-2 if kind == "rnn" else 1e-5)


def test_layers_nested_in_wrappers_carry_keras_module_hints():
    """Keras 3 finds a wrapped layer's class through its `module` key: without it,
    Keras 3.15 failed to load our files of models holding `TimeDistributed`,
    `Bidirectional`, `RNN(cell)` or `SpectralNormalization` (checked by hand with
    Keras 3.15.1: with the keys, it loads them and predicts within 1e-7)."""
    from hikeras.saving.model_config import model_to_config

    L = hikeras.layers
    model = hikeras.Sequential([
        hikeras.Input((5, 3)), L.RNN(L.LSTMCell(4), return_sequences=True),
        L.TimeDistributed(L.Dense(2)), L.Bidirectional(L.LSTM(2)),
        L.SpectralNormalization(L.Dense(1))])
    wrapped = [layer["config"].get(key) for layer in model_to_config(model)["config"]["layers"]
               for key in ("layer", "cell", "backward_layer")]
    wrapped = [w for w in wrapped if w is not None]
    assert [w["class_name"] for w in wrapped] == ["LSTMCell", "Dense", "LSTM", "LSTM", "Dense"]
    assert all(w["module"] == "keras.layers" and w["registered_name"] is None for w in wrapped)


@pytest.mark.parametrize("kind", KINDS)
def test_keras_accepted_every_extra_hikeras_writes_today(tmp_path, kind):
    """Issue 21, item 7, and issue 17: the per-dataset checksums and the random-state
    group are what hikeras adds to Keras's layouts; the fixture records, per file, the
    extras that real Keras 2 and 3 loaded with identical weights. Written again now,
    each file must hold exactly those extras (a new one needs the generator re-run)."""
    from tests.fixtures.make_keras_fixtures import hikeras_extras

    results = json.loads((FIXTURES / "keras_reads_hikeras.json").read_text())
    model = build(hikeras, kind)
    x, y = data(kind)
    model.compile(optimizer=hikeras.optimizers.Adam(learning_rate=0.01),
                  loss=hikeras.losses.MeanSquaredError())
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    files = {"full.h5": ("save", "m.h5"), "model.keras": ("save", "m.keras"),
             "weights.h5": ("save_weights", "w.h5"),
             "weights_k3.weights.h5": ("save_weights", "w.weights.h5")}
    for fmt, (method, name) in files.items():
        getattr(model, method)(tmp_path / name)
        extras = hikeras_extras(str(tmp_path / name))
        assert "dataset attribute hikeras_sha256" in extras
        for tag in TAGS:
            result = results.get(f"{tag}_reads_{kind}_{fmt}")
            if result is None:  # Keras 2 reads neither `.weights.h5` nor `.keras`
                assert tag == "k2" and fmt in ("model.keras", "weights_k3.weights.h5")
                continue
            assert result["ok"] and result["hikeras_extras"] == extras, (tag, fmt)
