import math

import numpy as np

import hikeras
from hikeras import callbacks


class Poison(callbacks.Callback):
    """Puts `value` under `key` in the batch logs at (epoch, batch)."""

    def __init__(self, epoch, batch, key, value):
        super().__init__()
        self.at, self.key, self.value = (epoch, batch), key, value
        self.epoch = 0

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if (self.epoch, batch) == self.at:
            logs[self.key] = self.value


def test_stops_and_names_epoch_batch_and_value(make_model, data, capsys):
    x, y = data
    seen = []
    count = callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append(b))
    guard = callbacks.TerminateOnNaN()
    history = make_model().fit(x, y, batch_size=2, epochs=5, verbose=0,
                               callbacks=[Poison(1, 2, "loss", float("nan")), guard, count])
    assert (guard.stopped_epoch, guard.stopped_batch) == (1, 2)
    assert guard.invalid_value[0] == "loss" and math.isnan(guard.invalid_value[1])
    assert "Epoch 2, batch 2: invalid value loss=nan" in capsys.readouterr().out
    assert history.epoch == [0, 1] and len(seen) == 8 + 3  # epoch 1 ends after batch 2


def test_checks_metrics_too(make_model, data):
    x, y = data
    guard = callbacks.TerminateOnNaN()
    make_model(metrics=["mae"]).fit(x, y, batch_size=4, epochs=2, verbose=0,
                                    callbacks=[Poison(0, 0, "mae", np.float32("inf")), guard])
    assert guard.invalid_value == ("mae", math.inf)


def test_real_divergence_is_caught():
    model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    model.compile(optimizer=hikeras.optimizers.SGD(1e30), loss="mse")
    guard = callbacks.TerminateOnNaN()
    with np.errstate(all="ignore"):
        history = model.fit(np.ones((8, 1)), np.ones((8, 1)), batch_size=1, epochs=10,
                            verbose=0, callbacks=[guard])
    assert guard.invalid_value[0] == "loss" and not math.isfinite(guard.invalid_value[1])
    assert guard.stopped_epoch == 0 and history.epoch == [0]
