"""Per-array checksums: every file hikeras writes records one, loading verifies it.

The expected checksum is computed here from the model's own arrays with
`hashlib` (dtype string, shape tuple, C-order bytes), independently of
`hikeras.saving.checksums`. Damage is made by flipping one byte of a
dataset's stored data, found through HDF5's own offset of the dataset.
"""

import hashlib
import json
import zipfile
from pathlib import Path

import h5py
import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.saving import SavedFileError

ATTRIBUTE = "hikeras_sha256"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "keras_saving"


def _expected(array):
    array = np.asarray(array)
    return hashlib.sha256(f"{array.dtype.str}{array.shape}".encode()
                          + array.tobytes(order="C")).hexdigest()


def _model(compiled=True):
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4, name="a"),
                                layers.BatchNormalization(name="norm"),
                                layers.Dense(2, name="b")])
    if compiled:
        model.compile(optimizer="adam", loss="mse")
        model.fit(np.ones((4, 3), "float32"), np.ones((4, 2), "float32"), verbose=0)
    return model


def _datasets(h5file):
    found = {}

    def visit(name, obj):  # returns None: a value would stop the walk
        if isinstance(obj, h5py.Dataset):
            found[name] = obj

    h5file.visititems(visit)
    return found


def _stamps(path):
    with h5py.File(path, "r") as f:
        return {name: (_expected(d[()]), d.attrs.get(ATTRIBUTE)) for name, d in
                _datasets(f).items()}


def _extract(archive_path, tmp_path):
    with zipfile.ZipFile(archive_path) as archive:
        return Path(archive.extract("model.weights.h5", tmp_path / "extracted"))


