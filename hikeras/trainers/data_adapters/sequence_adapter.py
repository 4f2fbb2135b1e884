"""Batches from a `hikeras.utils.Sequence`, optionally built by a thread pool."""

import numbers

import numpy as np

from ...data.parallel import close_iterator, ordered_map
from .data_adapter import DataAdapter


def _positive_int(value, argument):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"`{argument}` must be a positive integer. Received: "
                         f"{argument}={value!r}")
    return int(value)


class SequenceDataAdapter(DataAdapter):
    """Reads `sequence[i]` for every batch index, in order or shuffled per pass.

    With `workers > 1`, a pool of that many threads builds up to
    `max_queue_size` batches ahead of the loop; batches still arrive in
    index order, and an exception in a worker is raised in the loop's
    thread with the worker's traceback. The pool lives for one pass and is
    shut down (threads joined) when the pass ends, is abandoned or fails.
    `on_epoch_begin`/`on_epoch_end` are called around every complete pass.

    Args:
        sequence: the `Sequence`.
        shuffle: shuffle the batch order on every pass.
        rng: the `numpy.random.Generator` for shuffling.
        workers, use_multiprocessing, max_queue_size: override the
            sequence's own settings when not None.
    """

    def __init__(self, sequence, shuffle=False, rng=None, workers=None,
                 use_multiprocessing=None, max_queue_size=None):
        self.sequence = sequence
        self.shuffle = shuffle
        self.rng = rng if rng is not None else np.random.default_rng()

        def setting(value, name, default):
            return getattr(sequence, name, default) if value is None else value

        workers = setting(workers, "workers", 1)
        self.workers = 1 if workers == 0 else _positive_int(workers, "workers")
        self.max_queue_size = _positive_int(setting(max_queue_size, "max_queue_size", 10),
                                            "max_queue_size")
        if setting(use_multiprocessing, "use_multiprocessing", False):
            raise ValueError(
                "use_multiprocessing=True is not supported: hikeras loads Sequence batches "
                "with threads (`workers=N`), which overlap with training because numpy "
                "releases the GIL in its heavy kernels. Received: use_multiprocessing=True"
            )

    @property
    def num_batches(self):
        return len(self.sequence)

    def iter_pass(self):
        n = len(self.sequence)
        order = self.rng.permutation(n).tolist() if self.shuffle else range(n)
        self.sequence.on_epoch_begin()
        if self.workers > 1:
            batches = ordered_map(self.sequence.__getitem__, order, self.workers,
                                  max_in_flight=self.max_queue_size)
        else:
            batches = (self.sequence[i] for i in order)
        try:
            yield from batches
        finally:
            close_iterator(batches)
        self.sequence.on_epoch_end()
