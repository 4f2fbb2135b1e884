"""`MPIStrategy`: synchronous data-parallel training over MPI ranks (mpi4py).

One process per rank, launched by `mpiexec`. Every rank holds the whole
model and reads the same global batches. For each batch a rank keeps its own
slice (`sharding.py`), computes gradients on it, and the ranks sum their
gradients, each weighted by its share of the batch, with one in-place
`Allreduce` over a fused buffer: every rank then holds the gradient of the
whole global batch and applies the same optimizer update, so the weights
stay bit-identical. Metric states are summed after each step
(`replica_state.py`), so logs and callback decisions are global and the same
everywhere. Rank 0's weights, optimizer state and shuffling are broadcast
before the first step and whenever `fit` starts.

The training loop calls the hooks `sync_model`, `run_step`,
`reduce_gradients` and `run_predict_step` on the model's
`distribute_strategy`; with a single process they do nothing at all.
"""

import contextlib
import weakref
import zlib

import numpy as np

from ..utils import tree
from . import scope as scope_module
from .collectives import Collectives
from .mpi_runtime import import_mpi, install_abort_hook, limit_blas_threads
from .replica_state import StepState
from .sharding import shard_batch, shard_counts


def _iterations(model):
    optimizer = getattr(model, "optimizer", None)
    return None if optimizer is None else int(np.asarray(optimizer.iterations))


