"""`CSVLogger`: one CSV row of logs per epoch."""

import csv
import os

import numpy as np

from ._paths import ensure_writable_dir
from .callback import Callback


def _cell(value):
    if isinstance(value, str):
        return value
    array = np.asarray(value)
    if array.ndim:
        return f"[{', '.join(str(v) for v in array.ravel().tolist())}]"
    return array.item()


class CSVLogger(Callback):
    """Writes `epoch` and every logged value to a CSV file, one row per epoch.

    The columns are `epoch` and the sorted log keys of the first epoch; with
    validation, the `val_` columns are present from the start (written as
    `NA` in epochs without validation). The file is flushed after every row.

    Args:
        filename: the CSV file.
        separator: the field separator.
        append: add rows to an existing file (its header is kept and must
            list the same columns) instead of overwriting it.

    >>> import os, tempfile, numpy as np, hikeras
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0,
    ...               callbacks=[CSVLogger(path)])
    >>> open(path).read().splitlines()[0]
    'epoch,loss'
    """

    _chief_only = True  # under MPIStrategy only rank 0 runs it (see CallbackList)

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        filename = os.fspath(filename)
        if not isinstance(separator, str) or len(separator) != 1:
            raise ValueError("CSVLogger: separator must be a single character. "
                             f"Received: separator={separator!r}")
        self.filename = filename
        self.sep = separator
        self.append = append
        self.keys = None
        self._file = None
        self._writer = None
        self._resume_size = None

    def on_train_begin(self, logs=None):
        ensure_writable_dir(os.path.dirname(self.filename), "CSVLogger", "filename",
                            self.filename)
        self.keys, self._file, self._writer, self._resume_size = None, None, None, None

    def _open(self):
        """Opens the file at the first epoch end, so a resumed run can first trim it."""
        if self._resume_size is not None:
            os.truncate(self.filename, self._resume_size)
        appending = self.append or self._resume_size is not None
        header = self._existing_header() if appending else None
        self._file = open(self.filename, "a" if appending else "w", newline="",
                          encoding="utf-8")
        if header and self.keys is None:
            self.keys = header[1:]
        if header or self._resume_size:
            self._writer = self._make_writer(write_header=False)

    def _existing_header(self):
        if not os.path.exists(self.filename):
            return None
        with open(self.filename, newline="", encoding="utf-8") as f:
            return next(csv.reader(f, delimiter=self.sep), None)

    def _make_writer(self, write_header):
        writer = csv.DictWriter(self._file, fieldnames=["epoch"] + self.keys,
                                delimiter=self.sep, restval="NA")
        if write_header:
            writer.writeheader()
        return writer

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self._file is None:
            self._open()
        if self.keys is None:
            self.keys = sorted(logs)
            if self.params.get("do_validation") and not any(k.startswith("val_")
                                                           for k in self.keys):
                self.keys += [f"val_{k}" for k in self.keys]
        if self._writer is None:
            self._writer = self._make_writer(write_header=True)
        extra = sorted(set(logs) - set(self.keys))
        if extra:
            raise ValueError(
                f"CSVLogger: the logs now hold {extra}, which are not columns of "
                f"'{self.filename}' ({['epoch'] + self.keys}). Log to a new file, or use "
                f"append=False. Received: logs keys={sorted(logs)}"
            )
        self._writer.writerow({"epoch": epoch, **{k: _cell(v) for k, v in logs.items()}})
        self._file.flush()

    def on_train_end(self, logs=None):
        if self._file is not None:
            self._file.close()
        self._file, self._writer = None, None

    def _get_state(self):
        size = self._file.tell() if self._file is not None else None
        return {"keys": self.keys, "size": size}

    def _set_state(self, state):
        """Resumes after an interruption: rows written after the backup are dropped."""
        self.keys, self._resume_size = state["keys"], state["size"]