def _replace_weights(archive_path, weights_path):
    """Rewrites a `.keras` archive with another `model.weights.h5`."""
    with zipfile.ZipFile(archive_path) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    members["model.weights.h5"] = Path(weights_path).read_bytes()
    with zipfile.ZipFile(archive_path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _flip_byte(path, dataset_name, position=0):
    with h5py.File(path, "r") as f:
        offset = f[dataset_name].id.get_offset()
    with open(path, "r+b") as raw:
        raw.seek(offset + position)
        byte = raw.read(1)
        raw.seek(offset + position)
        raw.write(bytes([byte[0] ^ 0x10]))


@pytest.mark.parametrize("name", ["w.h5", "w.weights.h5", "m.h5"])
def test_every_dataset_of_our_h5_files_carries_its_checksum(tmp_path, name):
    model = _model()
    path = tmp_path / name
    (model.save if name == "m.h5" else model.save_weights)(path)
    stamps = _stamps(path)
    weights = {n: s for n, s in stamps.items() if "random_state" not in n}
    assert len(weights) == len(model.weights) + len(model.optimizer.variables) * (
        name != "w.h5")
    for dataset, (expected, recorded) in weights.items():
        assert recorded is not None, dataset
        assert recorded.decode() == expected, dataset


def test_the_keras_archive_weights_carry_checksums(tmp_path):
    model = _model()
    model.save(tmp_path / "m.keras")
    stamps = _stamps(_extract(tmp_path / "m.keras", tmp_path))
    assert len(stamps) == len(model.weights) + len(model.optimizer.variables)
    assert all(recorded.decode() == expected for expected, recorded in stamps.values())


def test_sharded_shards_carry_checksums(tmp_path):
    model = _model()
    model.save_weights(tmp_path / "m.weights.json", max_shard_size=64)
    shards = sorted(tmp_path.glob("m.weights.*.data-*"))
    assert len(shards) > 1
    stamps = {}
    for shard in shards:
        stamps.update({f"{shard.name}/{k}": v for k, v in _stamps(shard).items()})
    assert len(stamps) == len(model.weights) + len(model.optimizer.variables)
    assert all(recorded.decode() == expected for expected, recorded in stamps.values())


def _assert_refused(error, path, layer, weight):
    message = str(error.value)
    assert str(path) in message
    assert f"layer '{layer}'" in message and weight in message
    assert "checksum" in message


@pytest.mark.parametrize("name,dataset,weight", [
    ("w.h5", "b/b/kernel:0", "b/kernel:0"),
    ("w.weights.h5", "layers/dense_1/vars/0", "layers/dense_1/vars/0"),
])
def test_load_weights_refuses_a_damaged_weight_and_changes_nothing(tmp_path, name, dataset,
                                                                     weight):
    model = _model()
    path = tmp_path / name
    model.save_weights(path)
    _flip_byte(path, dataset, position=5)
    fresh = _model(compiled=False)
    before = [v.value.copy() for v in fresh.weights]
    with pytest.raises(SavedFileError) as error:
        fresh.load_weights(path)
    _assert_refused(error, path, "b", weight)
    for old, var in zip(before, fresh.weights):
        np.testing.assert_array_equal(old, var.value)


def test_load_model_refuses_a_damaged_h5_model(tmp_path):
    path = tmp_path / "m.h5"
    _model().save(path)
    _flip_byte(path, "model_weights/a/a/bias:0")
    with pytest.raises(SavedFileError) as error:
        hikeras.models.load_model(path)
    _assert_refused(error, path, "a", "a/bias:0")


def test_load_model_refuses_a_damaged_optimizer_weight(tmp_path):
    path = tmp_path / "m.h5"
    model = _model()
    model.save(path)
    with h5py.File(path, "r") as f:
        names = [n.decode() for n in f["optimizer_weights"].attrs["weight_names"]]
    moment = next(n for n in names if "kernel" in n)
    _flip_byte(path, f"optimizer_weights/{moment}", position=2)
    with pytest.raises(SavedFileError, match="optimizer weight") as error:
        hikeras.models.load_model(path)
    assert moment in str(error.value) and str(path) in str(error.value)


def test_load_model_refuses_a_damaged_keras_archive(tmp_path):
    path = tmp_path / "m.keras"
    _model().save(path)
    weights = _extract(path, tmp_path)
    _flip_byte(weights, "layers/batch_normalization/vars/2", position=1)  # moving mean
    _replace_weights(path, weights)
    with pytest.raises(SavedFileError) as error:
        hikeras.models.load_model(path)
    _assert_refused(error, path, "norm", "layers/batch_normalization/vars/2")


def test_a_damaged_shard_is_refused_even_when_its_index_hash_was_rewritten(tmp_path):
    """The index's SHA-256 covers a shard's bytes; the dataset's own checksum still
    catches an edit whose author also rewrote the index (damage, not an attack)."""
    model = _model()
    index_path = tmp_path / "m.weights.json"
    model.save_weights(index_path, max_shard_size=10**6)
    index = json.loads(index_path.read_text())
    name = next(n for n in index["tensors"] if n.startswith("a/") and "kernel" in n)
    spec = index["tensors"][name]
    shard = tmp_path / spec["shard"]
    _flip_byte(shard, spec["key"], position=3)
    with h5py.File(shard, "r") as f:
        spec["sha256"] = hashlib.sha256(f[spec["key"]][()].tobytes()).hexdigest()
    index_path.write_text(json.dumps(index))
    with pytest.raises(SavedFileError) as error:
        _model(compiled=False).load_weights(index_path)
    _assert_refused(error, index_path, "a", name)


def test_a_malformed_checksum_attribute_is_a_clear_error(tmp_path):
    path = tmp_path / "w.weights.h5"
    _model().save_weights(path)
    with h5py.File(path, "r+") as f:
        f["layers/dense/vars/0"].attrs[ATTRIBUTE] = np.float64(3.0)
    with pytest.raises(SavedFileError, match=f"layers/dense/vars/0.*malformed '{ATTRIBUTE}'"):
        _model(compiled=False).load_weights(path)


def test_a_removed_checksum_loads_like_a_keras_file(tmp_path):
    model = _model()
    path = tmp_path / "w.weights.h5"
    model.save_weights(path)
    with h5py.File(path, "r+") as f:
        for dataset in _datasets(f).values():
            del dataset.attrs[ATTRIBUTE]
    fresh = _model(compiled=False)
    fresh.load_weights(path)
    for a, b in zip(model.weights, fresh.weights):
        np.testing.assert_array_equal(a.value, b.value)


@pytest.mark.parametrize("name", ["k3_cnn.weights.h5", "k3_cnn.h5", "k2_cnn_weights.h5"])
def test_keras_files_have_no_checksums_and_load_as_before(name):
    with h5py.File(FIXTURES / name, "r") as f:
        assert not any(ATTRIBUTE in d.attrs for d in _datasets(f).values())
    from tests.fixtures.make_keras_fixtures import build

    model = build(hikeras, "cnn")
    model.load_weights(FIXTURES / name)
