"""Writing your own callbacks, next to the built-in ones.

A callback records what it sees at each hook, one stops training when a target
is reached, and a third adds a key to the logs that EarlyStopping then reads.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


class HookRecorder(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def on_train_begin(self, logs=None):
        self.calls.append("train_begin")

    def on_epoch_end(self, epoch, logs=None):
        self.calls.append(f"epoch_end {epoch}")

    def on_train_batch_end(self, batch, logs=None):
        assert "loss" in logs

    def on_train_end(self, logs=None):
        self.calls.append("train_end")


class StopAtLoss(keras.callbacks.Callback):
    def __init__(self, target):
        super().__init__()
        self.target = target

    def on_epoch_end(self, epoch, logs=None):
        if logs["loss"] < self.target:
            self.model.stop_training = True


def main(small=False):
    keras.utils.set_random_seed(7)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((128 if small else 1024, 3)).astype("float32")
    y = x @ np.array([[1.0], [2.0], [-1.0]], "float32")

    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    recorder = HookRecorder()
    history = model.fit(x, y, epochs=50, batch_size=16, verbose=0,
                        callbacks=[recorder, StopAtLoss(1e-3)])
    epochs_run = len(history.history["loss"])
    assert epochs_run < 50 and history.history["loss"][-1] < 1e-3
    assert recorder.calls[0] == "train_begin" and recorder.calls[-1] == "train_end"
    assert recorder.calls.count(f"epoch_end {epochs_run - 1}") == 1

    # A LambdaCallback for a one-off hook, and EarlyStopping with no patience:
    # the loss cannot improve by 1e9, so training stops after the first epoch.
    seen = []
    history = model.fit(x, y, epochs=5, verbose=0, callbacks=[
        keras.callbacks.LambdaCallback(on_epoch_begin=lambda epoch, logs: seen.append(epoch)),
        keras.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=1e9)])
    assert seen == [0, 1] and len(history.history["loss"]) == 2
    return epochs_run


if __name__ == "__main__":
    print("epochs run", main())
