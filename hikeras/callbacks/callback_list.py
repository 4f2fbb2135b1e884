"""`CallbackList`: fans each hook out to a list of callbacks.

Every hook receives a logs dict (`{}` where the loop has nothing to log, as
in Keras), the same object for every callback, so a callback can add keys
that later ones see (ReduceLROnPlateau's `learning_rate` reaches History).
As in Keras 3, that dict is a "pythonified" copy of the loop's logs
(`pythonify_logs`): keys sorted, nested dicts flattened, scalar values made
Python floats, so a custom `train_step` returning numpy or tensor scalars
logs the same as the built-in one. Two more rules:

* an exception raised by a callback carries a note naming the callback and
  the hook (the exception itself, and its type, are unchanged);
* `BackupAndRestore` callbacks run after all others, so a backup records the
  state the other callbacks reached in that hook, and a restore at
  `on_train_begin` overrides the resets they just did.
"""

import numbers

import numpy as np

from ..backend import Tensor
from ..distribute.scope import is_chief
from .backup_and_restore import BackupAndRestore
from .callback import Callback
from .history import History
from .progbar_logger import ProgbarLogger

_INDEXED_HOOKS = (
    "on_epoch_begin", "on_epoch_end", "on_test_batch_begin", "on_test_batch_end",
    "on_predict_batch_begin", "on_predict_batch_end",
)
_PLAIN_HOOKS = (
    "on_train_begin", "on_train_end", "on_test_begin", "on_test_end", "on_predict_begin",
    "on_predict_end",
)


def pythonify_logs(logs):
    """A copy of `logs` as Keras 3 hands it to callbacks: keys sorted, nested dicts
    flattened into it, and every scalar (number, 0-d array, tensor) a Python float.

    >>> pythonify_logs({"loss": np.float32(0.5), "acc": {"top1": 1}, "outputs": [1, 2]})
    {'top1': 1.0, 'loss': 0.5, 'outputs': [1, 2]}
    """
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        array = value.value if isinstance(value, Tensor) else value
        if (isinstance(array, (numbers.Real, np.generic))
                or (isinstance(array, np.ndarray) and array.ndim == 0)):
            try:
                value = float(array)
            except (TypeError, ValueError):  # a string or a complex number stays as it is
                pass
        result[key] = value
    return result


def _call(callback, hook, args):
    try:
        getattr(callback, hook)(*args)
    except Exception as err:
        note = f"Raised by the callback {type(callback).__name__} in `{hook}`."
        if hasattr(err, "add_note"):  # Python 3.11+: shown with the traceback
            err.add_note(note)
        raise


class CallbackList(Callback):
    """A container calling every hook on each of its callbacks, in order.

    Args:
        callbacks: the user's callbacks.
        add_history: append a `History` (unless one is given).
        add_progbar: prepend a `ProgbarLogger` (unless one is given).
        model: the model to attach.
        **params: `verbose`, `epochs`, `steps`, ... for `set_params`.

    >>> calls = []
    >>> class Spy(Callback):
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         calls.append((epoch, logs))
    >>> CallbackList([Spy()]).on_epoch_end(0, {"loss": 1.0})
    >>> calls
    [(0, {'loss': 1.0})]
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        super().__init__()
        self.callbacks = list(callbacks or [])
        for cb in self.callbacks:
            if not isinstance(cb, Callback):
                raise TypeError(
                    "callbacks must be instances of hikeras.callbacks.Callback. "
                    f"Received: {cb!r} of type {type(cb).__name__}"
                )
        if add_progbar and not any(isinstance(cb, ProgbarLogger) for cb in self.callbacks):
            self.callbacks.insert(0, ProgbarLogger())
        if add_history and not any(isinstance(cb, History) for cb in self.callbacks):
            self.callbacks.append(History())
        if model is not None and not is_chief(model):  # files and progress: rank 0 only
            self.callbacks = [cb for cb in self.callbacks
                              if not getattr(cb, "_chief_only", False)]
        backups = [cb for cb in self.callbacks if isinstance(cb, BackupAndRestore)]
        if len(backups) > 1:
            raise ValueError("Only one BackupAndRestore callback can be used in a run. "
                             f"Received: {len(backups)}")
        self.callbacks = [cb for cb in self.callbacks if cb not in backups] + backups
        for backup in backups:
            backup.callbacks = [cb for cb in self.callbacks if cb is not backup]
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model):
        super().set_model(model)
        for cb in self.callbacks:
            cb.set_model(model)

    def set_params(self, params):
        super().set_params(params)
        for cb in self.callbacks:
            cb.set_params(params)

    @property
    def history(self):
        return next((cb for cb in self.callbacks if isinstance(cb, History)), None)

    def on_train_batch_begin(self, batch, logs=None):
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            _call(cb, "on_train_batch_begin", (batch, logs))
            _call(cb, "on_batch_begin", (batch, logs))

    def on_train_batch_end(self, batch, logs=None):
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            _call(cb, "on_train_batch_end", (batch, logs))
            _call(cb, "on_batch_end", (batch, logs))


def _indexed(hook):
    def method(self, index, logs=None):
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            _call(cb, hook, (index, logs))

    return method


def _plain(hook):
    def method(self, logs=None):
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            _call(cb, hook, (logs,))

    return method


for _hook in _INDEXED_HOOKS + _PLAIN_HOOKS:
    _method = (_indexed if _hook in _INDEXED_HOOKS else _plain)(_hook)
    _method.__name__ = _hook
    _method.__doc__ = f"Calls `{_hook}` on every callback."
    setattr(CallbackList, _hook, _method)
