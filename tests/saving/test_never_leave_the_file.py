"""Attack classes from issue #21: no saved file makes hikeras read another file,
block, or loop (one test per attack; see docs/saving.md, "Guarantees")."""

import json
import os
import signal
import time
import zipfile

import h5py
import numpy as np
import pytest

import hikeras
from hikeras.saving import SavedFileError, h5_open
from tests.saving.saving_models import mlp, randomize

_OUTSIDE = "outside the file"


def _secret(tmp_path):
    path = tmp_path / "secret.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("kernel", data=np.full((4, 6), 7.0, "f4"))
    return path


def _link_out(path, group, name, secret, relative=False):
    """Replaces `group/name` in an HDF5 file by an external link to `secret`."""
    with h5py.File(path, "r+") as f:
        del f[group][name]
        f[group][name] = h5py.ExternalLink(secret.name if relative else str(secret), "kernel")


@pytest.mark.parametrize("suffix", [".h5", ".weights.h5"])
def test_external_links_in_weights_files_are_refused(tmp_path, suffix):
    secret = _secret(tmp_path)
    path = tmp_path / f"w{suffix}"
    mlp().save_weights(path)
    with h5py.File(path, "r") as f:
        names = []
        f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
    group, _, name = names[0].rpartition("/")
    _link_out(path, group, name, secret)
    model = mlp()
    before = model.get_weights()
    with pytest.raises(SavedFileError, match=f"w{suffix}.*external link.*{_OUTSIDE}"):
        model.load_weights(path)
    assert all(np.array_equal(a, b) for a, b in zip(before, model.get_weights()))


def test_external_link_in_a_full_model_h5_is_refused(tmp_path):
    secret = _secret(tmp_path)
    path = tmp_path / "m.h5"
    mlp().save(path)
    with h5py.File(path, "r+") as f:
        f["model_weights"]["evil"] = h5py.ExternalLink(str(secret), "/")
    with pytest.raises(SavedFileError, match=f"m.h5.*'/model_weights/evil'.*{_OUTSIDE}"):
        hikeras.models.load_model(path)


def test_relative_external_link_inside_a_keras_archive_is_refused(tmp_path, monkeypatch):
    secret = _secret(tmp_path)
    path = tmp_path / "m.keras"
    mlp().save(path)
    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    weights = tmp_path / "model.weights.h5"
    weights.write_bytes(members["model.weights.h5"])
    with h5py.File(weights, "r+") as f:
        f["layers"]["evil"] = h5py.ExternalLink(secret.name, "/")
    members["model.weights.h5"] = weights.read_bytes()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    monkeypatch.chdir(tmp_path)  # where a relative link would resolve
    with pytest.raises(SavedFileError, match=f"m.keras: model.weights.h5.*{_OUTSIDE}"):
        hikeras.models.load_model(path)


def test_external_raw_storage_in_a_keras_archive_is_refused(tmp_path):
    """A lookup layer's `idf_weights` (or any dataset) pointed at another file's bytes."""
    secret = tmp_path / "system-file"
    secret.write_bytes(b"private bytes!!!" * 4)
    path = tmp_path / "m.keras"
    mlp().save(path)
    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    weights = tmp_path / "model.weights.h5"
    weights.write_bytes(members["model.weights.h5"])
    with h5py.File(weights, "r+") as f:
        f.create_dataset("layers/idf_weights", shape=(4,), dtype="f8",
                         external=[(str(secret), 0, 32)])
    members["model.weights.h5"] = weights.read_bytes()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    with pytest.raises(SavedFileError, match=f"'/layers/idf_weights'.*{_OUTSIDE}"):
        hikeras.models.load_model(path)


def test_virtual_datasets_are_refused(tmp_path):
    secret = _secret(tmp_path)
    path = tmp_path / "w.weights.h5"
    mlp().save_weights(path)
    layout = h5py.VirtualLayout(shape=(4, 6), dtype="f4")
    layout[...] = h5py.VirtualSource(str(secret), "kernel", shape=(4, 6))
    with h5py.File(path, "r+") as f:
        f.create_virtual_dataset("layers/evil", layout)
    with pytest.raises(SavedFileError, match=f"virtual dataset '/layers/evil'.*{_OUTSIDE}"):
        mlp().load_weights(path)


