"""Shared pieces for the data-feeding tests: a model that records the batches it sees."""

import threading

import numpy as np

import hikeras
from hikeras import layers
from hikeras.data.parallel import THREAD_NAME_PREFIX


class Recorder(hikeras.Sequential):
    """A Sequential model remembering the first input column of every batch it trains on."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.trained, self.tested = [], []

    def train_step(self, data):
        self.trained.append(np.asarray(data[0])[:, 0].tolist())
        return super().train_step(data)

    def test_step(self, data):
        self.tested.append(np.asarray(data[0])[:, 0].tolist())
        return super().test_step(data)


def make_model(cls=hikeras.Sequential, learning_rate=0.01):
    hikeras.utils.set_random_seed(0)
    model = cls([hikeras.Input((2,)), layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=hikeras.optimizers.SGD(learning_rate), loss="mse")
    return model


def rows(n):
    """x whose first column numbers the samples 0..n-1, and y = 2 * that number."""
    x = np.stack([np.arange(n), np.ones(n)], axis=1).astype("float32")
    return x, (2.0 * np.arange(n)).astype("float32")[:, None]


def data_threads():
    return [t for t in threading.enumerate()
            if t.name.startswith(THREAD_NAME_PREFIX) and t.is_alive()]
