"""`Dataset`: a small `tf.data`-style input pipeline on numpy arrays.

A dataset is a recipe: iterating it starts a fresh pass through its
stages (sources, maps, shuffles, batches, ...), so the same dataset can
feed many epochs. Elements are numpy arrays or tuples/dicts of them.
Stages that use threads (`map(num_parallel_calls=...)`, `prefetch`) own
them for the duration of one pass and join them when the pass ends, is
abandoned (its iterator closed) or fails.
"""

import numbers

from . import batching, sources, structure, transformations
from .parallel import AUTOTUNE, prefetch, resolve_parallelism

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def _count(value, argument, allow_minus_one=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or (
            value < (-1 if allow_minus_one else 0)):
        allowed = "a non-negative integer or -1" if allow_minus_one else "a non-negative integer"
        raise ValueError(f"`{argument}` must be {allowed}. Received: {argument}={value!r}")
    return int(value)


def _positive(value, argument):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"`{argument}` must be a positive integer. Received: {argument}={value!r}")
    return int(value)


class Dataset:
    """A re-iterable pipeline of elements (numpy arrays, or tuples/dicts of them).

    Build datasets with `from_tensor_slices`, `from_tensors`, `from_generator`
    or `range`, then chain transformations. Iterating yields numpy values.

    >>> import numpy as np
    >>> ds = Dataset.from_tensor_slices(np.arange(5)).map(lambda x: x * 10).batch(2)
    >>> [b.tolist() for b in ds]
    [[0, 10], [20, 30], [40]]
    >>> ds.cardinality()
    3
    """

    def __init__(self, iterator_fn, cardinality):
        """Private: use the `from_*` constructors. `iterator_fn()` starts a pass."""
        self._iterator_fn = iterator_fn
        self._cardinality = cardinality

    def __iter__(self):
        return self._iterator_fn()

    def as_numpy_iterator(self):
        """An iterator over the elements (they already are numpy values)."""
        return iter(self)

    def cardinality(self):
        """Number of elements, `INFINITE_CARDINALITY` (-1) or `UNKNOWN_CARDINALITY` (-2)."""
        return self._cardinality

    def __len__(self):
        if self._cardinality < 0:
            kind = "infinite" if self._cardinality == INFINITE_CARDINALITY else "unknown"
            raise TypeError(f"The dataset length is {kind}. Received: cardinality "
                            f"{self._cardinality}")
        return self._cardinality

    def __repr__(self):
        return f"<Dataset cardinality={self._cardinality}>"

    # ----------------------------------------------------------- sources
    @staticmethod
    def from_tensor_slices(tensors):
        """One element per row of `tensors` (an array, or a tuple/dict of arrays)."""
        iterator_fn, count = sources.slices_iterator_fn(tensors)
        return Dataset(iterator_fn, count)

    @staticmethod
    def from_tensors(tensors):
        """A dataset with the single element `tensors`."""
        element = structure.normalize(tensors)
        return Dataset(lambda: iter([element]), 1)

    @staticmethod
    def from_generator(generator, args=None):
        """Elements produced by calling `generator(*args)` at the start of every pass.

        Args:
            generator: a callable returning an iterator (e.g. a generator
                function). Its values become elements (tuples and dicts stay
                structure; other values become arrays).
            args: optional tuple of arguments for `generator`.
        """
        return Dataset(sources.generator_iterator_fn(generator, args), UNKNOWN_CARDINALITY)

    @staticmethod
    def range(*args):
        """Integers like Python's `range(*args)`, as int64 scalars."""
        values = range(*args)
        iterator_fn, count = sources.range_iterator_fn(values.start, values.stop, values.step)
        return Dataset(iterator_fn, count)

    @staticmethod
    def zip(*datasets):
        """Zips datasets: `Dataset.zip(a, b)`, `Dataset.zip((a, b))` or `Dataset.zip({...})`.

        Stops with the shortest dataset. Elements are tuples (or dicts with
        the given keys) of the zipped datasets' elements.
        """
        if len(datasets) == 1 and isinstance(datasets[0], (tuple, list, dict)):
            datasets = datasets[0]
        members = list(datasets.values()) if isinstance(datasets, dict) else list(datasets)
        if not members or not all(isinstance(d, Dataset) for d in members):
            raise TypeError(f"zip takes Datasets. Received: {datasets!r}")
        counts = [d.cardinality() for d in members]
        if any(c == UNKNOWN_CARDINALITY for c in counts):
            known = [c for c in counts if c >= 0]
            count = min(known) if known and min(known) == 0 else UNKNOWN_CARDINALITY
        else:
            finite = [c for c in counts if c >= 0]
            count = min(finite) if finite else INFINITE_CARDINALITY
        return Dataset(transformations.zip_fn(datasets), count)

    # --------------------------------------------------- transformations
    def map(self, map_func, num_parallel_calls=None):
        """Applies `map_func` to every element (tuple elements are spread into arguments).

        Args:
            map_func: the function; it may return an array or a tuple/dict.
            num_parallel_calls: `None` to run in the iterating thread, or a
                number of threads (or `AUTOTUNE` for one per CPU core) that
                compute ahead of the consumer. Output order is preserved.
        """
        return Dataset(transformations.map_fn(self, map_func, num_parallel_calls),
                       self._cardinality)

    def filter(self, predicate):
        """Keeps the elements for which `predicate` returns True."""
        count = INFINITE_CARDINALITY if self._cardinality == INFINITE_CARDINALITY \
            else UNKNOWN_CARDINALITY
        return Dataset(transformations.filter_fn(self, predicate), count)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True):
        """Shuffles with a buffer of `buffer_size` elements (the whole dataset: a full shuffle).

        Args:
            buffer_size: elements held in the shuffle buffer.
            seed: the shuffle's seed; `None` draws one from hikeras' global
                generator (see `hikeras.utils.set_random_seed`).
            reshuffle_each_iteration: a new order on every pass (else the
                same order every time).
        """
        buffer_size = _positive(buffer_size, "buffer_size")
        return Dataset(transformations.shuffle_fn(self, buffer_size, seed,
                                                  reshuffle_each_iteration),
                       self._cardinality)

    def batch(self, batch_size, drop_remainder=False):
        """Stacks `batch_size` consecutive elements (the last batch may be smaller).

        Elements must agree in structure and shape; otherwise the error
        names the two elements and their shapes (use `padded_batch` or
        `map` to a common shape).
        """
        batch_size = _positive(batch_size, "batch_size")
        return Dataset(batching.batch_fn(self, batch_size, drop_remainder),
                       self._batched_cardinality(batch_size, drop_remainder))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False):
        """Like `batch`, padding components at the end of each axis to a common shape.

        Args:
            batch_size: elements per batch.
            padded_shapes: shapes to pad to, per component; `None` entries
                (or `None` for the whole shape) pad to the longest in the batch.
            padding_values: fill values, per component or one for all
                (default 0, or `""` for strings).
            drop_remainder: drop a final smaller batch.
        """
        batch_size = _positive(batch_size, "batch_size")
        return Dataset(batching.padded_batch_fn(self, batch_size, padded_shapes,
                                                padding_values, drop_remainder),
                       self._batched_cardinality(batch_size, drop_remainder))

    def unbatch(self):
        """Splits every element along its first axis into separate elements."""
        count = INFINITE_CARDINALITY if self._cardinality == INFINITE_CARDINALITY \
            else UNKNOWN_CARDINALITY
        return Dataset(batching.unbatch_fn(self), count)

    def repeat(self, count=None):
        """Repeats the dataset `count` times (`None` or -1: forever).

        `count` must be an integer or None; `repeat(True)` is rejected
        because it would silently mean one repetition.
        """
        if count is not None:
            count = _count(count, "count", allow_minus_one=True)
            count = None if count == -1 else count
        n = self._cardinality
        if count == 0 or n == 0:
            cardinality = 0
        elif n == UNKNOWN_CARDINALITY:
            cardinality = UNKNOWN_CARDINALITY
        elif count is None or n == INFINITE_CARDINALITY:
            cardinality = INFINITE_CARDINALITY
        else:
            cardinality = n * count
        return Dataset(transformations.repeat_fn(self, count), cardinality)

    def take(self, count):
        """The first `count` elements (-1: all of them)."""
        count = _count(count, "count", allow_minus_one=True)
        n = self._cardinality
        if count == -1:
            cardinality = n
        elif n == UNKNOWN_CARDINALITY:
            cardinality = UNKNOWN_CARDINALITY if count else 0
        else:
            cardinality = count if n == INFINITE_CARDINALITY else min(n, count)
        return Dataset(transformations.take_fn(self, count), cardinality)

    def skip(self, count):
        """All but the first `count` elements (-1: skips everything)."""
        count = _count(count, "count", allow_minus_one=True)
        n = self._cardinality
        if count == -1:
            cardinality = 0
        elif n < 0:
            cardinality = n
        else:
            cardinality = max(n - count, 0)
        return Dataset(transformations.skip_fn(self, count), cardinality)

    def prefetch(self, buffer_size):
        """Produces up to `buffer_size` elements ahead in a background thread.

        Put it last, after `batch`, so whole batches are prepared while the
        model trains. `AUTOTUNE` means 2 elements.
        """
        if buffer_size == AUTOTUNE and not isinstance(buffer_size, bool):
            buffer_size = 2
        buffer_size = resolve_parallelism(buffer_size, "buffer_size")
        return Dataset(lambda: prefetch(self, buffer_size), self._cardinality)

    def cache(self, filename=""):
        """Keeps the elements of the first complete pass in memory and replays them.

        Only the in-memory cache is supported (`filename` must be empty).
        """
        if filename:
            raise ValueError("Dataset.cache only caches in memory; file caches are not "
                             f"supported. Received: filename={filename!r}")
        return Dataset(transformations.cache_fn(self), self._cardinality)

    def concatenate(self, dataset):
        """This dataset's elements followed by `dataset`'s (same structure)."""
        if not isinstance(dataset, Dataset):
            raise TypeError(f"concatenate takes a Dataset. Received: {dataset!r}")
        counts = (self._cardinality, dataset.cardinality())
        if INFINITE_CARDINALITY in counts:
            cardinality = INFINITE_CARDINALITY
        elif UNKNOWN_CARDINALITY in counts:
            cardinality = UNKNOWN_CARDINALITY
        else:
            cardinality = sum(counts)
        return Dataset(transformations.concatenate_fn(self, dataset), cardinality)

    def enumerate(self, start=0):
        """Pairs `(index, element)`, the index an int64 scalar counting from `start`."""
        return Dataset(transformations.enumerate_fn(self, int(start)), self._cardinality)

    def _batched_cardinality(self, batch_size, drop_remainder):
        n = self._cardinality
        if n < 0:
            return n
        return n // batch_size if drop_remainder else -(-n // batch_size)
