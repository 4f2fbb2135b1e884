"""Scripts that the MPI tests run under `mpiexec` (or as one plain process).

    mpiexec -n 2 python -m mpi4py mpi_worker.py SCENARIO OUT_DIR

* `main`: every check that needs a healthy 2-rank job. Each rank writes
  `OUT_DIR/rank<r>.json` (weights as exact float lists, histories, files
  seen, ...); the tests compare ranks with each other and with a model
  trained without a strategy on the same global batches (rank 0 trains that
  reference inside the same job).
* `abort`: rank 1 raises in the middle of `fit`, while rank 0 waits in a
  collective; the job must end with rank 1's message.
* `kill`: rank 1 SIGKILLs itself in the middle of `fit`; the job must end.
* `single`: run without mpiexec: `MPIStrategy()` must change nothing; also
  runs the `mpi_strategy` doctest. Writes `OUT_DIR/single.json`.
"""

import contextlib
import doctest
import io
import json
import os
import signal
import sys

import numpy as np

import hikeras
from hikeras import callbacks, layers
from hikeras.distribute import MPIStrategy, is_chief, mpi_strategy
from hikeras.metrics import Metric


class SampleCount(Metric):
    """Counts the samples it sees: the truth of a global metric is the data set size."""

    def __init__(self, name="sample_count"):
        super().__init__(name=name)
        self.count = self.add_variable(shape=(), name="count")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.count.assign_add(np.shape(y_true)[0])

    def result(self):
        return self.count.value.copy()


class ChiefMarker(callbacks.Callback):
    """A user callback with a side effect guarded by `is_chief`."""

    def __init__(self, path):
        super().__init__()
        self.path = path

    def on_epoch_end(self, epoch, logs=None):
        if is_chief(self.model):
            with open(self.path, "a") as f:
                f.write(f"{epoch}\n")


class InterruptAt(callbacks.Callback):
    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_begin(self, epoch, logs=None):
        if epoch == self.epoch:
            raise KeyboardInterrupt(f"interrupted at epoch {epoch}")


class UnreducedStep(hikeras.Sequential):
    """A custom train_step that forgets to reduce its gradients."""

    def train_step(self, data):
        x, y = data[0], data[1]
        with hikeras.GradientTape() as tape:
            loss = self.compute_loss(x, y, self(x, training=True))
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        return {"loss": float(np.asarray(loss))}


class ReducedStep(hikeras.Sequential):
    """The custom train_step of docs/distributed.md."""

    def train_step(self, data):
        x, y = data[:2]  # fit's batches are (x, y, sample_weight)
        with hikeras.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_weights)
        if self.distribute_strategy is not None:
            grads = self.distribute_strategy.reduce_gradients(grads)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss, sample_weight=len(x))
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


class LazyModel(hikeras.Model):
    """A subclassed model whose layers create their weights at the first call."""

    def __init__(self):
        super().__init__()
        self.hidden = layers.Dense(8, activation="relu")
        self.out = layers.Dense(3, activation="softmax")

    def call(self, x):
        return self.out(self.hidden(x))


def _data(n=43):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(n, 6)).astype("float32")
    y = (x[:, 0] + x[:, 1] > 0).astype("int64") + (x[:, 2] > 1).astype("int64")
    weights = rng.uniform(0.5, 1.5, size=n).astype("float32")
    return x, y, weights


def _mlp(cls=hikeras.Sequential):
    return cls([hikeras.Input((6,)), layers.Dense(16, activation="relu"),
                layers.Dense(3, activation="softmax")])


