"""Sharded checkpoints are as crash-safe as single files (see docs/saving.md).

Fresh shard names per save, the index replacement as the commit point, and
only owned, unused shards deleted afterwards: killed saves, failed writes,
neighbouring checkpoints and copied indexes never lose a loadable checkpoint.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from hikeras.utils import atomic
from tests.saving.saving_models import mlp, randomize

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _weights(model):
    return [w.copy() for w in model.get_weights()]


def _loads_as(path, expected_sets):
    model = mlp()
    model.load_weights(path)
    got = model.get_weights()
    return any(all(np.array_equal(a, b) for a, b in zip(got, expected))
               for expected in expected_sets)


def test_two_checkpoints_in_one_folder_do_not_share_shards(tmp_path):
    a, b = randomize(mlp()), randomize(mlp())
    a.save_weights(tmp_path / "m.json", max_shard_size=64)
    b.save_weights(tmp_path / "m.weights.json", max_shard_size=64)
    a.save_weights(tmp_path / "m.json", max_shard_size=64)  # rewriting one keeps the other
    assert _loads_as(tmp_path / "m.json", [_weights(a)])
    assert _loads_as(tmp_path / "m.weights.json", [_weights(b)])


def test_saving_over_a_copied_index_keeps_the_original_shards(tmp_path):
    a = randomize(mlp())
    a.save_weights(tmp_path / "a.weights.json", max_shard_size=64)
    shutil.copy(tmp_path / "a.weights.json", tmp_path / "b.weights.json")
    randomize(mlp()).save_weights(tmp_path / "b.weights.json", max_shard_size=64)
    assert _loads_as(tmp_path / "a.weights.json", [_weights(a)])


def test_a_failed_write_keeps_the_previous_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "m.weights.json"
    old = randomize(mlp())
    old.save_weights(path, max_shard_size=64)
    before = sorted(os.listdir(tmp_path))
    calls = {"n": 0}
    real = atomic._fsync_path

    def failing(p, directory=False):
        calls["n"] += 1
        if calls["n"] == 3:  # the third shard's fsync: disk full
            raise OSError(28, "No space left on device", p)
        return real(p, directory)

    monkeypatch.setattr(atomic, "_fsync_path", failing)
    with pytest.raises(OSError, match="No space left"):
        randomize(mlp()).save_weights(path, max_shard_size=64)
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == before  # no new shard, no temporary left
    assert _loads_as(path, [_weights(old)])


_WORKER = """
import sys, numpy as np
sys.path.insert(0, {root!r})
from tests.saving.saving_models import mlp
model = mlp()
for seed in range(10**6):
    model.set_weights([np.full(w.shape, seed, w.dtype) for w in model.get_weights()])
    model.save_weights({path!r}, max_shard_size=64)
    if seed == 0:
        print("ready", flush=True)
"""


def test_killed_saves_always_leave_a_loadable_checkpoint(tmp_path, rng):
    path = str(tmp_path / "m.weights.json")
    shapes = [w.shape for w in mlp().get_weights()]
    proc = subprocess.Popen([sys.executable, "-c", _WORKER.format(root=_ROOT, path=path)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    proc.kill()
    proc.wait()
    for _ in range(12):  # each trial resumes the saving loop and kills it at a random time
        proc = subprocess.Popen([sys.executable, "-c", _WORKER.format(root=_ROOT, path=path)],
                                stdout=subprocess.PIPE, text=True)
        proc.stdout.readline()
        time.sleep(float(rng.uniform(0.0, 0.3)))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        model = mlp()
        model.load_weights(path)  # raises if the checkpoint is not loadable
        values = {float(w.flat[0]) for w in model.get_weights()}
        assert len(values) == 1 and values.pop().is_integer()  # one whole save, not a mix
        assert [w.shape for w in model.get_weights()] == shapes
    randomize(mlp()).save_weights(path, max_shard_size=64)  # tidies what killed saves left
    with open(path) as f:
        in_use = {t["shard"] for t in json.load(f)["tensors"].values()}
    leftovers = {n for n in os.listdir(tmp_path) if ".data-" in n or n.endswith(".tmp")}
    assert leftovers == in_use
