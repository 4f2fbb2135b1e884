"""Process-wide settings, by Keras's names (`keras.config`).

- `floatx`, `epsilon` and `image_data_format` live in the backend, which reads
  them wherever a default is needed: weights and inputs are created in
  `floatx()` (so `set_floatx("float64")` trains in float64) and every image
  layer's `data_format=None` means `image_data_format()`.
- `max_epochs` and `max_steps_per_epoch` cap what `fit` runs, whatever it was
  asked for (handy to smoke-test a long script).
- Interactive logging: when disabled, progress is written as plain lines
  instead of a progress bar redrawn in place.
- `enable_unsafe_deserialization` exists so Keras scripts run, but it unlocks
  nothing: hikeras never executes code from a file (a Lambda saved as Python
  bytecode is refused, and classes are looked up by name among registered
  objects), with or without it. `is_unsafe_deserialization_enabled` reports
  that the call was made.
- Traceback filtering is recorded but changes nothing: hikeras's tracebacks
  are plain Python ones.
"""

from ..backend import (
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from ..backend.selection import backend, set_backend
from ..dtype_policies import global_policy, set_global_policy

_SETTINGS = {
    "max_epochs": None,
    "max_steps_per_epoch": None,
    "interactive_logging": True,
    "traceback_filtering": True,
    "unsafe_deserialization": False,
}


def _positive_or_none(value, name):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 1):
        raise ValueError(f"`{name}` must be a positive integer or None. "
                         f"Received: {name}={value!r}")
    return value


def max_epochs():
    """The cap on `fit`'s `epochs` (None: no cap)."""
    return _SETTINGS["max_epochs"]


def set_max_epochs(max_epochs):
    """Caps every later `fit` at `max_epochs` epochs (None removes the cap)."""
    _SETTINGS["max_epochs"] = _positive_or_none(max_epochs, "max_epochs")


def max_steps_per_epoch():
    """The cap on the steps of one training epoch (None: no cap)."""
    return _SETTINGS["max_steps_per_epoch"]


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Caps every later epoch of `fit` at `max_steps_per_epoch` steps (None removes it)."""
    _SETTINGS["max_steps_per_epoch"] = _positive_or_none(max_steps_per_epoch,
                                                         "max_steps_per_epoch")


def capped_fit_length(epochs, steps_per_epoch):
    """`fit`'s `epochs` and `steps_per_epoch` under the caps set here."""
    if _SETTINGS["max_epochs"] is not None:
        epochs = min(epochs, _SETTINGS["max_epochs"])
    cap = _SETTINGS["max_steps_per_epoch"]
    if cap is not None and (steps_per_epoch is None or steps_per_epoch > cap):
        steps_per_epoch = cap
    return epochs, steps_per_epoch


def enable_interactive_logging():
    """Progress bars are redrawn in place (the default)."""
    _SETTINGS["interactive_logging"] = True


def disable_interactive_logging():
    """Progress is written as plain lines, e.g. for log files."""
    _SETTINGS["interactive_logging"] = False


def is_interactive_logging_enabled():
    """Whether progress bars are redrawn in place."""
    return _SETTINGS["interactive_logging"]


def enable_traceback_filtering():
    """Recorded for Keras compatibility; hikeras does not filter tracebacks."""
    _SETTINGS["traceback_filtering"] = True


def disable_traceback_filtering():
    """Recorded for Keras compatibility; hikeras does not filter tracebacks."""
    _SETTINGS["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    """What the last enable/disable call asked for."""
    return _SETTINGS["traceback_filtering"]


def enable_unsafe_deserialization():
    """Accepted for Keras compatibility; it never lets a file run code in hikeras.

    Keras uses it to allow loading a `Lambda` saved as Python bytecode.
    hikeras refuses such a file either way: register the function and pass it
    through `custom_objects` instead.
    """
    _SETTINGS["unsafe_deserialization"] = True


def is_unsafe_deserialization_enabled():
    """Whether `enable_unsafe_deserialization` was called (it changes no loading rule)."""
    return _SETTINGS["unsafe_deserialization"]


dtype_policy = global_policy
set_dtype_policy = set_global_policy


__all__ = [
    "backend", "disable_interactive_logging", "disable_traceback_filtering", "dtype_policy",
    "enable_interactive_logging", "enable_traceback_filtering",
    "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format",
    "is_interactive_logging_enabled", "is_traceback_filtering_enabled",
    "is_unsafe_deserialization_enabled", "max_epochs", "max_steps_per_epoch", "set_backend",
    "set_dtype_policy", "set_epsilon", "set_floatx", "set_image_data_format",
    "set_max_epochs", "set_max_steps_per_epoch",
]
