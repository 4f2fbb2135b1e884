"""`History`: records each epoch's logs; `fit` returns it."""

from .callback import Callback


class History(Callback):
    """Collects per-epoch logs in `history` (`{"loss": [...], "val_loss": [...]}`)."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []
        self.history = {}

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        if self.model is not None:
            self.model.history = self
