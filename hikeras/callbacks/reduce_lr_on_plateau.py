"""`ReduceLROnPlateau`: lower the learning rate when a monitored value stalls."""

import numpy as np

from ._monitor import Monitor
from .callback import Callback
from .learning_rate_scheduler import current_learning_rate, set_learning_rate


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` after `patience` epochs without progress.

    After a reduction, `cooldown` epochs pass before counting resumes. The
    learning rate never goes below `min_lr`. The current learning rate is
    added to the epoch logs as `"learning_rate"`, as Keras does.

    Args:
        monitor: the log key to watch.
        factor: the multiplier, in `[0, 1)`.
        patience: epochs without improvement before reducing.
        verbose: 1 prints a line at each reduction.
        mode: `"auto"`, `"min"` or `"max"`.
        min_delta: changes smaller than this do not count as improvements.
        cooldown: epochs to wait after a reduction.
        min_lr: lower bound on the learning rate.

    >>> import numpy as np, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer=hikeras.optimizers.SGD(0.1), loss="mse")
    >>> plateau = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10.0)
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, verbose=0,
    ...               callbacks=[plateau])
    >>> round(model.optimizer.learning_rate, 6)
    0.025
    """

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0.0, **kwargs):
        super().__init__()
        if "epsilon" in kwargs:  # Keras 2's name for min_delta
            min_delta = kwargs.pop("epsilon")
        if kwargs:
            raise ValueError(f"ReduceLROnPlateau: unknown arguments {sorted(kwargs)}. "
                             f"Received: {kwargs}")
        if not 0 <= factor < 1:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0 (or < 0). "
                             f"Received: factor={factor}")
        for name, value in (("patience", patience), ("cooldown", cooldown)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"ReduceLROnPlateau: {name} must be a non-negative integer. "
                                 f"Received: {name}={value!r}")
        if min_lr < 0:
            raise ValueError(f"ReduceLROnPlateau: min_lr must be >= 0. Received: min_lr={min_lr}")
        self._monitor = Monitor("ReduceLROnPlateau", monitor, mode, min_delta)
        self.monitor = monitor
        self.factor = float(factor)
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.min_delta = self._monitor.min_delta
        self.cooldown = cooldown
        self.min_lr = float(min_lr)
        self._reset()

    def _reset(self):
        self.wait = 0
        self.cooldown_counter = 0
        self.best = None

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_train_begin(self, logs=None):
        self._reset()
        self._monitor.resolve_mode(self.model)

    def on_train_batch_end(self, batch, logs=None):
        self._monitor.check_batch_logs(logs, self.params, self.model)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["learning_rate"] = current_learning_rate(self.model, "ReduceLROnPlateau")
        current = self._monitor.value(logs, self.model, self.params)
        if current is None:
            return
        if self.best is None:
            self.best = self._monitor.worst
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._monitor.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(epoch)

    def _reduce(self, epoch):
        old_lr = current_learning_rate(self.model, "ReduceLROnPlateau")
        if old_lr > np.float32(self.min_lr):
            new_lr = max(old_lr * self.factor, self.min_lr)
            set_learning_rate(self.model, new_lr)
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                      f"{new_lr}.", flush=True)
            self.cooldown_counter = self.cooldown
            self.wait = 0

    def _get_state(self):
        return {"wait": self.wait, "cooldown_counter": self.cooldown_counter, "best": self.best}

    def _set_state(self, state):
        for key, value in state.items():
            setattr(self, key, value)
