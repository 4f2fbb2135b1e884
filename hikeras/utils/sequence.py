"""`Sequence` (Keras 3's `PyDataset`): batches addressed by index.

Because every batch has an index, a pool of threads can build several
batches at once and the training loop still receives them in order;
`fit`'s `shuffle=True` shuffles the order of the batch indices each epoch.
"""


class Sequence:
    """Base class for datasets that return batch `index` from `__getitem__`.

    Subclasses implement `__len__` (number of batches) and `__getitem__`
    (a batch: `x`, `(x, y)` or `(x, y, sample_weight)`), and may override
    `on_epoch_end` (called after every pass, e.g. to reshuffle files).

    Args:
        workers: threads that build batches ahead of the training loop;
            1 (default) builds them in the loop's own thread.
        use_multiprocessing: must be False: hikeras uses threads, which
            overlap with training because numpy releases the GIL.
        max_queue_size: batches prepared ahead at most (with `workers > 1`).

    >>> import numpy as np
    >>> class Squares(Sequence):
    ...     def __len__(self):
    ...         return 3
    ...     def __getitem__(self, index):
    ...         x = np.full((2, 1), float(index))
    ...         return x, x ** 2
    >>> len(Squares()), Squares()[2][1].ravel().tolist()
    (3, [4.0, 4.0])
    """

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self.workers = workers
        self.use_multiprocessing = use_multiprocessing
        self.max_queue_size = max_queue_size

    def __getitem__(self, index):
        raise NotImplementedError(
            f"{type(self).__name__} must implement `__getitem__(index)` returning a batch.")

    def __len__(self):
        raise NotImplementedError(
            f"{type(self).__name__} must implement `__len__` returning the number of batches.")

    @property
    def num_batches(self):
        """The number of batches (`len(self)`)."""
        return len(self)

    def on_epoch_begin(self):
        """Called before every pass over the batches."""

    def on_epoch_end(self):
        """Called after every pass over the batches."""

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]


PyDataset = Sequence
