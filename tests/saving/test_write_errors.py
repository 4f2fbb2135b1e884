"""Failing saves raise a clear OSError naming the path, keep the previous file and
leave no temporary behind; resources are bounded before anything is written."""

import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import hikeras
from hikeras.saving import SavedFileError, temp_dirs
from hikeras.utils import free_space
from tests.saving.saving_models import mlp, randomize

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _FullDisk:
    f_frsize = 4096
    f_bavail = 10  # 40 KiB free


@pytest.mark.parametrize("name, save", [
    ("w.h5", lambda m, p: m.save_weights(p)),
    ("w.weights.h5", lambda m, p: m.save_weights(p)),
    ("m.h5", lambda m, p: m.save(p)),
    ("m.keras", lambda m, p: m.save(p)),
    ("s.weights.json", lambda m, p: m.save_weights(p, max_shard_size=64)),
])
def test_a_full_disk_raises_and_keeps_the_previous_file(tmp_path, monkeypatch, name, save):
    path = tmp_path / name
    save(mlp(), path)
    before = {n: (tmp_path / n).read_bytes() for n in os.listdir(tmp_path)}
    monkeypatch.setattr(free_space.os, "statvfs", lambda d: _FullDisk())
    with pytest.raises(OSError, match=f"Not enough free space to save '.*{name}'") as info:
        save(randomize(mlp()), path)
    assert info.value.errno == 28
    after = {n: (tmp_path / n).read_bytes() for n in os.listdir(tmp_path)}
    assert after == before  # the previous file untouched, no temporary left


_FSIZE_WORKER = """
import resource, sys
sys.path.insert(0, {root!r})
from tests.saving.saving_models import mlp
import hikeras
model = hikeras.Sequential([hikeras.Input((512,)), hikeras.layers.Dense(512)])
resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, resource.RLIM_INFINITY))
try:
    model.save_weights({path!r})
except OSError as e:
    print("OSError", e.errno, e)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_file_size_limit_raises_instead_of_crashing(tmp_path):
    """With h5py 3.16 / HDF5 2.0 this write would end in SIGSEGV; the check comes first."""
    path = str(tmp_path / "big.weights.h5")
    result = subprocess.run([sys.executable, "-c", _FSIZE_WORKER.format(root=_ROOT, path=path)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "OSError 27" in result.stdout and "big.weights.h5" in result.stdout
    assert os.listdir(tmp_path) == []


def test_a_zip_bomb_is_refused_before_extraction(tmp_path):
    path = tmp_path / "bomb.keras"
    mlp().save(path)
    with zipfile.ZipFile(path) as z:
        config = z.read("config.json")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("config.json", config)
        z.writestr("model.weights.h5", bytes(80 * 2**20))
    with pytest.raises(SavedFileError, match="bomb.keras.*expands.*zip bomb"):
        hikeras.models.load_model(path)


def test_temp_folders_of_dead_processes_are_cleared(tmp_path, monkeypatch):
    monkeypatch.setattr(temp_dirs.tempfile, "gettempdir", lambda: str(tmp_path))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = tmp_path / f"hikeras-keras-{dead}-abc"
    live = tmp_path / f"hikeras-keras-{os.getpid()}-abc"
    for folder in (stale, live):
        folder.mkdir()
        (folder / "model.weights.h5").write_bytes(b"x")
    model = randomize(mlp())
    model.save(tmp_path / "m.keras")
    loaded = hikeras.models.load_model(tmp_path / "m.keras")
    assert not stale.exists() and live.exists()
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), loaded.get_weights()))
    assert sorted(os.listdir(tmp_path)) == sorted(["m.keras", live.name])


def test_a_killed_writers_temporary_is_removed_by_the_next_save(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    leftover = tmp_path / f".w.weights.h5.{dead}-0123456789ab.tmp"
    leftover.write_bytes(b"partial")
    mlp().save_weights(tmp_path / "w.weights.h5")
    assert os.listdir(tmp_path) == ["w.weights.h5"]
