"""A training script for the kill-and-resume tests (run as a subprocess).

    python resume_worker.py BACKUP_DIR OUT.npz SAVE_FREQ KILL_AT

trains a small dropout MLP with Adam, shuffling and validation, under
BackupAndRestore, CSVLogger, EarlyStopping and ModelCheckpoint. With
KILL_AT = "e:b" the process SIGKILLs itself at the end of training batch b
of epoch e (before that batch's backup could run), or at the end of epoch e
with "e:end"; "-" runs to completion and writes the final weights, history
and CSV log to OUT.npz.
"""

import os
import signal
import sys

import numpy as np

import hikeras
from hikeras import callbacks, layers


class Killer(callbacks.Callback):
    def __init__(self, at):
        super().__init__()
        self.at = at
        self.epoch = None

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.at == f"{self.epoch}:{batch}":
            os.kill(os.getpid(), signal.SIGKILL)

    def on_epoch_end(self, epoch, logs=None):
        if self.at == f"{epoch}:end":
            os.kill(os.getpid(), signal.SIGKILL)


def main(backup_dir, out, save_freq, kill_at):
    hikeras.utils.set_random_seed(7)
    data_rng = np.random.default_rng(3)
    x = data_rng.normal(size=(40, 6)).astype("float32")
    y = (np.sin(x[:, :1]) + x[:, 1:2] ** 2).astype("float32")
    model = hikeras.Sequential([
        hikeras.Input((6,)), layers.Dense(16, activation="relu"), layers.Dropout(0.3),
        layers.Dense(8, activation="tanh"), layers.Dropout(0.2), layers.Dense(1)])
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    csv_path = os.path.join(backup_dir, "..", "log.csv")
    cbs = [Killer(kill_at),
           callbacks.BackupAndRestore(backup_dir, save_freq=save_freq),
           callbacks.CSVLogger(csv_path),
           callbacks.EarlyStopping(monitor="val_loss", patience=50),
           callbacks.ModelCheckpoint(os.path.join(backup_dir, "..", "best.weights.h5"),
                                     save_best_only=True, save_weights_only=True)]
    history = model.fit(x, y, batch_size=8, epochs=4, verbose=0, callbacks=cbs,
                        validation_data=(x[:16], y[:16]))
    with open(csv_path) as f:
        csv_text = f.read()
    np.savez(out, *model.get_weights(), csv=np.array(csv_text),
             history=np.array(repr(history.history)), epochs=np.array(history.epoch),
             best=np.array(cbs[3].best))


if __name__ == "__main__":
    backup_dir, out, save_freq, kill_at = sys.argv[1:]
    main(backup_dir, out, save_freq if save_freq == "epoch" else int(save_freq), kill_at)
