"""Keras 3's `save_own_variables(store)` / `load_own_variables(store)`: the default
pair, its errors, and custom layers that override it, through every file format."""

import os

import h5py
import numpy as np
import pytest

import hikeras
from hikeras import layers, ops
from hikeras.saving import SavedFileError, register_keras_serializable
from tests.saving.saving_models import ScaleWithStats


@register_keras_serializable(package="own_variables_tests")
class Calibrated(layers.Layer):
    """`x @ kernel + bias`, plus a histogram of its outputs' signs that is not a variable.

    It saves its variables under names, bias first, and the histogram as a
    plain array whose length grows with use (so a fresh layer's differs).
    """

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 2), name="kernel")
        self.bias = self.add_weight(shape=(2,), initializer="zeros", name="bias")
        self.counts = np.zeros(2, "int64")

    def call(self, inputs):
        return ops.matmul(inputs, self.kernel) + self.bias

    def save_own_variables(self, store):
        store["bias"] = self.bias
        store["kernel"] = self.kernel
        store["counts"] = self.counts

    def load_own_variables(self, store):
        self.bias.assign(store["bias"])
        self.kernel.assign(store["kernel"])
        self.counts = np.array(store["counts"])


@register_keras_serializable(package="own_variables_tests")
class Table(layers.Layer):
    """A lookup table: state without any variable, saved under its own key."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.table = np.zeros(4, "float32")

    def call(self, inputs):
        return inputs + ops.sum(self.table)

    def save_own_variables(self, store):
        store["table"] = self.table

    def load_own_variables(self, store):
        self.table = np.array(store["table"])


def _model(seed=0):
    """Calibrated and Table at the top and inside a nested model, next to plain layers."""
    hikeras.utils.set_random_seed(seed)
    inner = hikeras.Sequential([hikeras.Input((3,)), Calibrated(name="inner_calibrated"),
                                layers.Dense(3, name="inner_dense")], name="inner")
    x = hikeras.Input((3,))
    h = layers.Dense(3, name="dense")(x)
    h = Table(name="table")(Calibrated(name="calibrated")(inner(h)))
    return hikeras.Model(x, layers.Dense(1, name="head")(h))


def _used(model, seed=1):
    """Random weights, a grown histogram and a filled table."""
    rng = np.random.default_rng(seed)
    for v in model.weights:
        v.assign(rng.uniform(0.1, 1.0, size=v.shape).astype(v.dtype))
    for layer in (model.get_layer("calibrated"), model.get_layer("inner").layers[0]):
        layer.counts = rng.integers(0, 9, size=5)
    model.get_layer("table").table = rng.uniform(size=4).astype("float32")
    return model


def _assert_same_state(a, b):
    for v, w in zip(a.weights, b.weights):
        np.testing.assert_array_equal(v.value, w.value)
    for name in ("calibrated", "inner"):
        x, y = a.get_layer(name), b.get_layer(name)
        if name == "inner":
            x, y = x.layers[0], y.layers[0]
        np.testing.assert_array_equal(x.counts, y.counts)
    np.testing.assert_array_equal(a.get_layer("table").table, b.get_layer("table").table)
    sample = np.random.default_rng(5).normal(size=(4, 3)).astype("float32")
    np.testing.assert_array_equal(a.predict(sample, verbose=0), b.predict(sample, verbose=0))


# ---------------------------------------------------------------- the default pair
def test_default_store_holds_own_variables_trainable_first():
    layer = ScaleWithStats()  # creates gamma, moving_mean (non-trainable), beta
    layer.build((None, 3))
    store = {}
    layer.save_own_variables(store)
    assert list(store) == ["0", "1", "2"]
    assert [store[k] for k in store] == [layer.gamma, layer.beta, layer.moving_mean]
    assert layer.own_variables() == [layer.gamma, layer.beta, layer.moving_mean]
    layer.trainable = False  # freezing does not reorder the store
    frozen = {}
    layer.save_own_variables(frozen)
    assert [frozen[k] for k in frozen] == [store[k] for k in store]
    assert layer.own_variables(trainable=True) == [layer.gamma, layer.beta]
    assert layer.own_variables(trainable=False) == [layer.moving_mean]


def test_default_store_leaves_sublayers_to_themselves():
    wrapper = layers.Bidirectional(layers.LSTM(2))
    wrapper.build((None, 4, 3))
    store = {}
    wrapper.save_own_variables(store)
    assert store == {}
    inner = {}
    wrapper.forward_layer.cell.save_own_variables(inner)
    assert [v.name for v in inner.values()] == ["kernel", "recurrent_kernel", "bias"]


def test_default_load_round_trips_through_a_dict():
    source, target = layers.Dense(2), layers.Dense(2)
    source.build((None, 3))
    target.build((None, 3))
    source.kernel.assign(np.arange(6, dtype="float32").reshape(3, 2))
    store = {}
    source.save_own_variables(store)
    target.load_own_variables({k: np.array(v.value) for k, v in store.items()})
    np.testing.assert_array_equal(target.kernel.value, source.kernel.value)
    target.load_own_variables(store)  # variables themselves are accepted too
    np.testing.assert_array_equal(target.bias.value, source.bias.value)


def test_count_mismatch_names_the_layer_and_both_counts():
    layer = layers.Dense(2, name="probe")
    layer.build((None, 3))
    with pytest.raises(ValueError, match=r"Layer 'probe' \(Dense\) expected 2 variables, but "
                                         r"received 1 variables during loading\. Expected: "
                                         r"\['kernel', 'bias'\].*Received: keys=\['0'\]"):
        layer.load_own_variables({"0": np.zeros((3, 2))})
    with pytest.raises(ValueError, match=r"expected 0 variables, but received 2.*never built"):
        layers.Dense(2, name="unbuilt").load_own_variables({"0": 1, "1": 2})


def test_wrong_keys_or_shapes_are_caught_before_anything_is_assigned():
    layer = layers.Dense(2, name="probe")
    layer.build((None, 3))
    kernel = layer.kernel.numpy().copy()
    with pytest.raises(ValueError, match=r"'probe'.*no '1' \(for 'bias'\).*keys=\['0', '2'\]"):
        layer.load_own_variables({"0": np.ones((3, 2)), "2": np.ones(2)})
    with pytest.raises(ValueError, match=r"'bias' has shape \(2,\), but the store's '1' has "
                                         r"shape \(5,\)"):
        layer.load_own_variables({"0": np.ones((3, 2)), "1": np.ones(5)})
    np.testing.assert_array_equal(layer.kernel.numpy(), kernel)


def test_a_store_must_hold_numeric_arrays_under_plain_keys(tmp_path):
    class BadKey(layers.Layer):
        def save_own_variables(self, store):
            store["a/b"] = np.zeros(2)

    class BadValue(layers.Layer):
        def save_own_variables(self, store):
            store["words"] = np.array(["a", "b"])

    for layer, message in ((BadKey(), r"string keys without '/'.*key='a/b'"),
                           (BadValue(), r"numeric arrays.*store\['words'\] of dtype <U1")):
        model = hikeras.Sequential([hikeras.Input((2,)), layer])
        with pytest.raises(ValueError, match=message):
            model.save_weights(tmp_path / "w.weights.h5")


# ------------------------------------------------------- overrides, every format
@pytest.mark.parametrize("how", ["keras", "model_h5", "weights_h5", "legacy_weights_h5",
                                 "sharded"])
def test_overriding_layers_round_trip(tmp_path, how):
    source = _used(_model())
    if how == "keras":
        source.save(tmp_path / "m.keras")
        target = hikeras.models.load_model(tmp_path / "m.keras")
    elif how == "model_h5":
        source.save(tmp_path / "m.h5")
        target = hikeras.models.load_model(tmp_path / "m.h5")
    else:
        path = {"weights_h5": "w.weights.h5", "legacy_weights_h5": "w.h5",
                "sharded": "ckpt/w.weights.json"}[how]
        os.makedirs(tmp_path / "ckpt", exist_ok=True)
        source.save_weights(tmp_path / path, max_shard_size="1KB" if how == "sharded" else None)
        target = _model(seed=3)
        report = target.load_weights(tmp_path / path)
        assert not (report.missing or report.unexpected or report.skipped)
        assert ("layers/calibrated/vars/counts" if how == "weights_h5"
                else "calibrated/counts:0" if how == "legacy_weights_h5"
                else "table/table/table") in [name for name, _ in report.matched]
    assert target.get_layer("calibrated").counts.shape == (5,)  # not a fresh layer's (2,)
    _assert_same_state(source, target)


def test_files_keep_the_stores_keys_and_order(tmp_path):
    model = _used(_model())
    model.save_weights(tmp_path / "w.weights.h5")
    with h5py.File(tmp_path / "w.weights.h5") as f:
        assert list(f["layers/calibrated/vars"]) == ["bias", "counts", "kernel"]  # h5 sorts
        np.testing.assert_array_equal(f["layers/calibrated/vars/counts"][()],
                                      model.get_layer("calibrated").counts)
        assert list(f["layers/table/vars"]) == ["table"]
        inner = f["layers/sequential/layers/calibrated/vars"]
        assert inner.attrs["name"] == "inner_calibrated" and "kernel" in inner
    model.save_weights(tmp_path / "w.h5")
    with h5py.File(tmp_path / "w.h5") as f:
        # Keras 2's layout: trainable variables (in store order), then plain arrays.
        assert [n.decode() for n in f["calibrated"].attrs["weight_names"]] == [
            "calibrated/bias:0", "calibrated/kernel:0", "calibrated/counts:0"]
        assert [n.decode() for n in f["inner"].attrs["weight_names"]] == [
            "inner_calibrated/bias:0", "inner_calibrated/kernel:0", "inner_dense/kernel:0",
            "inner_dense/bias:0", "inner_calibrated/counts:0"]
        assert [n.decode() for n in f["table"].attrs["weight_names"]] == ["table/table:0"]


@pytest.mark.parametrize("suffix", [".weights.h5", ".h5"])
def test_variable_shapes_of_an_overriding_layer_are_checked_first(tmp_path, suffix):
    _used(_model()).save_weights(tmp_path / f"w{suffix}")
    hikeras.utils.set_random_seed(0)
    x = hikeras.Input((3,))
    h = layers.Dense(3, name="dense")(x)
    inner = hikeras.Sequential([hikeras.Input((3,)), Calibrated(name="inner_calibrated"),
                                layers.Dense(3, name="inner_dense")], name="inner")
    h = Table(name="table")(Calibrated(name="calibrated")(inner(h)))
    other = hikeras.Model(x, layers.Dense(4, name="head")(h))  # head: (2, 4), not (2, 1)
    before = [v.numpy().copy() for v in other.weights]
    table = other.get_layer("table").table.copy()
    with pytest.raises(SavedFileError, match=r"head/kernel.*\(2, 4\) in the model"):
        other.load_weights(tmp_path / f"w{suffix}")
    for v, old in zip(other.weights, before):
        np.testing.assert_array_equal(v.value, old)
    np.testing.assert_array_equal(other.get_layer("table").table, table)


def test_a_failing_load_own_variables_names_the_file_and_layer(tmp_path):
    class Fussy(Table):
        def load_own_variables(self, store):
            raise ValueError("the table is stale")

    model = hikeras.Sequential([hikeras.Input((2,)), Fussy(name="fussy")])
    model.save_weights(tmp_path / "w.weights.h5")
    with pytest.raises(SavedFileError, match=r"w\.weights\.h5' could not be loaded into layer "
                                             r"'fussy' \(Fussy\.load_own_variables raised "
                                             r"ValueError: the table is stale\)"):
        model.load_weights(tmp_path / "w.weights.h5")


def test_entries_a_layer_did_not_write_reach_only_an_overriding_layer(tmp_path):
    """Keras writes state some layers read themselves (a lookup layer's `idf_weights`)."""
    seen = {}

    class Curious(Table):
        def load_own_variables(self, store):
            seen.update({k: np.array(store[k]) for k in store})
            super().load_own_variables(store)

    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(2, name="dense"),
                                Curious(name="curious")])
    model.save_weights(tmp_path / "w.weights.h5")
    with h5py.File(tmp_path / "w.weights.h5", "a") as f:
        # as Keras writes it: no checksums (a hikeras file with an entry added is refused)
        f.visititems(lambda _, obj: [obj.attrs.pop("hikeras_sha256", None), None][1])
        f["layers/curious/vars/extra"] = np.arange(3)
        f["layers/dense/vars/extra"] = np.arange(3)  # a default layer never sees it
    report = model.load_weights(tmp_path / "w.weights.h5")
    assert sorted(seen) == ["extra", "table"]
    np.testing.assert_array_equal(seen["extra"], np.arange(3))
    assert len(report.matched) == 3 and not report.unexpected