def test_external_link_in_a_shard_is_refused_even_with_a_matching_checksum(tmp_path):
    secret = _secret(tmp_path)
    index = tmp_path / "m.weights.json"
    randomize(mlp()).save_weights(index, max_shard_size=64)
    spec = json.loads(index.read_text())
    first = next(iter(spec["tensors"].values()))
    shard = tmp_path / first["shard"]
    _link_out(shard, "/", first["key"], secret)
    first["sha256"] = "0" * 64  # an attacker controls the index as well
    index.write_text(json.dumps(spec))
    with pytest.raises(SavedFileError, match=f"{first['shard']}.*{_OUTSIDE}"):
        mlp().load_weights(index)


def test_a_hostile_backup_is_refused(tmp_path):
    secret = _secret(tmp_path)
    model = mlp()
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((4, 4), "f4"), np.ones((4, 3), "f4")
    backup = hikeras.callbacks.BackupAndRestore(str(tmp_path / "b"), delete_checkpoint=False)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[backup])
    path = next((tmp_path / "b").glob("*.h5"))
    with h5py.File(path, "r+") as f:
        f["weights"]["evil"] = h5py.ExternalLink(str(secret), "kernel")
    with pytest.raises(ValueError, match=f"cannot resume.*{_OUTSIDE}"):
        model.fit(x, y, epochs=2, verbose=0, callbacks=[backup])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_fifos_and_devices_are_refused_before_opening(tmp_path):
    fifo = tmp_path / "w.h5"
    os.mkfifo(fifo)
    with pytest.raises(SavedFileError, match="w.h5' is a named pipe"):
        mlp().load_weights(fifo)
    with pytest.raises(SavedFileError, match="m.h5' is a named pipe"):
        os.rename(fifo, tmp_path / "m.h5")
        hikeras.models.load_model(tmp_path / "m.h5")
    index = tmp_path / "i.weights.json"
    os.mkfifo(index)
    with pytest.raises(SavedFileError, match="i.weights.json' is a named pipe"):
        mlp().load_weights(index)
    if os.path.exists("/dev/zero"):
        zero = tmp_path / "z.weights.json"
        os.symlink("/dev/zero", zero)
        with pytest.raises(SavedFileError, match="z.weights.json' is a device"):
            mlp().load_weights(zero)


def _forever(path):
    while True:
        time.sleep(1)


def _crash(path):
    os.kill(os.getpid(), signal.SIGSEGV)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the watchdog needs fork")
def test_metadata_that_makes_hdf5_loop_is_refused_within_the_time_limit(tmp_path,
                                                                       monkeypatch):
    path = tmp_path / "w.weights.h5"
    mlp().save_weights(path)
    monkeypatch.setattr(h5_open, "WALK_SECONDS", 1.0)
    monkeypatch.setattr(h5_open, "_walk", _forever)  # stands in for libhdf5's endless loop
    start = time.monotonic()
    with pytest.raises(SavedFileError, match="w.weights.h5.*within 1 s.*loop"):
        mlp().load_weights(path)
    assert time.monotonic() - start < 30  # not a timing claim: it did not hang
    monkeypatch.setattr(h5_open, "_walk", _crash)
    with pytest.raises(SavedFileError, match="crashed the HDF5 library.*signal 11"):
        mlp().load_weights(path)


def test_the_metadata_walk_accepts_every_format_hikeras_writes(tmp_path):
    model = randomize(mlp())
    model.compile(optimizer="adam", loss="mse")
    model.fit(np.ones((2, 4), "f4"), np.ones((2, 3), "f4"), verbose=0)
    for name in ("w.h5", "w.weights.h5", "m.h5"):
        (model.save if name == "m.h5" else model.save_weights)(tmp_path / name)
        assert h5_open._walk(str(tmp_path / name)) is None
