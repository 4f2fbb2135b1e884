"""`CallbackList`: fans each hook out to a list of callbacks."""

from .callback import Callback
from .history import History
from .progbar_logger import ProgbarLogger

_HOOKS = [
    "on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
    "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_end",
    "on_test_batch_begin", "on_test_batch_end", "on_predict_begin", "on_predict_end",
    "on_predict_batch_begin", "on_predict_batch_end",
]


class CallbackList(Callback):
    """A container calling every hook on each of its callbacks, in order.

    Args:
        callbacks: the user's callbacks.
        add_history: append a `History` (unless one is given).
        add_progbar: append a `ProgbarLogger` (unless one is given).
        model: the model to attach.
        **params: `verbose`, `epochs`, `steps` for `set_params`.
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
        for cb in self.callbacks:
            cb.on_train_batch_begin(batch, logs)
            cb.on_batch_begin(batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        for cb in self.callbacks:
            cb.on_train_batch_end(batch, logs)
            cb.on_batch_end(batch, logs)


def _fan_out(hook):
    def method(self, *args, **kwargs):
        for cb in self.callbacks:
            getattr(cb, hook)(*args, **kwargs)

    method.__name__ = hook
    method.__doc__ = f"Calls `{hook}` on every callback."
    return method


for _hook in _HOOKS:
    if _hook not in CallbackList.__dict__:
        setattr(CallbackList, _hook, _fan_out(_hook))