class MPIStrategy:
    """Synchronous data parallelism over the ranks of an `mpiexec` job.

    Create the model and compile it inside `strategy.scope()`, then train
    as usual with a global batch size (per-rank batch size times
    `num_replicas_in_sync`). Launch with
    `mpiexec -n 4 python train.py`; see docs/distributed.md.

    Run under `mpiexec` with more than one rank, the strategy also installs
    a hook that aborts the whole job when any rank raises, and caps each
    rank's BLAS threads at `cores // ranks on the node` unless
    `OMP_NUM_THREADS` (or `OPENBLAS_NUM_THREADS`, `MKL_NUM_THREADS`) is set.
    Run as a single process, it changes nothing.

    Raises:
        ImportError: if mpi4py or an MPI library is missing; it names
            `pip install "hikeras[mpi]"`.

    >>> import hikeras
    >>> strategy = MPIStrategy()  # a plain `python` run: one replica
    >>> with strategy.scope():
    ...     model = hikeras.Sequential([hikeras.Input((3,)), hikeras.layers.Dense(1)])
    ...     model.compile(optimizer="sgd", loss="mse")
    >>> model.distribute_strategy is strategy, strategy.num_replicas_in_sync
    (True, 1)
    """

    def __init__(self):
        mpi = import_mpi()
        comm = mpi.COMM_WORLD
        self._collectives = Collectives(comm, mpi)
        self._models_in_sync = weakref.WeakSet()
        self._step_weight = None
        self._gradients_reduced = False
        self.blas_threads = None
        if self.num_replicas_in_sync > 1:
            install_abort_hook(comm)
            node = comm.Split_type(mpi.COMM_TYPE_SHARED)
            self.blas_threads = limit_blas_threads(node.Get_size())
            node.Free()

    @property
    def num_replicas_in_sync(self):
        """The number of ranks training together."""
        return self._collectives.size

    @property
    def rank(self):
        """This process's rank, from 0."""
        return self._collectives.rank

    @property
    def is_chief(self):
        """Whether this is rank 0, the rank that writes files and prints progress."""
        return self._collectives.rank == 0

    @contextlib.contextmanager
    def scope(self):
        """Models created or compiled inside train with this strategy."""
        scope_module.enter(self)
        try:
            yield self
        finally:
            scope_module.exit_(self)

    def barrier(self):
        """Returns once every rank has called it."""
        if self.num_replicas_in_sync > 1:
            self._collectives.comm.Barrier()

    def __repr__(self):
        return f"<MPIStrategy rank {self.rank} of {self.num_replicas_in_sync}>"

    # ---------------------------------------------------------- training hooks
    def sync_model(self, model):
        """Gives every rank rank 0's weights, optimizer state and `fit` shuffling.

        Called by `fit` once its callbacks have started (so a state restored
        then is what gets shared). The weights of a model that has not run a
        step under this strategy yet are broadcast before its first step
        instead, once every layer has created its weights.
        """
        if self.num_replicas_in_sync == 1:
            return
        shuffle_rng = getattr(model, "_shuffle_rng", None)
        if shuffle_rng is not None:
            shuffle_rng.bit_generator.state = self._collectives.broadcast_json(
                shuffle_rng.bit_generator.state)
        if model in self._models_in_sync:
            self._broadcast_weights(model)

    def _broadcast_weights(self, model):
        variables = list(model.weights)
        optimizer = getattr(model, "optimizer", None)
        if optimizer is not None and optimizer.built:
            variables += list(optimizer.variables)
        layout = ";".join(f"{v.value.shape}{v.value.dtype}" for v in variables)
        self._collectives.check_agreement(
            [len(variables), zlib.crc32(layout.encode())],
            f"The weights and optimizer variables of model '{model.name}'")
        self._collectives.broadcast_([v.value for v in variables])
        self._models_in_sync.add(model)

    def _ensure_in_sync(self, model, data):
        if model in self._models_in_sync:
            return
        # A call creates the weights that layers build lazily (even in a "built"
        # subclassed model), so that the broadcast covers all of them.
        model(data[0] if isinstance(data, tuple) else data, training=False)
        self._broadcast_weights(model)

    def run_step(self, model, step_fn, batch):
        """Runs `step_fn` (`train_step`/`test_step`) on this rank's shard; returns global logs.

        Logs that are metric results are recomputed from the global metric
        states, so they are the same on every rank; other keys a custom
        `train_step` returns keep this rank's values.
        """
        if self.num_replicas_in_sync == 1:
            return step_fn(batch)
        shard = shard_batch(batch, self.rank, self.num_replicas_in_sync)
        self._ensure_in_sync(model, shard.data)
        state = StepState(model)
        iterations = _iterations(model)
        self._step_weight, self._gradients_reduced = shard.weight, False
        try:
            logs = step_fn(shard.data)
        finally:
            self._step_weight = None
        if not self._gradients_reduced and _iterations(model) != iterations:
            raise RuntimeError(
                f"The train_step of model '{model.name}' updated the weights with gradients "
                f"that were not reduced across the {self.num_replicas_in_sync} ranks, so the "
                "ranks' weights would drift apart. A custom train_step must pass its "
                "gradients through `self.distribute_strategy.reduce_gradients(grads)` before "
                "`apply_gradients`. Received: an optimizer step without reduce_gradients")
        state.reduce(self._collectives, shard)
        if not isinstance(logs, dict):
            return logs
        fresh = model.get_metrics_result()
        return {key: fresh.get(key, value) for key, value in logs.items()}

    def reduce_gradients(self, grads):
        """Sums `grads` over the ranks, weighted by each rank's share of the batch.

        Inside a step run by `fit`/`train_on_batch` the result is the
        gradient of the loss of the whole global batch; called anywhere else
        (a custom training loop) it is the mean over the ranks. Entries that
        are None stay None. One fused, in-place `Allreduce` per dtype.
        """
        if self.num_replicas_in_sync == 1:
            return grads
        grads = list(grads)
        missing = bytes(g is None for g in grads)
        self._collectives.check_agreement(
            [len(grads), zlib.crc32(missing)], "The trainable variables that received gradients")
        present = [i for i, g in enumerate(grads) if g is not None]
        weight = (self._step_weight if self._step_weight is not None
                  else 1.0 / self.num_replicas_in_sync)
        reduced = self._collectives.allreduce_sum(
            [np.asarray(getattr(grads[i], "value", grads[i])) for i in present], "gradients",
            scale=weight)
        for i, gradient in zip(present, reduced):
            grads[i] = gradient
        self._gradients_reduced = True
        return grads

    def run_predict_step(self, model, step_fn, batch):
        """Runs `step_fn` on this rank's shard; every rank returns the whole batch's outputs."""
        if self.num_replicas_in_sync == 1:
            return step_fn(batch)
        shard = shard_batch(batch, self.rank, self.num_replicas_in_sync)
        self._ensure_in_sync(model, shard.data)
        outputs = step_fn(shard.data)
        counts = shard_counts(shard.global_count, self.num_replicas_in_sync)
        gathered = [
            self._collectives.allgather_rows(np.asarray(getattr(o, "value", o))[:shard.count],
                                             counts)
            for o in tree.flatten(outputs)]
        return tree.pack_sequence_as(outputs, gathered)
