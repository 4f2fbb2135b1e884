"""`ProgbarLogger`: a tqdm progress bar per epoch, or one line per epoch.

`verbose=1` shows a live bar with the running loss and metrics; `verbose=2`
prints one line per epoch; `verbose=0` prints nothing. `"auto"` means 1 on
an interactive terminal and 2 otherwise (so logs of batch jobs stay short);
`hikeras.config.disable_interactive_logging()` turns 1 into 2.
"""

import sys
import time

from .. import config
from .callback import Callback


def _tqdm(**kwargs):
    """A tqdm bar on stdout; tqdm is imported on first use to keep `import hikeras` light."""
    from tqdm.auto import tqdm

    return tqdm(leave=True, dynamic_ncols=True, file=sys.stdout, **kwargs)


def resolve_verbose(verbose):
    """Maps `"auto"` to 1 on a terminal and 2 otherwise; validates the value."""
    if verbose == "auto":
        return 1 if sys.stdout.isatty() else 2
    if verbose not in (0, 1, 2) or isinstance(verbose, bool):
        raise ValueError(f"verbose must be 0, 1, 2 or 'auto'. Received: verbose={verbose!r}")
    return verbose


def format_logs(logs):
    return " - ".join(f"{k}: {v:.4f}" for k, v in logs.items()
                      if isinstance(v, (int, float)))


class ProgbarLogger(Callback):
    """Prints training progress (see module docstring for `verbose`)."""

    _chief_only = True  # under MPIStrategy only rank 0 runs it (see CallbackList)

    def __init__(self):
        super().__init__()
        self._bar = None
        self._epoch_start = 0.0
        self._mode = None

    @property
    def _verbose(self):
        verbose = self.params.get("verbose", 1)
        if verbose == 1 and not config.is_interactive_logging_enabled():
            return 2  # one plain line per epoch instead of a bar redrawn in place
        return verbose

    def on_train_begin(self, logs=None):
        self._mode = "train"

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start = time.perf_counter()
        epochs = self.params.get("epochs", 1)
        if self._verbose == 1:
            self._bar = _tqdm(total=self.params.get("steps"), desc=f"Epoch {epoch + 1}/{epochs}",
                              unit="step")

    def on_train_batch_end(self, batch, logs=None):
        if self._bar is not None:
            self._bar.update(1)
            self._bar.set_postfix_str(format_logs(logs or {}), refresh=False)

    def on_epoch_end(self, epoch, logs=None):
        elapsed = time.perf_counter() - self._epoch_start
        if self._bar is not None:
            self._bar.set_postfix_str(format_logs(logs or {}))
            self._bar.close()
            self._bar = None
        elif self._verbose == 2:
            epochs = self.params.get("epochs", 1)
            print(f"Epoch {epoch + 1}/{epochs} - {elapsed:.0f}s - {format_logs(logs or {})}",
                  flush=True)

    def on_train_end(self, logs=None):
        self._mode = None

    def on_test_begin(self, logs=None):
        if self._mode is None and self._verbose == 1:
            self._bar = _tqdm(total=self.params.get("steps"), desc="Evaluate", unit="step")

    def on_test_batch_end(self, batch, logs=None):
        if self._mode is None and self._bar is not None:
            self._bar.update(1)
            self._bar.set_postfix_str(format_logs(logs or {}), refresh=False)

    def on_test_end(self, logs=None):
        if self._mode is None:
            if self._bar is not None:
                self._bar.set_postfix_str(format_logs(logs or {}))
                self._bar.close()
                self._bar = None
            elif self._verbose == 2:
                print(format_logs(logs or {}), flush=True)

    def on_predict_begin(self, logs=None):
        if self._verbose == 1:
            self._bar = _tqdm(total=self.params.get("steps"), desc="Predict", unit="step")

    def on_predict_batch_end(self, batch, logs=None):
        if self._bar is not None:
            self._bar.update(1)

    def on_predict_end(self, logs=None):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
