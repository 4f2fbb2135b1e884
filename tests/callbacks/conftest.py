"""Small models, data and a log-scripting callback shared by the callback tests."""

import numpy as np
import pytest

import hikeras
from hikeras import callbacks, layers


class ScriptedLogs(callbacks.Callback):
    """Overwrites `logs[key]` at each epoch end with the next scripted value.

    Placed before the callback under test, it makes that callback see an exact,
    hand-chosen sequence (the logs dict is shared by all callbacks).
    """

    def __init__(self, **sequences):
        super().__init__()
        self.sequences = sequences

    def on_epoch_end(self, epoch, logs=None):
        for key, values in self.sequences.items():
            logs[key] = values[epoch]


@pytest.fixture
def make_model():
    def make(lr=0.01, optimizer="sgd", seed=0, metrics=None):
        hikeras.utils.set_random_seed(seed)
        model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4, activation="relu"),
                                    layers.Dense(1)])
        opt = hikeras.optimizers.get({"class_name": optimizer,
                                      "config": {"learning_rate": lr}})
        model.compile(optimizer=opt, loss="mse", metrics=metrics)
        return model
    return make


@pytest.fixture
def data():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(16, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")
    return x, y
