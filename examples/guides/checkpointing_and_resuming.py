"""Checkpoints during training: keep the best model, and resume an interrupted run."""

import os

import numpy as np

import hikeras as keras
from hikeras import layers


class Interrupt(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 1:
            raise KeyboardInterrupt


def build():
    model = keras.Sequential([keras.Input((4,)), layers.Dense(8, activation="relu"),
                              layers.Dense(1)])
    model.compile("adam", "mse")
    return model


def main(small=False):
    keras.utils.set_random_seed(17)
    rng = np.random.default_rng(17)
    x = rng.standard_normal((128 if small else 1024, 4)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    folder = os.path.abspath("guide_checkpoints")
    os.makedirs(folder, exist_ok=True)
    best = os.path.join(folder, "best.keras")

    model = build()
    model.fit(x, y, epochs=3, validation_split=0.25, verbose=0, callbacks=[
        keras.callbacks.ModelCheckpoint(best, monitor="val_loss", save_best_only=True)])
    restored = keras.models.load_model(best)
    assert restored.evaluate(x, y, verbose=0) <= model.evaluate(x, y, verbose=0) * 10

    backup_dir = os.path.join(folder, "backup")
    interrupted = build()
    try:
        interrupted.fit(x, y, epochs=4, verbose=0, callbacks=[
            keras.callbacks.BackupAndRestore(backup_dir), Interrupt()])
    except KeyboardInterrupt:
        pass
    # A new process rebuilds the model and the callback the same way, and resumes.
    resumed = build()
    epochs_run = []
    history = resumed.fit(x, y, epochs=4, verbose=0, callbacks=[
        keras.callbacks.BackupAndRestore(backup_dir),
        keras.callbacks.LambdaCallback(on_epoch_begin=lambda e, logs: epochs_run.append(e))])
    # The run picks up from the last backup instead of starting over.
    assert epochs_run[0] >= 1 and epochs_run[-1] == 3
    assert len(history.history["loss"]) == 4  # the restored history goes on
    return history.history["loss"]


if __name__ == "__main__":
    print(main())
