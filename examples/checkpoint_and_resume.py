"""Train, get killed, resume: BackupAndRestore and ModelCheckpoint on the digits set.

    python examples/checkpoint_and_resume.py            # the whole story, below
    python examples/checkpoint_and_resume.py train DIR  # one training run
    python examples/checkpoint_and_resume.py train DIR --crash-at-epoch 3

The story: a first run is killed (SIGKILL, as by an out-of-memory killer or a
pre-empted machine) in the middle of epoch 4; rerunning the same command
resumes from the last backup - weights, optimizer moments, epoch and batch,
random generators, and the callbacks' state - and finishes with exactly the
weights an uninterrupted run gives, which a third run checks. ModelCheckpoint
keeps the best weights by validation accuracy throughout.
"""

import os
import signal
import subprocess
import sys
import tempfile

import numpy as np

import hikeras
from hikeras import callbacks, layers
from hikeras.datasets import digits

EPOCHS = 8


class CrashAt(callbacks.Callback):
    """Kills this process halfway through `epoch` (counted from 1)."""

    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_begin(self, epoch, logs=None):
        self.current = epoch + 1

    def on_train_batch_end(self, batch, logs=None):
        if self.current == self.epoch and batch == self.params["steps"] // 2:
            print(f"crashing in epoch {self.epoch}, batch {batch}", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)


def train(folder, crash_at_epoch=None):
    """One run of the training script; returns the final weights."""
    hikeras.utils.set_random_seed(0)
    (x, y), _ = digits.load_data()
    x = x.reshape(len(x), 64).astype("float32") / 16.0
    model = hikeras.Sequential([
        hikeras.Input((64,)), layers.Dense(64, activation="relu"), layers.Dropout(0.2),
        layers.Dense(10, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    cbs = [
        # Back up every 20 batches (and at each epoch end the backup is replaced).
        callbacks.BackupAndRestore(os.path.join(folder, "backup"), save_freq=20),
        callbacks.ModelCheckpoint(os.path.join(folder, "best.weights.h5"),
                                  monitor="val_accuracy", save_best_only=True,
                                  save_weights_only=True),
        callbacks.CSVLogger(os.path.join(folder, "log.csv")),
    ]
    if crash_at_epoch:
        cbs.insert(0, CrashAt(crash_at_epoch))
    model.fit(x, y, batch_size=32, epochs=EPOCHS, validation_split=0.2, verbose=2,
              callbacks=cbs)
    return model.get_weights()


def _run(*args):
    return subprocess.run([sys.executable, __file__, *args]).returncode


def main():
    with tempfile.TemporaryDirectory() as folder:
        interrupted, clean = os.path.join(folder, "interrupted"), os.path.join(folder, "clean")
        print("== run 1: killed during epoch 4")
        assert _run("train", interrupted, "--crash-at-epoch", "4") == -signal.SIGKILL
        print("== run 2: the same command again resumes where run 1 stopped")
        assert _run("train", interrupted) == 0
        print("== run 3: an uninterrupted run, for comparison")
        assert _run("train", clean) == 0
        same = _run("compare", interrupted, clean) == 0
        print("resumed run ends with the same weights as the uninterrupted one:", same)
        with open(os.path.join(interrupted, "log.csv")) as f:
            print(f.read())
        return same


if __name__ == "__main__":
    if sys.argv[1:2] == ["train"]:
        crash = int(sys.argv[4]) if sys.argv[3:4] == ["--crash-at-epoch"] else None
        weights = train(sys.argv[2], crash)
        np.savez(os.path.join(sys.argv[2], "final.npz"), *weights)
    elif sys.argv[1:2] == ["compare"]:
        a, b = (np.load(os.path.join(d, "final.npz")) for d in sys.argv[2:4])
        sys.exit(0 if all(np.array_equal(a[k], b[k]) for k in a.files) else 1)
    else:
        sys.exit(0 if main() else 1)
