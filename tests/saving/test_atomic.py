"""Atomic writes: a save killed at any moment leaves the previous file intact."""

import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.utils.atomic import atomic_write

# Saves the same model over and over, alternating between two weight states
# (all weights 1.0, then all 2.0), printing after each completed save.
_WRITER = """
import sys
import numpy as np
import hikeras
from hikeras import layers

path, kind = sys.argv[1], sys.argv[2]
model = hikeras.Sequential([hikeras.Input((256,))] + [layers.Dense(256) for _ in range(6)])
if kind == "model":
    model.compile(optimizer="adam", loss="mse")
state = 0
while True:
    state = state % 2 + 1
    for v in model.weights:
        v.assign(np.full(v.shape, state, v.dtype))
    if kind == "model":
        model.save(path)
    else:
        model.save_weights(path)
    print(state, flush=True)
"""


def _model():
    return hikeras.Sequential([hikeras.Input((256,))] + [layers.Dense(256) for _ in range(6)])


@pytest.mark.parametrize("kind,name", [("weights", "w.h5"), ("weights", "w.weights.h5"),
                                       ("model", "m.h5"), ("model", "m.keras")])
def test_killed_writer_leaves_a_loadable_file(tmp_path, kind, name):
    path = str(tmp_path / name)
    rng = random.Random(1234)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", _WRITER, path, kind],
                                stdout=subprocess.PIPE, env=env)
        proc.stdout.readline()  # one complete save exists
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        model = hikeras.models.load_model(path) if kind == "model" else _model()
        if kind != "model":
            model.load_weights(path)
        values = {float(np.unique(v.value)[0]) for v in model.weights}
        assert len(values) == 1 and values <= {1.0, 2.0}, values
        assert all(np.unique(v.value).size == 1 for v in model.weights)


def test_failed_write_keeps_the_old_file_and_removes_the_temporary(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(target) as tmp:
        with open(tmp, "w") as f:
            f.write("partial")
        raise RuntimeError("crash")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["f.txt"]


def test_missing_directory_is_reported(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"), \
            atomic_write(tmp_path / "nope" / "f.txt"):
        pass
