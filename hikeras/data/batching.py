"""Grouping elements into batches and splitting batches back into elements."""

import numpy as np

from . import structure
from .parallel import close_iterator


def _groups(dataset, batch_size, drop_remainder):
    """Yields `(first_index, elements)` for consecutive groups of `batch_size` elements."""
    source = iter(dataset)
    try:
        group, first = [], 0
        for index, element in enumerate(source):
            if not group:
                first = index
            group.append(element)
            if len(group) == batch_size:
                yield first, group
                group = []
        if group and not drop_remainder:
            yield first, group
    finally:
        close_iterator(source)


def batch_fn(dataset, batch_size, drop_remainder):
    def iterate():
        for first, group in _groups(dataset, batch_size, drop_remainder):
            yield structure.stack(group, first_index=first)
    return iterate


def _per_leaf(value, reference, argument):
    """`value` broadcast to one entry per leaf of `reference` (None or a matching structure)."""
    count = len(structure.flatten(reference))
    if value is None or not isinstance(value, (tuple, dict)):
        return [value] * count
    if not structure.same_structure(reference, value):
        raise ValueError(
            f"`{argument}` must match the structure of the dataset's elements, "
            f"{structure.leaf_names(reference)}. Received: {argument}={value!r}"
        )
    return structure.flatten(value)


def _shape_leaves(padded_shapes, reference):
    """One shape (or None) per leaf; a tuple of ints/None at a leaf is a shape."""
    def is_shape(s):
        return s is None or (isinstance(s, (tuple, list)) and all(
            d is None or isinstance(d, (int, np.integer)) for d in s))

    if padded_shapes is None:
        return [None] * len(structure.flatten(reference))
    if not isinstance(reference, (tuple, dict)) and is_shape(padded_shapes):
        return [padded_shapes]
    if isinstance(reference, tuple) and isinstance(padded_shapes, (tuple, list)) and len(
            padded_shapes) == len(reference):
        return [s for r, p in zip(reference, padded_shapes) for s in _shape_leaves(p, r)]
    if isinstance(reference, dict) and isinstance(padded_shapes, dict) and list(
            padded_shapes) == list(reference):
        return [s for k in reference for s in _shape_leaves(padded_shapes[k], reference[k])]
    raise ValueError(
        "`padded_shapes` must give one shape per component of the dataset's elements, "
        f"{structure.leaf_names(reference)}. Received: padded_shapes={padded_shapes!r}"
    )


def padded_batch_fn(dataset, batch_size, padded_shapes, padding_values, drop_remainder):
    def iterate():
        for first, group in _groups(dataset, batch_size, drop_remainder):
            shapes = _shape_leaves(padded_shapes, group[0])
            values = _per_leaf(padding_values, group[0], "padding_values")
            yield structure.pad_and_stack(group, shapes, values, first_index=first)
    return iterate


def unbatch_fn(dataset):
    def iterate():
        source = iter(dataset)
        try:
            for index, element in enumerate(source):
                leaves = structure.flatten(element)
                sizes = {np.shape(leaf)[0] if np.ndim(leaf) else None for leaf in leaves}
                if None in sizes or len(sizes) != 1:
                    raise ValueError(
                        "unbatch needs every component of an element to share its first "
                        f"dimension; element {index} does not. Received: shapes "
                        f"{[np.shape(leaf) for leaf in leaves]}"
                    )
                for i in range(sizes.pop()):
                    yield structure.pack_as(element, [leaf[i] for leaf in leaves])
        finally:
            close_iterator(source)
    return iterate
