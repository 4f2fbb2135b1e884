import os
import subprocess
import sys

import numpy as np
import pytest

import hikeras
from hikeras import callbacks

WORKER = os.path.join(os.path.dirname(__file__), "resume_worker.py")


def _run(folder, save_freq, kill_at="-"):
    out = folder / "out.npz"
    result = subprocess.run(
        [sys.executable, WORKER, str(folder / "backup"), str(out), str(save_freq), kill_at],
        capture_output=True, text=True, timeout=120)
    return result, out


def _load(out):
    with np.load(out) as f:
        return {k: f[k] for k in f.files}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("uninterrupted")
    result, out = _run(folder, "epoch")
    assert result.returncode == 0, result.stderr
    return _load(out)


def _assert_same_run(resumed, reference):
    weight_keys = [k for k in reference if k.startswith("arr_")]
    assert len(weight_keys) == 6
    for key in weight_keys:
        np.testing.assert_array_equal(resumed[key], reference[key])  # bit for bit
    for key in ("history", "csv", "epochs", "best"):
        assert resumed[key].tolist() == reference[key].tolist(), key


@pytest.mark.parametrize("save_freq, kills", [
    ("epoch", ["1:2"]),            # mid-epoch: resumes from the end of epoch 0
    ("epoch", ["2:end"]),          # after validation, before that epoch's backup
    (3, ["0:4", "2:1"]),           # killed twice, resumed mid-epoch each time
    (3, ["1:4"]),                  # a backup deferred to the epoch end was missed
    (2, ["3:0"]),
])
def test_resumed_run_is_bit_identical_to_an_uninterrupted_one(tmp_path, reference,
                                                              save_freq, kills):
    for kill_at in kills:
        result, _ = _run(tmp_path, save_freq, kill_at)
        assert result.returncode == -9, result.stderr
        assert (tmp_path / "backup" / "training_state.h5").exists()
    result, out = _run(tmp_path, save_freq)
    assert result.returncode == 0, result.stderr
    _assert_same_run(_load(out), reference)
    assert os.listdir(tmp_path / "backup") == []  # deleted once training completed


def test_resume_in_process_after_an_error(make_model, data, tmp_path):
    class FailOnce(callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.failed = False

        def on_train_batch_end(self, batch, logs=None):
            if self.params and not self.failed and batch == 1:
                self.failed = True
                raise RuntimeError("interrupted")

    x, y = data
    reference = make_model(optimizer="adam")
    reference.fit(x, y, batch_size=4, epochs=3, verbose=0)
    model = make_model(optimizer="adam")
    backup = callbacks.BackupAndRestore(tmp_path, save_freq=1)
    fail = FailOnce()
    with pytest.raises(RuntimeError, match="interrupted"):
        model.fit(x, y, batch_size=4, epochs=3, verbose=0, callbacks=[fail, backup])
    history = model.fit(x, y, batch_size=4, epochs=3, verbose=0, callbacks=[fail, backup])
    assert history.epoch == [0, 1, 2]
    for a, b in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_backup_keeps_early_stopping_and_checkpoint_state(make_model, data, tmp_path):
    x, y = data
    stop = callbacks.EarlyStopping(monitor="loss", patience=3)
    backup = callbacks.BackupAndRestore(tmp_path / "b", delete_checkpoint=False)
    model = make_model()
    model.fit(x, y, epochs=2, verbose=0, callbacks=[stop, backup])
    stop.wait, stop.best = 99, -1.0  # clobbered; the resume puts the saved values back
    saved_best = float(model.history.history["loss"][-1])
    history = model.fit(x, y, epochs=2, verbose=0, callbacks=[stop, backup])
    assert history.epoch == [0, 1] and stop.wait == 0 and stop.best == saved_best
    assert model.optimizer.iterations.value == 2  # one batch per epoch, none trained again


def test_restore_errors_are_clear(make_model, data, tmp_path):
    x, y = data
    (tmp_path / "training_state.h5").write_bytes(b"not a backup")
    with pytest.raises(ValueError, match="cannot resume from .*Delete the backup"):
        make_model().fit(x, y, epochs=1, verbose=0,
                         callbacks=[callbacks.BackupAndRestore(tmp_path)])
    unbuilt = hikeras.Sequential([hikeras.layers.Dense(1)])
    unbuilt.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="needs a built model"):
        unbuilt.fit(x, y, epochs=1, verbose=0,
                    callbacks=[callbacks.BackupAndRestore(tmp_path / "other")])
    for bad in (0, -1, "batch", 2.5):
        with pytest.raises(ValueError, match="save_freq must be"):
            callbacks.BackupAndRestore(tmp_path, save_freq=bad)