def _compile(model):
    model.compile(optimizer=hikeras.optimizers.Adam(0.01),
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy", SampleCount()])


def _listed(arrays):
    return [np.asarray(a).tolist() for a in arrays]


def _fit_args(x, y, w):
    # 43 rows in batches of 8: the last batch's 3 rows split 1 / 2 between the ranks.
    return {"x": x, "y": y, "sample_weight": w, "batch_size": 8, "epochs": 3, "shuffle": True,
            "verbose": 0, "validation_data": (x[:13], y[:13])}


def check_collectives(strategy, rank):
    coll = strategy._collectives
    arrays = [np.arange(6, dtype="float32").reshape(2, 3) * (rank + 1),
              np.full(4, rank + 0.25, "float64"), np.array([rank + 1], "int64")]
    summed = _listed(coll.allreduce_sum(arrays, "test", scale=None))
    scaled = _listed(coll.allreduce_sum(arrays[:2], "test", scale=0.5))
    buffers = [np.full(3, float(rank)), np.full((2, 2), rank, "int32")]
    coll.broadcast_(buffers)
    state = coll.broadcast_json({"rank": rank, "big": 2 ** 100 + rank})
    gathered = coll.allgather_rows(np.full((rank + 1, 2), rank, "float32"), [1, 2]).tolist()
    try:
        coll.check_agreement([7, rank], "Test values")
        disagreement = None
    except ValueError as err:
        disagreement = str(err)
    reduced = strategy.reduce_gradients([np.full(3, rank + 1.0, "float32"), None])
    return {"summed": summed, "scaled": scaled, "broadcast": _listed(buffers), "json": state,
            "gathered": gathered, "disagreement": disagreement,
            "reduced": [_listed(reduced[:1])[0], reduced[1]]}


def train_plain(x, y, w):
    hikeras.utils.set_random_seed(0)
    model = _mlp()
    _compile(model)
    history = model.fit(**_fit_args(x, y, w))
    model.train_on_batch(x[:1], y[:1])
    return {"weights": _listed(model.get_weights()), "history": history.history,
            "evaluate": model.evaluate(x, y, batch_size=6, verbose=0, return_dict=True),
            "predict": model.predict(x, batch_size=6, verbose=0).tolist()}


def train_distributed(strategy, rank, x, y, w, out_dir):
    hikeras.utils.set_random_seed(0 if rank == 0 else 1000 + rank)  # rank 0's init must win
    with strategy.scope():
        model = _mlp()
        _compile(model)
    cbs = [callbacks.ModelCheckpoint(os.path.join(out_dir, f"ckpt{rank}", "w{epoch}.weights.h5"),
                                     monitor="loss", save_weights_only=True),
           callbacks.CSVLogger(os.path.join(out_dir, f"csv{rank}", "log.csv")),
           ChiefMarker(os.path.join(out_dir, f"marker{rank}.txt"))]
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        history = model.fit(**dict(_fit_args(x, y, w), verbose=2), callbacks=cbs)
    model.train_on_batch(x[:1], y[:1])  # one row: rank 0 has none (a phantom step)
    local = model(x, training=False)  # no strategy involved: this rank's own forward pass
    return {"weights": _listed(model.get_weights()), "history": history.history,
            "stdout": stdout.getvalue(),
            # 43 rows in batches of 6: the last batch has one row, so rank 0 has none.
            "evaluate": model.evaluate(x, y, batch_size=6, verbose=0, return_dict=True),
            "predict": model.predict(x, batch_size=6, verbose=0).tolist(),
            "local_predict": np.asarray(local).tolist(),
            "files": sorted(os.path.relpath(os.path.join(d, f), out_dir)
                            for d, _, fs in os.walk(out_dir) for f in fs
                            if not f.endswith(".json"))}


def train_batch_norm(strategy, rank, x, y):
    hikeras.utils.set_random_seed(rank)
    with strategy.scope():
        model = hikeras.Sequential([
            hikeras.Input((6,)), layers.Dense(8, trainable=False),
            layers.BatchNormalization(), layers.Dense(3, activation="softmax")])
        model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    model.fit(x, y, batch_size=7, epochs=2, verbose=0)
    frozen_after = model.layers[0].kernel.value.copy()
    return {"weights": _listed(model.get_weights()), "frozen_after": frozen_after.tolist()}


def train_lazy(strategy, rank, x, y):
    hikeras.utils.set_random_seed(rank)
    with strategy.scope():
        model = LazyModel()
        model.build((None, 6))  # "built", yet no layer has weights before the first call
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    return {"weights": _listed(model.get_weights())}


def backup_and_restore(strategy, rank, x, y, backup_dir):
    def run(extra):
        hikeras.utils.set_random_seed(3 if rank == 0 else 100 + rank)
        with strategy.scope():
            model = _mlp()
            _compile(model)
        model.fit(x, y, batch_size=6, epochs=4, verbose=0, callbacks=extra)
        return model

    straight = run([])
    try:
        run([InterruptAt(2), callbacks.BackupAndRestore(backup_dir)])
        interrupted = False
    except KeyboardInterrupt:
        interrupted = True
    resumed = run([callbacks.BackupAndRestore(backup_dir)])
    return {"interrupted": interrupted, "straight": _listed(straight.get_weights()),
            "resumed": _listed(resumed.get_weights())}


def custom_train_steps(strategy, rank, x, y):
    """The documented custom train_step against the built-in one, and one that forgets to reduce."""
    runs = {}
    for cls in (hikeras.Sequential, ReducedStep):
        hikeras.utils.set_random_seed(5 + rank)
        with strategy.scope():
            model = _mlp(cls)
            _compile(model)
        history = model.fit(x, y, batch_size=8, epochs=2, verbose=0)
        runs[cls.__name__] = {"weights": _listed(model.get_weights()),
                              "history": history.history}
    runs["unreduced"] = unreduced_train_step(strategy, x, y)
    return runs


def unreduced_train_step(strategy, x, y):
    with strategy.scope():
        model = _mlp(UnreducedStep)
        model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    try:
        model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    except RuntimeError as err:
        return str(err)
    return None


def main_scenario(out_dir):
    strategy = MPIStrategy()
    rank = strategy.rank
    x, y, w = _data()
    result = {"size": strategy.num_replicas_in_sync, "blas_threads": strategy.blas_threads,
              "collectives": check_collectives(strategy, rank)}
    if rank == 0:
        result["plain"] = train_plain(x, y, w)
    result["distributed"] = train_distributed(strategy, rank, x, y, w, out_dir)
    result["batch_norm"] = train_batch_norm(strategy, rank, x, y)
    result["lazy"] = train_lazy(strategy, rank, x, y)
    result["backup"] = backup_and_restore(strategy, rank, x, y, os.path.join(out_dir, "backup"))
    result["custom"] = custom_train_steps(strategy, rank, x, y)
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump(result, f)


def failing_scenario(how):
    strategy = MPIStrategy()
    x, y, _ = _data()

    class Fail(callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            if strategy.rank == 1 and batch == 2:
                if how == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                raise ValueError("rank 1 failed on purpose in batch 2")

    with strategy.scope():
        model = _mlp()
        _compile(model)
    model.fit(x, y, batch_size=8, epochs=1000, verbose=0, callbacks=[Fail()])


def single_scenario(out_dir):
    x, y, w = _data()
    runs = {}
    for name in ("plain", "strategy"):
        hikeras.utils.set_random_seed(0)
        if name == "plain":
            model = _mlp()
            _compile(model)
        else:
            strategy = MPIStrategy()
            with strategy.scope():
                model = _mlp()
                _compile(model)
        history = model.fit(**_fit_args(x, y, w))
        runs[name] = {"weights": _listed(model.get_weights()), "history": history.history,
                      "predict": model.predict(x, batch_size=5, verbose=0).tolist(),
                      "excepthook": sys.excepthook is sys.__excepthook__}
    runs["size"] = strategy.num_replicas_in_sync
    runs["doctest_failures"] = doctest.testmod(mpi_strategy).failed
    with open(os.path.join(out_dir, "single.json"), "w") as f:
        json.dump(runs, f)


if __name__ == "__main__":
    scenario, out = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
    if scenario == "main":
        main_scenario(out)
    elif scenario == "single":
        single_scenario(out)
    else:
        failing_scenario(scenario)