def test_load_store_is_read_only_mapping(tmp_path):
    captured = {}

    class Keeper(Table):
        def load_own_variables(self, store):
            captured["store"] = store
            captured["keys"] = list(store.keys())
            captured["value"] = store["table"]
            super().load_own_variables(store)

    model = hikeras.Sequential([hikeras.Input((2,)), Keeper()])
    model.save_weights(tmp_path / "w.weights.h5")
    model.load_weights(tmp_path / "w.weights.h5")
    assert captured["keys"] == ["table"] and len(captured["store"]) == 1
    assert "table" in captured["store"] and not captured["value"].flags.writeable
    with pytest.raises(TypeError):
        captured["store"]["table"] = 1


# ------------------------------------------------------------------- assets
@register_keras_serializable(package="own_variables_tests")
class Glossary(layers.Layer):
    """Keeps a word list as a `.keras` asset, as Keras's lookup layers do."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.words = []

    def save_assets(self, dir_path):
        with open(os.path.join(dir_path, "words.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(self.words))

    def load_assets(self, dir_path):
        with open(os.path.join(dir_path, "words.txt"), encoding="utf-8") as f:
            self.words = f.read().split("\n")


def test_assets_round_trip_through_a_keras_archive(tmp_path):
    import zipfile

    model = hikeras.Sequential([hikeras.Input((2,)), Glossary(name="glossary")])
    model.layers[0].words = ["ça", "va"]
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as archive:
        assert archive.namelist()[3:] == ["assets/layers/glossary/words.txt"]
    assert hikeras.models.load_model(tmp_path / "m.keras").layers[0].words == ["ça", "va"]


@register_keras_serializable(package="own_variables_tests")
class PickyGlossary(Glossary):
    def load_assets(self, dir_path):
        raise ValueError("unknown words")


@register_keras_serializable(package="own_variables_tests")
class FolderGlossary(Glossary):
    def save_assets(self, dir_path):
        os.makedirs(os.path.join(dir_path, "sub"))


def test_assets_that_do_not_load_name_the_file_and_layer(tmp_path):
    model = hikeras.Sequential([hikeras.Input((2,)), PickyGlossary(name="picky")])
    model.layers[0].words = ["a"]
    model.save(tmp_path / "m.keras")
    with pytest.raises(SavedFileError, match=r"m\.keras' has assets for layer 'picky' that do "
                                             r"not fit it \(ValueError: unknown words\)"):
        hikeras.models.load_model(tmp_path / "m.keras")


def test_save_assets_may_only_write_files(tmp_path):
    model = hikeras.Sequential([hikeras.Input((2,)), FolderGlossary(name="folder")])
    with pytest.raises(ValueError, match=r"'folder' \(FolderGlossary\)\.save_assets may only "
                                         r"write plain files.*Received: 'sub'"):
        model.save(tmp_path / "m.keras")
    assert not (tmp_path / "m.keras").exists()
