"""`TensorBoard`: event files for TensorBoard, laid out as Keras writes them.

`log_dir/train/` receives the training scalars (`epoch_loss`,
`epoch_learning_rate`, ..., at step = epoch; `batch_*` at step = global
batch count with `update_freq`), the weight histograms (`<weight path>/histogram`)
and the layer graph; `log_dir/validation/` receives the validation scalars
without their `val_` prefix (`epoch_loss`, ...) and
`evaluation_<name>_vs_iterations` at step = optimizer iterations. Files are
written by tensorboardX (`pip install "hikeras[tensorboard]"`).
"""

import os
import time

import numpy as np

from ..utils.profiler import Profiler
from ._paths import ensure_writable_dir
from ._tensorboard_graph import write_model_graph
from .callback import Callback

_INSTALL = 'pip install "hikeras[tensorboard]"'


def _summary_writer_class():
    try:
        from tensorboardX import SummaryWriter
    except ImportError as err:
        raise ImportError("The TensorBoard callback writes event files with tensorboardX, "
                          f"which is not installed. Install it with: {_INSTALL}") from err
    return SummaryWriter


def _check_profile_batch(profile_batch):
    if isinstance(profile_batch, (list, tuple)) and len(profile_batch) == 2:
        start, stop = profile_batch
    elif isinstance(profile_batch, int) and not isinstance(profile_batch, bool):
        start = stop = profile_batch
    else:
        start = stop = None
    if start is None or start < 0 or stop < start or (start == 0 and stop != 0):
        raise ValueError("TensorBoard: profile_batch must be a non-negative integer or a "
                         "(start, stop) pair of positive integers with start <= stop; 0 turns "
                         f"profiling off. Received: profile_batch={profile_batch!r}")
    return start, stop


class TensorBoard(Callback):
    """Writes training logs, histograms, the model graph and profiles for TensorBoard.

    Args:
        log_dir: the run's directory; `train/` and `validation/` go inside.
        histogram_freq: write weight histograms every this many epochs (0: never).
        write_graph: write the layer graph and the model summary (as text).
        write_steps_per_second: also log `steps_per_second`.
        update_freq: `"epoch"`, `"batch"`, or write batch-level scalars
            (`batch_loss`, ...) every this many batches.
        profile_batch: profile this batch (counted from 1 over the run) or the
            `(start, stop)` range with `hikeras.utils.Profiler`; the op/layer
            table is written as text and a Chrome trace under
            `log_dir/plugins/profile/`. 0 turns profiling off.

    >>> import tempfile, numpy as np, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((1,)), hikeras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> log_dir = tempfile.mkdtemp()
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0,
    ...               callbacks=[TensorBoard(log_dir)])
    >>> sorted(os.listdir(log_dir))
    ['train']
    """

    _chief_only = True  # under MPIStrategy only rank 0 runs it (see CallbackList)

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None):
        super().__init__()
        self._writer_class = _summary_writer_class()
        if write_images or embeddings_freq or embeddings_metadata:
            raise ValueError("TensorBoard: weight images and embeddings are not supported. "
                             f"Received: write_images={write_images!r}, "
                             f"embeddings_freq={embeddings_freq!r}")
        if isinstance(histogram_freq, bool) or not isinstance(histogram_freq, int) \
                or histogram_freq < 0:
            raise ValueError("TensorBoard: histogram_freq must be a non-negative integer. "
                             f"Received: histogram_freq={histogram_freq!r}")
        if update_freq == "batch":
            update_freq = 1
        if update_freq != "epoch" and (isinstance(update_freq, bool) or not isinstance(
                update_freq, int) or update_freq <= 0):
            raise ValueError("TensorBoard: update_freq must be 'epoch', 'batch' or a positive "
                             f"integer. Received: update_freq={update_freq!r}")
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = update_freq
        self._profile_start, self._profile_stop = _check_profile_batch(profile_batch)
        self._writers = {}
        self._global_train_batch = 0
        self._profiler = None
        self._graph_pending = False
        self._epoch_start = 0.0
        self._epoch_batches = 0

    def _writer(self, name):
        if name not in self._writers:
            self._writers[name] = self._writer_class(os.path.join(self.log_dir, name))
        return self._writers[name]

    def on_train_begin(self, logs=None):
        ensure_writable_dir(self.log_dir, "TensorBoard", "log_dir", self.log_dir)
        if self._profiler is not None:  # left running by a run that raised
            self._profiler.stop()
            self._profiler = None
        self._graph_pending = self.write_graph

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start = time.perf_counter()
        self._epoch_batches = 0

    def on_train_batch_begin(self, batch, logs=None):
        if self._profile_start and self._global_train_batch + 1 == self._profile_start:
            self._profiler = Profiler(self.model).start()

    def on_train_batch_end(self, batch, logs=None):
        if self._graph_pending:  # after the first step, so subclassed models are built
            write_model_graph(self._writer("train"), self.model)
            self._graph_pending = False
        self._global_train_batch += 1
        self._epoch_batches += 1
        if self._profiler is not None and self._global_train_batch == self._profile_stop:
            self._write_profile()
        if self.update_freq == "epoch" or self._global_train_batch % self.update_freq:
            return
        writer = self._writer("train")
        values = dict(logs or {})
        values["learning_rate"] = self._learning_rate()
        for key, value in values.items():
            if _is_scalar(value):
                writer.add_scalar(f"batch_{key}", float(value), self._global_train_batch)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        train["learning_rate"] = self._learning_rate()
        if self.write_steps_per_second:
            elapsed = time.perf_counter() - self._epoch_start
            train["steps_per_second"] = self._epoch_batches / elapsed if elapsed else 0.0
        for key, value in train.items():
            if _is_scalar(value):
                self._writer("train").add_scalar(f"epoch_{key}", float(value), epoch)
        for key, value in logs.items():
            if key.startswith("val_") and _is_scalar(value):
                self._writer("validation").add_scalar(f"epoch_{key[4:]}", float(value), epoch)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            writer = self._writer("train")
            for variable in self.model.weights:
                writer.add_histogram(f"{variable.path}/histogram", np.asarray(variable.value),
                                     epoch)
        for writer in self._writers.values():
            writer.flush()

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if not logs or optimizer is None:
            return
        step = int(np.asarray(optimizer.iterations.value))
        writer = self._writer("validation")
        for key, value in logs.items():
            if _is_scalar(value):
                writer.add_scalar(f"evaluation_{key}_vs_iterations", float(value), step)

    def on_train_end(self, logs=None):
        if self._profiler is not None:
            self._write_profile()
        for writer in self._writers.values():
            writer.close()
        self._writers = {}

    def _learning_rate(self):
        optimizer = getattr(self.model, "optimizer", None)
        return float(np.asarray(optimizer.learning_rate)) if optimizer is not None else None

    def _write_profile(self):
        report = self._profiler.stop()
        self._profiler = None
        run = time.strftime("%Y_%m_%d_%H_%M_%S")
        folder = os.path.join(self.log_dir, "plugins", "profile", run)
        os.makedirs(folder, exist_ok=True)
        report.save_chrome_trace(os.path.join(folder, "hikeras.trace.json.gz"))
        self._writer("train").add_text("profile", "```\n" + report.table() + "\n```",
                                       self._global_train_batch)

    def _get_state(self):
        return {"global_train_batch": self._global_train_batch}

    def _set_state(self, state):
        self._global_train_batch = state["global_train_batch"]


def _is_scalar(value):
    return value is not None and not isinstance(value, str) and np.ndim(value) == 0
