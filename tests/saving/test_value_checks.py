"""Loaded values: dtype changes outside float32 <-> float64 are refused, NaN/inf warned.

Files are edited with h5py to hold a weight of another dtype (its checksum
attribute removed, as in a file Keras wrote), or written from a model whose
weight holds NaN and inf; every loading path is covered: `load_weights` in
each format, `load_model` (`.h5` and `.keras`) and `BackupAndRestore`.
"""

import warnings
import zipfile

import h5py
import numpy as np
import pytest

import hikeras
from hikeras import callbacks, layers
from hikeras.saving import SavedFileError

CHECKSUM = "hikeras_sha256"
WEIGHTS_DATASET = {"w.h5": "b/b/kernel:0", "w.weights.h5": "layers/dense_1/vars/0",
                   "m.h5": "model_weights/b/b/kernel:0"}


def _model(dtype=None, compiled=False):
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4, name="a", dtype=dtype),
                                layers.Dense(2, name="b", dtype=dtype)])
    if compiled:
        model.compile(optimizer="sgd", loss="mse")
    return model


def _retype(path, dataset, dtype):
    """Rewrites `dataset` as `dtype` (no checksum: the edit is a Keras-like file)."""
    with h5py.File(path, "r+") as f:
        values = f[dataset][()]
        del f[dataset]
        f.create_dataset(dataset, data=values.astype(dtype))


def _save(model, path):
    (model.save if path.name in ("m.h5", "m.keras") else model.save_weights)(path)


def _load(path, model):
    if path.name in ("m.h5", "m.keras"):
        return hikeras.models.load_model(path)
    return model.load_weights(path)


@pytest.mark.parametrize("dtype", ["int32", "float16", "bool", "uint64"])
@pytest.mark.parametrize("name", sorted(WEIGHTS_DATASET))
def test_a_changed_dtype_is_refused_naming_the_weight(tmp_path, name, dtype):
    path = tmp_path / name
    _save(_model(), path)
    _retype(path, WEIGHTS_DATASET[name], dtype)
    with pytest.raises(SavedFileError, match=rf"weight 'b/kernel' of layer 'b' has dtype "
                                             rf"float32 in the model but {dtype} in the file"):
        _load(path, _model())


def test_a_changed_dtype_in_a_keras_archive_is_refused(tmp_path):
    path = tmp_path / "m.keras"
    _save(_model(), path)
    with zipfile.ZipFile(path) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    weights = tmp_path / "model.weights.h5"
    weights.write_bytes(members["model.weights.h5"])
    _retype(weights, "layers/dense/vars/1", "int64")
    members["model.weights.h5"] = weights.read_bytes()
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    with pytest.raises(SavedFileError, match="weight 'a/bias' of layer 'a' has dtype float32 "
                                             "in the model but int64"):
        hikeras.models.load_model(path)


def test_a_changed_dtype_in_a_shard_is_refused(tmp_path):
    index = tmp_path / "m.weights.json"
    _model().save_weights(index, max_shard_size=10**6)
    shard = next(tmp_path.glob("m.weights.*.data-*"))
    _retype(shard, "t0", "int32")
    with pytest.raises(SavedFileError, match="'a/kernel' of layer 'a' has dtype float32 in the "
                                             "model but int32"):
        _model().load_weights(index)


def test_skip_mismatch_skips_a_layer_whose_dtype_changed(tmp_path):
    path = tmp_path / "w.h5"
    _model().save_weights(path)
    _retype(path, WEIGHTS_DATASET["w.h5"], "int32")
    report = _model().load_weights(path, skip_mismatch=True, by_name=True)
    assert [what for what, _ in report.skipped] == ["layer 'b'"]
    assert "int32" in report.skipped[0][1]
    assert [path for _, path in report.matched] == ["a/kernel", "a/bias"]


@pytest.mark.parametrize("saved,loaded", [("float64", "float32"), ("float32", "float64")])
@pytest.mark.parametrize("name", ["w.h5", "w.weights.h5"])
def test_float32_and_float64_convert_both_ways(tmp_path, name, saved, loaded):
    source = _model(saved)
    path = tmp_path / name
    source.save_weights(path)
    target = _model(loaded)
    target.load_weights(path)
    for a, b in zip(source.weights, target.weights):
        assert b.value.dtype == np.dtype(loaded)
        np.testing.assert_array_equal(a.value.astype(loaded), b.value)


