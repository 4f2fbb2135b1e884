"""`BackupAndRestore`: resume an interrupted `fit` exactly where it stopped."""

import json
import os

import numpy as np

from ..distribute.scope import is_chief, wait_for_chief
from ..utils.atomic import atomic_write
from ..utils.free_space import check_free_space, model_arrays
from . import _training_state as ts
from ._paths import check_save_freq, ensure_writable_dir
from .callback import Callback

_FORMAT = "hikeras-backup-1"


class BackupAndRestore(Callback):
    """Backs up the whole training state; a rerun of the same script resumes from it.

    A backup holds the weights, the optimizer's variables (step counter,
    moments), the epoch and batch reached, the metric states, the random
    generators (the global one, `fit`'s shuffling and every layer's, such as
    dropout's) and the state of the other callbacks (EarlyStopping's
    patience count, ModelCheckpoint's best value, CSVLogger's rows, History,
    ...). A resumed run therefore ends with the same weights, bit for bit, as
    a run that was never interrupted. The backup is one file replaced
    atomically, so a crash during a backup leaves the previous one intact.
    It is deleted when `fit` completes (unless `delete_checkpoint=False`).

    To resume mid-epoch, `fit` reads the input again up to the resume point
    without training on it, so shuffling and generators continue where the
    interrupted run was; inputs must therefore be deterministic.

    Args:
        backup_dir: directory for the backup (created if needed).
        save_freq: `"epoch"`, or back up every this many batches.
        delete_checkpoint: delete the backup when training completes.

    >>> import os, tempfile, numpy as np, hikeras
    >>> backup_dir = tempfile.mkdtemp()
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0,
    ...               callbacks=[BackupAndRestore(backup_dir)])
    >>> os.listdir(backup_dir)  # training completed: the backup is gone
    []
    """

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        if not backup_dir:
            raise ValueError(f"BackupAndRestore: backup_dir must be a directory path. "
                             f"Received: backup_dir={backup_dir!r}")
        check_save_freq(save_freq, "BackupAndRestore")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.delete_checkpoint = delete_checkpoint
        self.path = os.path.join(self.backup_dir, "training_state.h5")
        self.callbacks = []  # the run's other callbacks, set by CallbackList
        self._epoch = 0
        self._batches_since_backup = 0
        self._backup_at_epoch_end = False
        self._shuffle_state = None
        self._pending_metrics = None

    # ------------------------------------------------------------- restoring
    def on_train_begin(self, logs=None):
        if not getattr(self.model, "built", False):
            raise ValueError("BackupAndRestore needs a built model: build it (call it on data "
                             "or give it an Input) before `fit`. Received: an unbuilt model")
        ensure_writable_dir(self.backup_dir, "BackupAndRestore", "backup_dir", self.backup_dir)
        self._batches_since_backup = 0
        self._backup_at_epoch_end = False
        self._pending_metrics = None
        shuffle_rng = getattr(self.model, "_shuffle_rng", None)
        self._shuffle_state = shuffle_rng.bit_generator.state if shuffle_rng else None
        wait_for_chief(self.model)  # under MPIStrategy: rank 0 has finished its last backup
        if os.path.exists(self.path):
            self._restore()

    def _restore(self):
        try:
            from ..saving.h5_open import open_h5  # imported on use: h5py stays unloaded

            with open_h5(self.path) as f:
                if f.attrs.get("format") != _FORMAT:
                    raise ValueError("it is not a hikeras training backup")
                state = json.loads(f.attrs["state"])
                weights = ts.read_arrays(f["weights"])
                optimizer = {k: f["optimizer"][k][()] for k in f["optimizer"]}
                metrics = [ts.read_arrays(f[f"metrics/{i}"]) for i in range(len(f["metrics"]))]
                self._apply(state, weights, optimizer)
                ts.restore_callback_states(f, self.callbacks, state["callbacks"])
        except (OSError, KeyError, ValueError) as err:
            raise ValueError(
                f"BackupAndRestore cannot resume from '{self.path}': {err}. Delete the backup "
                f"to start over. Received: backup_dir={self.backup_dir!r}"
            ) from err
        if state["step"] and metrics:
            self._pending_metrics = metrics
        self.model._resume_at = (state["epoch"], state["step"])

    def _apply(self, state, weights, optimizer_store):
        self.model.set_weights(weights)
        opt = self.model.optimizer
        if optimizer_store:
            if not opt.built:
                opt.build(self.model.trainable_weights)
            opt.load_own_variables(optimizer_store)
        ts.restore_rng_states(self.model, state["rng"], self.path)
        if state["shuffle_rng"] is not None and self._shuffle_state is not None:
            self._shuffle_state = state["shuffle_rng"]
            self.model._shuffle_rng.bit_generator.state = self._shuffle_state

    def _merge_pending_metrics(self):
        """Adds the interrupted epoch's metric totals to the first resumed batch's.

        The compiled metrics only exist after the first resumed step, so the
        saved states are merged into them then; metric states are sums and
        counts (true of every built-in metric), so adding the deltas is exact.
        """
        metrics = self.model.metrics
        if len(metrics) == len(self._pending_metrics):
            for metric, saved in zip(metrics, self._pending_metrics):
                variables = metric.variables
                current = [np.array(v.value) for v in variables]
                metric.reset_state()
                for var, now, old in zip(variables, current, saved):
                    var.assign(old + (now - var.value))
        self._pending_metrics = None

    # --------------------------------------------------------------- backing up
    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._pending_metrics is not None:
            # `fit` reads the merged results back at the end of the epoch.
            self._merge_pending_metrics()
        if self.save_freq == "epoch":
            return
        self._batches_since_backup += 1
        if self._batches_since_backup >= self.save_freq:
            self._batches_since_backup = 0
            if batch + 1 == self.params.get("steps"):
                self._backup_at_epoch_end = True  # whole epoch done: back up after its end
            else:
                self._backup(self._epoch, batch + 1)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch" or self._backup_at_epoch_end:
            self._backup_at_epoch_end = False
            self._backup(epoch + 1, 0)

    def _backup(self, epoch, step):
        if not is_chief(self.model):  # under MPIStrategy all ranks resume from rank 0's file
            return
        opt = self.model.optimizer
        state = {"epoch": epoch, "step": step, "rng": ts.rng_states(self.model),
                 "shuffle_rng": self._shuffle_state}
        import h5py  # imported on use: `import hikeras` stays light

        check_free_space(self.path, *model_arrays(self.model))
        with atomic_write(self.path) as tmp, h5py.File(tmp, "w") as f:
            f.attrs["format"] = _FORMAT
            ts.write_arrays(f.create_group("weights"), self.model.get_weights())
            store = {}
            if opt is not None and opt.built:
                opt.save_own_variables(store)
            for key, value in store.items():
                f.create_dataset(f"optimizer/{key}", data=value)
            f.require_group("optimizer")
            metrics = self.model.metrics if step else []
            for i, metric in enumerate(metrics):
                ts.write_arrays(f.create_group(f"metrics/{i}"),
                                [v.value for v in metric.variables])
            f.require_group("metrics")
            state["callbacks"] = ts.write_callback_states(f, self.callbacks)
            f.attrs["state"] = ts.dumps(state)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and is_chief(self.model) and os.path.exists(self.path):
            os.remove(self.path)
