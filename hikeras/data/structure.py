"""Dataset elements: nested tuples and dicts of numpy arrays.

As in `tf.data`, tuples and dicts are structure and everything else is a
leaf: a Python list becomes one array (`[1, 2, 3]` is a vector, not three
components). Helpers here normalise elements, walk their leaves with
readable names for error messages, and stack or pad leaves into batches.
"""

import numpy as np


def normalize(value):
    """`value` with tuples/dicts kept and every leaf turned into a numpy array."""
    if isinstance(value, tuple):
        return tuple(normalize(v) for v in value)
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    return value if isinstance(value, np.ndarray) else np.asarray(value)


def flatten(element):
    """The leaves of `element`, depth first (dicts in insertion order)."""
    if isinstance(element, tuple):
        return [leaf for v in element for leaf in flatten(v)]
    if isinstance(element, dict):
        return [leaf for v in element.values() for leaf in flatten(v)]
    return [element]


def leaf_names(element, prefix="element"):
    """A readable path for every leaf, in `flatten` order: `element[0]['image']`."""
    if isinstance(element, tuple):
        return [n for i, v in enumerate(element) for n in leaf_names(v, f"{prefix}[{i}]")]
    if isinstance(element, dict):
        return [n for k, v in element.items() for n in leaf_names(v, f"{prefix}[{k!r}]")]
    return [prefix]


def pack_as(element, leaves):
    """Rebuilds `element`'s tuples and dicts around `leaves`."""
    it = iter(leaves)

    def rebuild(e):
        if isinstance(e, tuple):
            return tuple(rebuild(v) for v in e)
        if isinstance(e, dict):
            return {k: rebuild(v) for k, v in e.items()}
        return next(it)

    return rebuild(element)


def same_structure(a, b):
    """Whether `a` and `b` have the same tuples/dicts (leaves may differ)."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(
            same_structure(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(
            same_structure(a[k], b[k]) for k in a)
    return not isinstance(b, (tuple, dict))


def _check_batchable(elements, first_index):
    """Raises if the elements' structures or leaf shapes differ, naming both elements."""
    reference = elements[0]
    names = leaf_names(reference)
    shapes = [np.shape(leaf) for leaf in flatten(reference)]
    for offset, element in enumerate(elements[1:], start=1):
        if not same_structure(reference, element):
            raise ValueError(
                f"Cannot batch dataset elements {first_index} and {first_index + offset}: "
                "they have different structures. Received: "
                f"{_describe(reference)} and {_describe(element)}"
            )
        for name, shape, leaf in zip(names, shapes, flatten(element)):
            if np.shape(leaf) != shape:
                raise ValueError(
                    f"Cannot batch dataset elements {first_index} and {first_index + offset}: "
                    f"component {name} has shape {shape} in element {first_index} but "
                    f"{np.shape(leaf)} in element {first_index + offset}. Resize them to a "
                    "common shape with `map`, or use `padded_batch`. Received: shapes "
                    f"{shape} and {np.shape(leaf)}"
                )


def _describe(element):
    if isinstance(element, tuple):
        inner = ", ".join(_describe(v) for v in element)
        return f"({inner},)" if len(element) == 1 else f"({inner})"
    if isinstance(element, dict):
        return "{" + ", ".join(f"{k!r}: {_describe(v)}" for k, v in element.items()) + "}"
    return f"array{np.shape(element)}"


def stack(elements, first_index=0):
    """One batch from same-shaped elements; `first_index` numbers them in errors."""
    _check_batchable(elements, first_index)
    columns = zip(*(flatten(e) for e in elements))
    return pack_as(elements[0], [np.stack(column) for column in columns])


def pad_and_stack(elements, padded_shapes, padding_values, first_index=0):
    """One batch, padding each leaf at the end of every axis to a common shape.

    Args:
        elements: the elements of the batch (same structure, same ranks).
        padded_shapes: per leaf, a shape whose `None` entries mean "the
            longest in this batch", or `None` for all axes.
        padding_values: per leaf, the fill value (`None` means 0, or `""`
            for strings).
        first_index: index of the first element in the dataset, for errors.
    """
    names = leaf_names(elements[0])
    for offset, element in enumerate(elements[1:], start=1):
        if not same_structure(elements[0], element):
            raise ValueError(
                f"Cannot batch dataset elements {first_index} and {first_index + offset}: "
                f"they have different structures. Received: {_describe(elements[0])} and "
                f"{_describe(element)}"
            )
    columns = list(zip(*(flatten(e) for e in elements)))
    out = []
    for name, column, target, fill in zip(names, columns, padded_shapes, padding_values):
        ranks = {np.ndim(leaf) for leaf in column}
        if len(ranks) > 1:
            raise ValueError(
                f"padded_batch cannot pad component {name}: its rank differs between "
                f"elements. Received: shapes {sorted({np.shape(leaf) for leaf in column})}"
            )
        rank = ranks.pop()
        longest = [max(np.shape(leaf)[axis] for leaf in column) for axis in range(rank)]
        target = [None] * rank if target is None else list(target)
        if len(target) != rank:
            raise ValueError(
                f"padded_shapes for component {name} has rank {len(target)} but the "
                f"component has rank {rank}. Received: padded_shapes={tuple(target)}"
            )
        shape = []
        for axis, (want, have) in enumerate(zip(target, longest)):
            if want is not None and want < have:
                raise ValueError(
                    f"padded_batch: component {name} has length {have} on axis {axis}, "
                    f"longer than its padded shape. Received: padded_shapes={tuple(target)}"
                )
            shape.append(have if want is None else int(want))
        dtype = np.result_type(*[np.asarray(leaf).dtype for leaf in column])
        if fill is None:
            fill = "" if dtype.kind in "US" else 0
        batch = np.full((len(column), *shape), fill, dtype=dtype)
        for i, leaf in enumerate(column):
            batch[(i, *(slice(0, n) for n in np.shape(leaf)))] = leaf
        out.append(batch)
    return pack_as(elements[0], out)
