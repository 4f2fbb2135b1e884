"""`ModelCheckpoint`: save the model or its weights during training."""

import os

import numpy as np

from ._monitor import Monitor, available_keys, raise_missing
from ._paths import (
    check_save_freq,
    ensure_writable_dir,
    format_fields,
    static_directory,
)
from .callback import Callback

# The suffixes `hikeras.saving` writes (checked up front, so a typo does not
# cost an epoch of training).
_WEIGHTS_SUFFIXES = (".weights.h5", ".h5", ".hdf5")
_MODEL_SUFFIXES = (".keras", ".h5", ".hdf5")
_SHARDED_SUFFIX = ".weights.json"


def _check_suffix(filepath, save_weights_only, max_shard_size):
    if filepath.endswith("}"):
        return  # the suffix is only known once formatted
    if max_shard_size is not None:
        allowed = (_SHARDED_SUFFIX,)
    else:
        allowed = _WEIGHTS_SUFFIXES if save_weights_only else _MODEL_SUFFIXES
    if not filepath.endswith(allowed):
        what = ("a sharded weights checkpoint" if max_shard_size is not None else
                "weights" if save_weights_only else "a whole model")
        raise ValueError(f"ModelCheckpoint: {what} is saved to a path ending in one of "
                         f"{list(allowed)}. Received: filepath={filepath!r}")


class ModelCheckpoint(Callback):
    """Saves the model (or its weights) every epoch or every `save_freq` batches.

    `filepath` is a `str.format` template filled with `epoch` (from 1),
    `batch` (from 1, with an integer `save_freq`) and any logged value:
    `"ckpt/{epoch:02d}-{val_loss:.2f}.weights.h5"`. The file format follows
    the saving functions: `model.save_weights(path)` with
    `save_weights_only=True`, else `model.save(path)`, whose extensions pick
    the layout (`.h5` legacy HDF5, `.weights.h5` Keras 3 weights, ...);
    `max_shard_size` writes a sharded weights checkpoint. Every save is
    atomic (see `hikeras.saving`): a crash mid-save leaves the previous file
    loadable.

    Unlike Keras, a `monitor` key missing from the logs is an error listing
    the logged keys, and an unusable directory fails at the start of `fit`.

    Args:
        filepath: the path template.
        monitor: the log key compared with `save_best_only`.
        verbose: 1 prints a line for every save (and every skipped save).
        save_best_only: only save when `monitor` improves on the best value
            so far (kept across `fit` calls on this callback, and across
            restarts with `BackupAndRestore`).
        save_weights_only: save only the weights.
        mode: `"auto"`, `"min"` or `"max"` for `monitor`.
        save_freq: `"epoch"`, or a positive number of batches.
        initial_value_threshold: the best value to beat at the start.
        max_shard_size: with `save_weights_only`, passed on to
            `save_weights` to split the weights into shards.

    >>> import os, tempfile, numpy as np, hikeras
    >>> folder = tempfile.mkdtemp()
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> ckpt = ModelCheckpoint(os.path.join(folder, "w{epoch:02d}.weights.h5"),
    ...                        monitor="loss", save_weights_only=True)
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[ckpt])
    >>> sorted(os.listdir(folder))
    ['w01.weights.h5', 'w02.weights.h5']
    """

    _chief_only = True  # under MPIStrategy only rank 0 runs it (see CallbackList)

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None, max_shard_size=None):
        super().__init__()
        self.filepath = os.fspath(filepath)
        if not self.filepath:
            raise ValueError("ModelCheckpoint: filepath must not be empty. Received: filepath=''")
        self._fields = format_fields(self.filepath, "ModelCheckpoint", "filepath")
        check_save_freq(save_freq, "ModelCheckpoint")
        if "batch" in self._fields and save_freq == "epoch":
            raise ValueError("ModelCheckpoint: the filepath uses {batch}, which is only known "
                             "when save_freq is a number of batches. "
                             f"Received: filepath={self.filepath!r}, save_freq='epoch'")
        if save_best_only and save_freq != "epoch" and monitor.startswith("val_"):
            raise ValueError(
                "ModelCheckpoint: with save_freq as a number of batches, save_best_only "
                f"compares batch logs, which never hold '{monitor}'. Monitor a training value "
                f"or use save_freq='epoch'. Received: monitor={monitor!r}, save_freq={save_freq}")
        _check_suffix(self.filepath, save_weights_only, max_shard_size)
        if max_shard_size is not None and not save_weights_only:
            raise ValueError("ModelCheckpoint: max_shard_size applies to weights checkpoints; "
                             "set save_weights_only=True. "
                             f"Received: max_shard_size={max_shard_size!r}")
        self._monitor = Monitor("ModelCheckpoint", monitor, mode)
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.mode = mode
        self.save_freq = save_freq
        self.initial_value_threshold = initial_value_threshold
        self.max_shard_size = max_shard_size
        self.best = initial_value_threshold
        self._current_epoch = 0
        self._batches_since_save = 0
        self._checked_fields = False

    def on_train_begin(self, logs=None):
        ensure_writable_dir(static_directory(self.filepath), "ModelCheckpoint", "filepath",
                            self.filepath)
        if self.save_best_only:
            self._monitor.resolve_mode(self.model)

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        self._check_fields(logs)
        if self.save_best_only:
            self._monitor.check_batch_logs(logs, self.params, self.model)
        if self.save_freq == "epoch":
            return
        self._batches_since_save += 1
        if self._batches_since_save >= self.save_freq:
            self._batches_since_save = 0
            self._save(self._current_epoch, batch, logs or {})

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch, None, logs or {})

    def _check_fields(self, logs):
        """Once, at the first batch: every placeholder must be a known log key."""
        if self._checked_fields or not logs:
            return
        self._checked_fields = True
        known = set(available_keys(logs, self.params)) | {"epoch", "batch"}
        for field in self._fields:
            name = field.split(".", 1)[0].split("[", 1)[0]
            if name not in known:
                raise_missing("ModelCheckpoint", "filepath", f"{{{name}}}",
                              sorted(known))

    def _path(self, epoch, batch, logs):
        values = {k: (np.asarray(v).item() if np.ndim(v) == 0 else v) for k, v in logs.items()}
        values["epoch"] = epoch + 1
        if batch is not None:
            values["batch"] = batch + 1
        try:
            return self.filepath.format(**values)
        except KeyError as err:
            raise_missing("ModelCheckpoint", "filepath", f"{{{err.args[0]}}}",
                          sorted(values))

    def _save(self, epoch, batch, logs):
        path = self._path(epoch, batch, logs)
        if self.save_best_only:
            current = self._monitor.value(logs, self.model, self.params)
            if current is None:
                return
            reference = self.best if self.best is not None else self._monitor.worst
            if not self._monitor.is_improvement(current, reference):
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from "
                          f"{reference:.5f}", flush=True)
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {reference:.5f} to "
                      f"{current:.5f}, saving model to {path}", flush=True)
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}", flush=True)
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if self.save_weights_only:
            extra = {} if self.max_shard_size is None else {"max_shard_size": self.max_shard_size}
            self.model.save_weights(path, **extra)
        else:
            self.model.save(path)

    def _get_state(self):
        return {"best": self.best, "batches_since_save": self._batches_since_save}

    def _set_state(self, state):
        self.best = state["best"]
        self._batches_since_save = state["batches_since_save"]
