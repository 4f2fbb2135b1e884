"""`EarlyStopping`: stop training when a monitored value stops improving."""

from ._monitor import Monitor
from .callback import Callback


class EarlyStopping(Callback):
    """Stops `fit` once `monitor` has not improved for `patience` epochs.

    Follows Keras 3: every epoch from `start_from_epoch` on counts towards
    `patience` unless it improves on the best value so far by more than
    `min_delta`; with a `baseline`, the count is only reset by epochs that
    also beat the baseline, so training stops after `patience` epochs if the
    model never gets better than the baseline.

    Args:
        monitor: the log key to watch, e.g. `"val_loss"` or `"accuracy"`.
        min_delta: changes smaller than this do not count as improvements.
        patience: epochs without improvement before stopping.
        verbose: 1 prints a line when stopping and when restoring weights.
        mode: `"auto"` (from the metric), `"min"` or `"max"`.
        baseline: a value the monitored quantity must beat.
        restore_best_weights: at the end of training, put back the weights
            of the best epoch (as long as one epoch was evaluated).
        start_from_epoch: epochs to wait before monitoring (warm-up).

    >>> import numpy as np, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss="mse")  # a flat loss
    >>> stop = EarlyStopping(monitor="loss", patience=2)
    >>> history = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=50, verbose=0,
    ...                     callbacks=[stop])
    >>> len(history.epoch)  # epoch 0 sets the best; 1 and 2 do not improve on it
    3
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        for name, value in (("patience", patience), ("start_from_epoch", start_from_epoch)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"EarlyStopping: {name} must be a non-negative integer. "
                                 f"Received: {name}={value!r}")
        self._monitor = Monitor("EarlyStopping", monitor, mode, min_delta)
        self.monitor = monitor
        self.min_delta = self._monitor.min_delta
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self._reset()

    def _reset(self):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_train_begin(self, logs=None):
        self._reset()
        self._monitor.resolve_mode(self.model)

    def on_train_batch_end(self, batch, logs=None):
        self._monitor.check_batch_logs(logs, self.params, self.model)

    def on_epoch_end(self, epoch, logs=None):
        current = self._monitor.value(logs, self.model, self.params)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._monitor.is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._monitor.is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping", flush=True)
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.", flush=True)
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        """The monitored value in `logs` (None for an epoch without validation)."""
        return self._monitor.value(logs, self.model, self.params)

    def _get_state(self):
        return {"wait": self.wait, "stopped_epoch": self.stopped_epoch, "best": self.best,
                "best_epoch": self.best_epoch, "best_weights": self.best_weights}

    def _set_state(self, state):
        for key, value in state.items():
            setattr(self, key, value)
