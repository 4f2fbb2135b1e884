"""`LearningRateScheduler`: set the learning rate at the start of each epoch."""

import inspect
import math

import numpy as np

from .callback import Callback


def _optimizer(model, owner):
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or not hasattr(optimizer, "learning_rate"):
        raise ValueError(f"{owner} needs a compiled model whose optimizer has a "
                         f"`learning_rate`. Received: optimizer={optimizer!r}")
    return optimizer


def current_learning_rate(model, owner):
    """The optimizer's learning rate as a Python float."""
    return float(np.asarray(_optimizer(model, owner).learning_rate))


def set_learning_rate(model, value):
    _optimizer(model, "Setting the learning rate").learning_rate = float(value)


def _takes_current_rate(schedule):
    """Whether `schedule(epoch, lr)` (Keras 2 and 3) rather than `schedule(epoch)` (old Keras)."""
    try:
        params = list(inspect.signature(schedule).parameters.values())
    except (TypeError, ValueError):
        return True
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2


class LearningRateScheduler(Callback):
    """Sets the learning rate to `schedule(epoch, lr)` before each epoch.

    Args:
        schedule: `schedule(epoch, lr) -> new_lr`, with the epoch counted from
            0 and the current learning rate; `schedule(epoch)` also works.
        verbose: 1 prints the new learning rate every epoch.

    The learning rate in effect is added to the epoch logs as `"learning_rate"`.

    >>> import numpy as np, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> halve = LearningRateScheduler(lambda epoch, lr: 0.1 / 2 ** epoch)
    >>> history = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, verbose=0,
    ...                     callbacks=[halve])
    >>> history.history["learning_rate"]
    [0.1, 0.05, 0.025]
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        if not callable(schedule):
            raise TypeError(f"LearningRateScheduler: schedule must be callable. "
                            f"Received: schedule={schedule!r}")
        self.schedule = schedule
        self.verbose = verbose
        self._two_args = _takes_current_rate(schedule)

    def on_epoch_begin(self, epoch, logs=None):
        if self._two_args:
            lr = self.schedule(epoch, current_learning_rate(self.model, "LearningRateScheduler"))
        else:
            lr = self.schedule(epoch)
        if (isinstance(lr, bool) or not isinstance(lr, (int, float, np.floating, np.integer))
                or not math.isfinite(lr) or lr < 0):
            raise ValueError(
                "LearningRateScheduler: the schedule must return a finite, non-negative float; "
                f"at epoch {epoch} it returned {lr!r}. Received: schedule={self.schedule!r}"
            )
        set_learning_rate(self.model, lr)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.",
                  flush=True)

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = current_learning_rate(self.model, "LearningRateScheduler")