def test_an_optimizer_weight_of_another_dtype_is_not_restored(tmp_path):
    model = _model(compiled=True)
    model.fit(np.ones((2, 3), "float32"), np.ones((2, 2), "float32"), verbose=0)
    path = tmp_path / "w.weights.h5"
    model.save_weights(path)
    _retype(path, "optimizer/vars/0", "float32")  # the iteration counter, saved as int64
    fresh = _model(compiled=True)
    report = fresh.load_weights(path)
    assert [what for what, _ in report.skipped] == ["optimizer state"]
    assert "has dtype int64 in the model but float32" in report.skipped[0][1]


def _poisoned():
    model = _model(compiled=True)
    kernel = model.layers[1].kernel
    value = kernel.value.copy()
    value[0, 0], value[1, 1] = np.nan, -np.inf
    kernel.assign(value)
    return model


def _one_warning(record):
    messages = [str(w.message) for w in record if "NaN or infinite" in str(w.message)]
    assert len(messages) == 1, messages
    return messages[0]


@pytest.mark.parametrize("name", ["w.h5", "w.weights.h5"])
def test_nonfinite_weights_load_with_one_warning_and_are_reported(tmp_path, name):
    path = tmp_path / name
    _poisoned().save_weights(path)
    fresh = _model()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        report = fresh.load_weights(path)
    message = _one_warning(record)
    assert str(path) in message and "'b/kernel'" in message and "'a/kernel'" not in message
    assert [p for _, p in report.nonfinite] == ["b/kernel"]
    assert "NaN/inf in" in report.summary()
    assert np.isnan(fresh.layers[1].kernel.value[0, 0])


def test_sharded_nonfinite_weights_are_reported(tmp_path):
    index = tmp_path / "m.weights.json"
    _poisoned().save_weights(index, max_shard_size=10**6)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        report = _model().load_weights(index)
    assert "b/kernel" in _one_warning(record)
    assert [p for _, p in report.nonfinite] == ["b/kernel"]


@pytest.mark.parametrize("name", ["m.h5", "m.keras"])
def test_load_model_warns_about_nonfinite_weights(tmp_path, name):
    path = tmp_path / name
    _poisoned().save(path)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        hikeras.models.load_model(path)
    assert "'b/kernel'" in _one_warning(record)


def test_finite_weights_load_without_a_warning(tmp_path):
    path = tmp_path / "w.weights.h5"
    _model().save_weights(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = _model().load_weights(path)
    assert report.nonfinite == []


def _backup_of(model, tmp_path):
    backup = callbacks.BackupAndRestore(tmp_path, delete_checkpoint=False)
    model.fit(np.ones((2, 3), "float32"), np.ones((2, 2), "float32"), epochs=1, verbose=0,
              callbacks=[backup])
    return tmp_path / "training_state.h5"


def test_backup_and_restore_refuses_a_changed_dtype(tmp_path):
    path = _backup_of(_model(compiled=True), tmp_path)
    _retype(path, "weights/2", "int32")
    with pytest.raises(ValueError, match=r"cannot resume from .*weight 'b/kernel' \(weights/2\) "
                                         r"has dtype float32 in the model but int32"):
        _model(compiled=True).fit(np.ones((2, 3), "float32"), np.ones((2, 2), "float32"),
                                  epochs=2, verbose=0,
                                  callbacks=[callbacks.BackupAndRestore(tmp_path)])


def test_backup_and_restore_warns_about_nonfinite_weights(tmp_path):
    path = _backup_of(_model(compiled=True), tmp_path)
    with h5py.File(path, "r+") as f:
        f["weights/0"][0, 0] = np.inf
        f["weights/0"].attrs.pop(CHECKSUM, None)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        _model(compiled=True).fit(np.ones((2, 3), "float32"), np.ones((2, 2), "float32"),
                                  epochs=1, verbose=0,
                                  callbacks=[callbacks.BackupAndRestore(tmp_path)])
    message = _one_warning(record)
    assert str(path) in message and "'a/kernel' (saved as 'weights/0')" in message


def test_backup_and_restore_refuses_a_damaged_weight(tmp_path):
    path = _backup_of(_model(compiled=True), tmp_path)
    with h5py.File(path, "r+") as f:
        f["weights/2"][0, 0] += 1.0  # the data changes, its recorded checksum does not
    with pytest.raises(ValueError, match=r"cannot resume from .*'/weights/2' does not match "
                                         r"the checksum"):
        _model(compiled=True).fit(np.ones((2, 3), "float32"), np.ones((2, 2), "float32"),
                                  epochs=2, verbose=0,
                                  callbacks=[callbacks.BackupAndRestore(tmp_path)])
