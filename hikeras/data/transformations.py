"""Element-wise and ordering transformations behind `Dataset`'s methods.

Each function takes the upstream dataset(s) and returns an `iterator_fn`:
a callable that starts a fresh pass and returns a generator over elements.
Generators close their upstream iterators in `finally`, so closing the last
stage of a pipeline releases every stage (and the threads some stages own).
"""

import itertools

import numpy as np

from ..utils.rng import make_generator
from . import parallel, structure
from .parallel import close_iterator


def call_with_element(fn, element):
    """Calls `fn` the way `tf.data` does: a tuple element is spread into arguments."""
    return fn(*element) if isinstance(element, tuple) else fn(element)


def map_fn(dataset, fn, num_parallel_calls):
    def apply(element):
        return structure.normalize(call_with_element(fn, element))

    if num_parallel_calls is None:
        def iterate():
            source = iter(dataset)
            try:
                for element in source:
                    yield apply(element)
            finally:
                close_iterator(source)
        return iterate
    workers = parallel.resolve_parallelism(num_parallel_calls, "num_parallel_calls")
    return lambda: parallel.ordered_map(apply, dataset, workers)


def filter_fn(dataset, predicate):
    def iterate():
        source = iter(dataset)
        try:
            for element in source:
                keep = np.asarray(call_with_element(predicate, element))
                if keep.shape != () or keep.dtype != np.bool_:
                    raise ValueError(
                        "The filter predicate must return a scalar boolean. "
                        f"Received: a value of dtype {keep.dtype} and shape {keep.shape}"
                    )
                if keep:
                    yield element
        finally:
            close_iterator(source)
    return iterate


def take_fn(dataset, count):
    def iterate():
        source = iter(dataset)
        try:
            yield from (source if count < 0 else itertools.islice(source, count))
        finally:
            close_iterator(source)
    return iterate


def skip_fn(dataset, count):
    def iterate():
        source = iter(dataset)
        try:
            if count < 0:
                return
            for _ in itertools.islice(source, count):
                pass
            yield from source
        finally:
            close_iterator(source)
    return iterate


def repeat_fn(dataset, count):
    def iterate():
        passes = itertools.count() if count is None else range(count)
        for _ in passes:
            source = iter(dataset)
            empty = True
            try:
                for element in source:
                    empty = False
                    yield element
            finally:
                close_iterator(source)
            if empty:  # repeating an empty dataset forever would hang
                return
    return iterate


def shuffle_fn(dataset, buffer_size, seed, reshuffle_each_iteration):
    """A `buffer_size` reservoir: each output is drawn uniformly from the buffer."""
    base_seed = int(make_generator(seed).integers(0, 2**63 - 1))
    iterations = itertools.count()

    def iterate():
        epoch = next(iterations) if reshuffle_each_iteration else 0
        rng = np.random.default_rng([base_seed, epoch])
        source = iter(dataset)
        buffer = []
        try:
            for element in source:
                if len(buffer) < buffer_size:
                    buffer.append(element)
                    continue
                i = int(rng.integers(len(buffer)))
                yield buffer[i]
                buffer[i] = element
            while buffer:
                i = int(rng.integers(len(buffer)))
                buffer[i], buffer[-1] = buffer[-1], buffer[i]
                yield buffer.pop()
        finally:
            close_iterator(source)
    return iterate


def cache_fn(dataset):
    """Replays the elements of the first complete pass; partial passes are discarded."""
    cached = []

    def iterate():
        if cached:
            yield from cached[0]
            return
        seen = []
        source = iter(dataset)
        try:
            for element in source:
                seen.append(element)
                yield element
        finally:
            close_iterator(source)
        if not cached:
            cached.append(seen)
    return iterate


def zip_fn(datasets):
    """Elements are tuples (or dicts) of the zipped datasets' elements."""
    keys = list(datasets) if isinstance(datasets, dict) else None
    members = list(datasets.values()) if keys is not None else list(datasets)

    def iterate():
        sources = [iter(d) for d in members]
        try:
            for parts in zip(*sources):
                yield dict(zip(keys, parts)) if keys is not None else tuple(parts)
        finally:
            for source in sources:
                close_iterator(source)
    return iterate


def concatenate_fn(first, second):
    def iterate():
        reference = None
        for dataset in (first, second):
            source = iter(dataset)
            try:
                for element in source:
                    if reference is None:
                        reference = element
                    elif not structure.same_structure(reference, element):
                        raise ValueError(
                            "concatenate needs datasets whose elements have the same "
                            "structure. Received: elements structured as "
                            f"{structure.leaf_names(reference)} and "
                            f"{structure.leaf_names(element)}"
                        )
                    yield element
            finally:
                close_iterator(source)
    return iterate


def enumerate_fn(dataset, start):
    def iterate():
        source = iter(dataset)
        try:
            for i, element in enumerate(source, start):
                yield np.int64(i), element
        finally:
            close_iterator(source)
    return iterate
