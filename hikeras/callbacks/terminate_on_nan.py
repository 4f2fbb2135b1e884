"""`TerminateOnNaN`: stop training as soon as a logged value is NaN or infinite."""

import math

from .callback import Callback


class TerminateOnNaN(Callback):
    """Stops `fit` after the first batch whose logs hold a NaN or infinite number.

    Keras looks at the loss only; this checks every numeric value in the
    batch logs (the loss first) and says which one went bad, at which epoch
    and batch. The details stay on the callback as `stopped_epoch`,
    `stopped_batch` and `invalid_value` (a `(key, value)` pair).

    >>> import numpy as np, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer=hikeras.optimizers.SGD(1e30), loss="mse")
    >>> guard = TerminateOnNaN()
    >>> _ = model.fit(np.ones((8, 1)), np.ones((8, 1)), batch_size=1, epochs=5, verbose=0,
    ...               callbacks=[guard])  # doctest: +ELLIPSIS
    Epoch 1, batch ...: invalid value loss=inf; terminating training.
    >>> guard.invalid_value[0]
    'loss'
    """

    def __init__(self):
        super().__init__()
        self._epoch = 0
        self.stopped_epoch = None
        self.stopped_batch = None
        self.invalid_value = None

    def on_train_begin(self, logs=None):
        self.stopped_epoch = self.stopped_batch = self.invalid_value = None

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        logs = logs or {}
        keys = (["loss"] if "loss" in logs else []) + [k for k in logs if k != "loss"]
        for key in keys:
            value = logs[key]
            try:
                number = float(value)
            except (TypeError, ValueError):
                continue
            if not math.isfinite(number):
                self.stopped_epoch, self.stopped_batch = self._epoch, batch
                self.invalid_value = (key, number)
                print(f"Epoch {self._epoch + 1}, batch {batch}: invalid value {key}={number}; "
                      "terminating training.", flush=True)
                self.model.stop_training = True
                return
