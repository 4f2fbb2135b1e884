"""Batches of in-memory arrays (and lists/dicts of them)."""

import numpy as np

from .array_utils import check_arrays, slice_structure, standardize
from .data_adapter import DataAdapter


class ArrayDataAdapter(DataAdapter):
    """Iterates over `(x, y, sample_weight)` batches of in-memory arrays.

    Args:
        x, y, sample_weight: arrays or lists/dicts of arrays.
        batch_size: samples per batch (the last batch may be smaller).
        shuffle: a new random order of the samples on every pass.
        rng: the `numpy.random.Generator` for shuffling.
    """

    def __init__(self, x, y=None, sample_weight=None, batch_size=32, shuffle=False, rng=None):
        self.x = standardize(x)
        self.y = standardize(y)
        self.sample_weight = standardize(sample_weight)
        self.num_samples = check_arrays(self.x, self.y, self.sample_weight)
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or (
                batch_size <= 0):
            raise ValueError(f"batch_size must be a positive integer. Received: batch_size="
                             f"{batch_size!r}")
        self.batch_size = int(batch_size)
        self.shuffle = shuffle
        # Made when first needed: seeding a generator from the OS costs about 20 us,
        # a tenth of a one-sample `predict`, which never shuffles.
        self._rng = rng

    @property
    def rng(self):
        """The generator that shuffles (a fresh unseeded one unless one was given)."""
        if self._rng is None:
            self._rng = np.random.default_rng()
        return self._rng

    @property
    def num_batches(self):
        return -(-self.num_samples // self.batch_size)

    def iter_pass(self):
        n, bs = self.num_samples, self.batch_size
        order = self.rng.permutation(n) if self.shuffle else None
        for step in range(self.num_batches):
            lo, hi = step * bs, min((step + 1) * bs, n)
            # Sorted indices keep each gather moving forward through memory.
            index = slice(lo, hi) if order is None else np.sort(order[lo:hi])
            yield (slice_structure(self.x, index), slice_structure(self.y, index),
                   slice_structure(self.sample_weight, index))
