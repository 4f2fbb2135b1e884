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

    def _get_state(self):
        return {"epoch": list(self.epoch), "history": self.history}

    def _set_state(self, state):
        self.epoch = list(state["epoch"])
        self.history = {k: list(v) for k, v in state["history"].items()}
