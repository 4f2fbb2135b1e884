"""Splitting each global batch evenly across the ranks.

Every rank reads the same global batch (same data, same shuffling) and keeps
its own contiguous slice: rank r of N takes rows `[r*B//N, (r+1)*B//N)` of a
batch of B rows, so slices differ by at most one row and together cover the
batch exactly once, in order, whatever B is (the smaller last batch of an
epoch included).

When B < N some ranks get no rows. Such a rank still runs the step, on the
batch's first row, so that it takes part in every collective and applies
the same optimizer update; its contribution to gradients and metrics is
weighted by zero (`Shard.phantom`).
"""

import numpy as np

from ..utils import tree


def shard_counts(batch_size, num_replicas):
    """Rows each rank takes from a batch of `batch_size` rows.

    >>> shard_counts(5, 2)
    [2, 3]
    """
    return [(r + 1) * batch_size // num_replicas - r * batch_size // num_replicas
            for r in range(num_replicas)]


class Shard:
    """This rank's part of a global batch.

    Attributes:
        data: the local batch, in the structure of the global one.
        count: rows that belong to this rank (0 for a phantom shard).
        global_count: rows of the global batch.
        phantom: this rank has no rows; `data` holds the batch's first row,
            to be run and weighted by zero.
    """

    def __init__(self, data, count, global_count):
        self.data = data
        self.count = count
        self.global_count = global_count
        self.phantom = count == 0

    @property
    def weight(self):
        """This rank's share of the global batch, `count / global_count`."""
        return self.count / self.global_count


def _batch_size(data):
    leaves = [leaf for leaf in tree.flatten(data) if leaf is not None]
    if not leaves or np.ndim(leaves[0]) == 0:
        raise ValueError("MPIStrategy splits each batch along its first axis, so the inputs "
                         "must be arrays with a batch dimension. Received: a batch whose first "
                         f"input is {leaves[0] if leaves else None!r}")
    return int(np.shape(leaves[0])[0])


def shard_batch(data, rank, num_replicas):
    """The `Shard` of `data` (a batch `x`, `(x, y)` or `(x, y, sample_weight)`) for `rank`."""
    global_count = _batch_size(data)
    lo = rank * global_count // num_replicas
    hi = (rank + 1) * global_count // num_replicas
    if hi == lo:
        lo, hi = 0, 1

    def cut(leaf):
        if leaf is None or np.ndim(leaf) == 0:
            return leaf
        if np.shape(leaf)[0] != global_count:
            raise ValueError(
                "MPIStrategy splits each batch along its first axis, so every array of a batch "
                f"must have the same number of rows as the first input ({global_count}). "
                f"Received: an array of shape {np.shape(leaf)}")
        return leaf[lo:hi]

    count = shard_counts(global_count, num_replicas)[rank]
    return Shard(tree.map_structure(cut, data), count, global_count)
