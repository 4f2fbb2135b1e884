"""Where datasets start: arrays sliced along their first axis, generators, ranges."""

import numpy as np

from . import structure


def slices_iterator_fn(tensors):
    """Validates `tensors` and returns `(iterator_fn, cardinality)` for its slices."""
    element = structure.normalize(tensors)
    leaves = structure.flatten(element)
    names = structure.leaf_names(element, prefix="tensors")
    for name, leaf in zip(names, leaves):
        if leaf.ndim == 0:
            raise ValueError(
                "from_tensor_slices slices along the first axis, so every component needs "
                f"one; {name} is a scalar. Received: {name} with shape ()"
            )
    sizes = {name: leaf.shape[0] for name, leaf in zip(names, leaves)}
    if len(set(sizes.values())) > 1:
        raise ValueError(
            "from_tensor_slices needs every component to have the same first dimension. "
            f"Received: {', '.join(f'{k} with {v} rows' for k, v in sizes.items())}"
        )
    count = leaves[0].shape[0]

    def iterate():
        for i in range(count):
            yield structure.pack_as(element, [leaf[i] for leaf in leaves])

    return iterate, count


def generator_iterator_fn(generator, args):
    """`iterator_fn` calling `generator(*args)` afresh on every iteration."""
    if not callable(generator):
        raise TypeError(
            "from_generator needs a callable that returns an iterator (the generator "
            "function itself, not a generator object), so the dataset can be iterated "
            f"more than once. Received: generator={generator!r}"
        )
    args = tuple(args or ())

    def iterate():
        source = generator(*args)
        try:
            for value in source:
                yield structure.normalize(value)
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()

    return iterate


def range_iterator_fn(start, stop, step):
    """`iterator_fn` and cardinality for `range(start, stop, step)` as int64 scalars."""
    values = range(start, stop, step)

    def iterate():
        for value in values:
            yield np.int64(value)

    return iterate, len(values)
