"""Attack classes of issue #21 not covered elsewhere (see docs/saving.md, "Safety").

Each hostile load runs in a forked child under a watchdog (`guarded`), so an
attack that made the loader block fails its test instead of stalling the suite.
"""

import json
import multiprocessing
import os
import tempfile
import zipfile

import h5py
import numpy as np
import pytest

import hikeras
from tests.saving.saving_models import mlp

_WATCHDOG_SECONDS = 60


def _load_in_child(load, connection):
    try:
        load()
        connection.send(("loaded", ""))
    except Exception as e:  # noqa: BLE001  (reported to the parent)
        connection.send((type(e).__name__, str(e)))


def guarded(load):
    """`(outcome, message)` of `load()` run in a forked child; "hang" if it blocks."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_load_in_child, args=(load, send), daemon=True)
    child.start()
    send.close()
    if not receive.poll(_WATCHDOG_SECONDS):
        child.kill()
        child.join()
        return "hang", ""
    try:
        answer = receive.recv()
    except EOFError:
        answer = ("died", f"exit code {child.join() or child.exitcode}")
    child.join()
    return answer


pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not hasattr(os, "mkfifo"),
                                reason="the watchdog forks; FIFOs need POSIX")


@pytest.mark.parametrize("suffix", [".h5", ".weights.h5"])
def test_an_external_link_to_a_fifo_is_refused_without_blocking(tmp_path, suffix):
    fifo = tmp_path / "pipe.h5"
    os.mkfifo(fifo)
    path = tmp_path / f"w{suffix}"
    mlp().save_weights(path)
    with h5py.File(path, "r+") as f:
        f["evil"] = h5py.ExternalLink(str(fifo), "/kernel")
    outcome, message = guarded(lambda: mlp().load_weights(path))
    assert outcome == "SavedFileError", (outcome, message)
    assert f"w{suffix}" in message and "external link" in message


def test_a_shard_that_is_a_fifo_is_refused_without_blocking(tmp_path):
    index = tmp_path / "m.weights.json"
    mlp().save_weights(index, max_shard_size="1MB")
    shard = json.loads(index.read_text())["tensors"]
    name = next(iter(shard.values()))["shard"]
    os.remove(tmp_path / name)
    os.mkfifo(tmp_path / name)
    outcome, message = guarded(lambda: mlp().load_weights(index))
    assert outcome == "SavedFileError", (outcome, message)
    assert name in message and "named pipe" in message


def test_keras_loads_leave_nothing_in_the_temporary_directory(tmp_path):
    model = mlp()
    good = tmp_path / "m.keras"
    model.save(good)
    bad = tmp_path / "bad.keras"
    with zipfile.ZipFile(good) as z, zipfile.ZipFile(bad, "w") as out:
        for info in z.infolist():
            data = z.read(info)
            out.writestr(info, data[:len(data) // 2] if info.filename.endswith(".h5") else data)
    before = set(os.listdir(tempfile.gettempdir()))
    loaded = hikeras.models.load_model(good)
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), loaded.get_weights()))
    with pytest.raises(hikeras.saving.SavedFileError, match="bad.keras"):
        hikeras.models.load_model(bad)
    with pytest.raises(hikeras.saving.SavedFileError, match="bad.keras"):
        mlp().load_weights(bad)
    assert set(os.listdir(tempfile.gettempdir())) == before


def test_a_config_member_declaring_a_huge_size_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.keras"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("config.json", b" " * (65 * 2**20))  # compresses to about 64 KiB
    assert path.stat().st_size < 2**20
    outcome, message = guarded(lambda: hikeras.models.load_model(path))
    assert outcome == "SavedFileError", (outcome, message)
    assert "big.keras" in message and "config.json" in message and "more than" in message
