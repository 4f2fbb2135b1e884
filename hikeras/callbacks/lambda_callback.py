"""`LambdaCallback`: a callback assembled from plain functions."""

from .callback import Callback

_HOOKS = (
    "on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end",
    "on_train_batch_begin", "on_train_batch_end", "on_batch_begin", "on_batch_end",
    "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
    "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end",
)


class LambdaCallback(Callback):
    """Runs the given functions at the matching hooks.

    Each argument is a function with the hook's signature: `on_epoch_*` take
    `(epoch, logs)`, `on_*_batch_*` take `(batch, logs)`, `on_*_begin/end`
    take `(logs)`. Any hook name of `Callback` is accepted as a keyword.

    >>> seen = []
    >>> cb = LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch))
    >>> cb.on_epoch_end(3, {})
    >>> seen
    [3]
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None,
                 on_train_end=None, on_train_batch_begin=None, on_train_batch_end=None,
                 **kwargs):
        super().__init__()
        unknown = sorted(set(kwargs) - set(_HOOKS))
        if unknown:
            raise ValueError(f"LambdaCallback: {unknown} are not callback hooks; use any of "
                             f"{list(_HOOKS)}. Received: {unknown}")
        kwargs.update(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                      on_train_begin=on_train_begin, on_train_end=on_train_end,
                      on_train_batch_begin=on_train_batch_begin,
                      on_train_batch_end=on_train_batch_end)
        for name, fn in kwargs.items():
            if fn is None:
                continue
            if not callable(fn):
                raise TypeError(f"LambdaCallback: {name} must be callable. "
                                f"Received: {name}={fn!r}")
            setattr(self, name, fn)
