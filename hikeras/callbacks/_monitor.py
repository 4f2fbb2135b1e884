"""`Monitor`: the logged quantity that EarlyStopping, ReduceLROnPlateau and
ModelCheckpoint watch, with its direction and the checks around it.

Keras only warns when the monitored key is missing and then silently does
nothing; here a typo is an error listing the keys that are logged. The key is
checked at each epoch end, when every earlier callback has had its turn: all
callbacks share one logs dict, in order, so a key an earlier callback adds in
`on_epoch_end` counts (as in Keras). A `val_` key is allowed to be absent at
the end of an epoch without validation (with `validation_freq > 1`): then the
callback skips that epoch.
"""

import math

import numpy as np

MODES = ("auto", "min", "max")

# Substrings of metric names that are better when larger / smaller, for
# `mode="auto"` when the metric object does not say (Keras's `_direction`).
_UP = ("acc", "auc", "precision", "recall", "f1", "fmeasure", "iou", "r2")
_DOWN = ("loss", "error", "mae", "mse", "mape", "msle", "crossentropy", "hinge",
         "divergence", "poisson", "cosh")


def check_mode(mode, owner):
    if mode not in MODES:
        raise ValueError(f"{owner}: mode must be one of {MODES}. Received: mode={mode!r}")


class Monitor:
    """One monitored log key and its direction.

    Args:
        owner: the callback's class name, used in error messages.
        monitor: the log key, e.g. `"val_loss"`.
        mode: `"auto"`, `"min"` or `"max"`.
        min_delta: the smallest change that counts as an improvement.
    """

    def __init__(self, owner, monitor, mode="auto", min_delta=0.0):
        if not isinstance(monitor, str) or not monitor:
            raise ValueError(f"{owner}: monitor must be a non-empty log key such as "
                             f"'val_loss'. Received: monitor={monitor!r}")
        check_mode(mode, owner)
        self.owner = owner
        self.monitor = monitor
        self.requested_mode = mode
        self.mode = None if mode == "auto" else mode
        self.min_delta = abs(float(min_delta))
        self._checked = False

    @property
    def base_name(self):
        return self.monitor.removeprefix("val_")

    def resolve_mode(self, model=None):
        """Settles `mode="auto"`: the metric's own direction, else the key's name."""
        if self.mode is not None:
            return self.mode
        name = self.base_name
        for metric in getattr(model, "metrics", None) or []:
            direction = getattr(metric, "_direction", None)
            if getattr(metric, "name", None) == name and direction in ("up", "down"):
                self.mode = "max" if direction == "up" else "min"
                return self.mode
        if name.endswith("loss") or any(s in name for s in _DOWN):
            self.mode = "min"
        elif any(s in name for s in _UP):
            self.mode = "max"
        return self.mode

    def _require_mode(self, model):
        if self.resolve_mode(model) is None:
            raise ValueError(
                f"{self.owner} cannot tell whether '{self.monitor}' should be minimized or "
                f"maximized. Pass mode='min' or mode='max'. Received: mode='auto'"
            )

    def check_batch_logs(self, logs, params, model=None):
        """Settles the direction once the monitored key is seen in a batch's logs.

        A key missing here is no error yet: a callback may add it at epoch end.
        """
        if self._checked or not logs or self.monitor not in available_keys(logs, params):
            return
        self._checked = True
        self._require_mode(model)

    def value(self, logs, model=None, params=None):
        """The monitored value at epoch end, or None if validation did not run this epoch.

        A `val_` key in a run without validation data is an error, unless an
        earlier callback logged it.
        """
        logs = logs or {}
        if self.monitor in logs:
            self._require_mode(model)
            return float(np.asarray(logs[self.monitor]))
        validating = (params or {}).get("do_validation", True)
        if validating and self.monitor.startswith("val_") and not any(
                k.startswith("val_") for k in logs):
            return None
        raise_missing(self.owner, "monitor", self.monitor, sorted(logs))

    def is_improvement(self, current, reference):
        """Whether `current` beats `reference` by more than `min_delta`."""
        if reference is None:
            return True
        if math.isnan(current):
            return False
        if self.mode == "min":
            return current < reference - self.min_delta
        return current > reference + self.min_delta

    @property
    def worst(self):
        """The starting "best" value: +inf when minimizing, -inf when maximizing."""
        return math.inf if self.mode == "min" else -math.inf


def available_keys(logs, params):
    """The log keys of this run: the batch's, plus their `val_` twins with validation."""
    keys = sorted(logs)
    if params.get("do_validation"):
        keys += [f"val_{k}" for k in sorted(logs) if not k.startswith("val_")]
    return keys


def raise_missing(owner, argument, key, keys):
    raise ValueError(
        f"{owner}: '{key}' is not among the logged values. Available keys: {list(keys)}. "
        f"Received: {argument}={key!r}"
    )
