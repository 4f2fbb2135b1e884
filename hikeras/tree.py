"""Nested structures as Keras's `keras.tree` sees them.

A structure is made of lists, tuples (named tuples included) and dicts; every
other value, `None` included, is a leaf. Dict entries are visited in sorted key
order, whatever order they were written in, so two dicts with the same keys
always flatten alike (the internal helpers in `hikeras.utils.tree` keep
insertion order instead, which is what a model's inputs need).

>>> flatten({"b": [1, (2, 3)], "a": 4})
[4, 1, 2, 3]
>>> map_structure(lambda x, y: x + y, [1, (2,)], [10, (20,)])
[11, (22,)]
"""

import collections


class MAP_TO_NONE:
    """Returned by a `traverse` function to replace a subtree with `None`."""


def is_nested(structure):
    """Whether `structure` is a list, tuple or dict (a container, not a leaf)."""
    return isinstance(structure, (list, tuple, dict))


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _children(structure):
    """`[(key, child)]` of a container, dicts in sorted key order."""
    if isinstance(structure, dict):
        return [(k, structure[k]) for k in sorted(structure)]
    return list(enumerate(structure))


def _rebuild(template, values):
    """A container of `template`'s type holding `values` (in `_children` order)."""
    if isinstance(template, dict):
        keys = sorted(template)
        by_key = dict(zip(keys, values))
        rebuilt = {k: by_key[k] for k in template}  # keep the caller's key order
        return type(template)(rebuilt) if not isinstance(template, collections.defaultdict) \
            else rebuilt
    if _is_namedtuple(template):
        return type(template)(*values)
    return type(template)(values)


def flatten(structure):
    """Every leaf of `structure`, depth first."""
    if not is_nested(structure):
        return [structure]
    return [leaf for _, child in _children(structure) for leaf in flatten(child)]


def flatten_with_path(structure):
    """`[(path, leaf)]`, where `path` is the tuple of keys and indices that reach the leaf."""
    if not is_nested(structure):
        return [((), structure)]
    return [((key,) + path, leaf) for key, child in _children(structure)
            for path, leaf in flatten_with_path(child)]


def _kind(x):
    if isinstance(x, dict):
        return dict
    return type(x) if _is_namedtuple(x) else (list if isinstance(x, list) else tuple)


def _same_structure(a, b):
    if not is_nested(a) or not is_nested(b):
        return is_nested(a) == is_nested(b)
    if _kind(a) is not _kind(b):
        return False
    if isinstance(a, dict) and sorted(a) != sorted(b):
        return False
    if len(a) != len(b):
        return False
    return all(_same_structure(x, y)
               for (_, x), (_, y) in zip(_children(a), _children(b)))


def assert_same_structure(a, b, check_types=None):
    """Raises `ValueError` unless `a` and `b` nest alike, a list never matching a tuple.

    `check_types` is accepted and ignored, as in Keras 3 (where it is deprecated).
    """
    if not _same_structure(a, b):
        raise ValueError("Structures don't have the same nested structure. "
                         f"Received: a={a!r}, b={b!r}")


def assert_same_paths(a, b):
    """Raises `ValueError` unless `a` and `b` have the same leaf paths (types may differ)."""
    paths_a = {path for path, _ in flatten_with_path(a)}
    paths_b = {path for path, _ in flatten_with_path(b)}
    if paths_a != paths_b:
        raise ValueError("`a` and `b` don't have the same paths. Paths in `a` missing in "
                         f"`b`: {sorted(paths_a - paths_b, key=repr)}; paths in `b` missing "
                         f"in `a`: {sorted(paths_b - paths_a, key=repr)}")


def map_structure(func, *structures, none_is_leaf=True):
    """`func` applied to the leaves of `structures` in step; the result nests like the first.

    With `none_is_leaf=False`, a `None` is an empty subtree and stays `None`.
    """
    if not structures:
        raise ValueError("map_structure needs at least one structure. Received: structures=()")
    for other in structures[1:]:
        assert_same_structure(structures[0], other)
    return _map(func, structures, none_is_leaf)


def _map(func, structures, none_is_leaf):
    first = structures[0]
    if first is None and not none_is_leaf:
        return None
    if not is_nested(first):
        return func(*structures)
    columns = zip(*[[child for _, child in _children(s)] for s in structures])
    return _rebuild(first, [_map(func, column, none_is_leaf) for column in columns])


def map_structure_up_to(shallow_structure, func, *structures):
    """Like `map_structure`, but stops at the leaves of `shallow_structure`.

    What lies below them in `structures` is passed to `func` whole.
    """
    def walk(shallow, values):
        if not is_nested(shallow):
            return func(*values)
        for value in values:
            if not is_nested(value) or len(value) != len(shallow) or (
                    isinstance(shallow, dict) and sorted(shallow) != sorted(value)):
                raise ValueError("The structures do not nest like `shallow_structure`. "
                                 f"Received: shallow_structure={shallow_structure!r}, "
                                 f"structures={structures!r}")
        columns = zip(*[[child for _, child in _children(v)] for v in values])
        return _rebuild(values[0], [walk(s, column) for (_, s), column in
                                    zip(_children(shallow), columns)])

    return walk(shallow_structure, structures)


def pack_sequence_as(structure, flat_sequence):
    """`structure`'s containers around the leaves of `flat_sequence`, in `flatten` order."""
    flat_sequence = list(flat_sequence)
    needed = len(flatten(structure))
    if needed != len(flat_sequence):
        raise ValueError(f"The structure has {needed} leaves but the flat sequence has "
                         f"{len(flat_sequence)} elements. Received: structure={structure!r}, "
                         f"flat_sequence={flat_sequence!r}")
    leaves = iter(flat_sequence)
    return _map(lambda _: next(leaves), (structure,), none_is_leaf=True)


def lists_to_tuples(structure):
    """The same structure with every list made a tuple."""
    if not is_nested(structure):
        return structure
    values = [lists_to_tuples(child) for _, child in _children(structure)]
    if isinstance(structure, list):
        return tuple(values)
    return _rebuild(structure, values)


def _is_shape(x):
    return isinstance(x, (list, tuple)) and not _is_namedtuple(x) and all(
        d is None or isinstance(d, int) for d in x)


def map_shape_structure(func, structure):
    """`func` applied to every shape (a tuple or list of ints and `None`s) in `structure`."""
    if _is_shape(structure):
        return func(tuple(structure))
    if not is_nested(structure):
        return func(structure)
    return _rebuild(structure, [map_shape_structure(func, child)
                                for _, child in _children(structure)])


def traverse(func, structure, top_down=True):
    """Calls `func` on every subtree (containers and leaves) and rebuilds from its answers.

    Top-down, a non-`None` answer replaces the subtree (not visited further)
    and `None` means "go on inside"; bottom-up, `func` sees subtrees already
    rebuilt and `None` keeps them. `MAP_TO_NONE()` replaces a subtree with `None`.
    """
    def answer(value, default):
        if isinstance(value, MAP_TO_NONE):
            return None
        return default if value is None else value

    def down(node):
        result = func(node)
        if result is not None:
            return answer(result, node)
        if not is_nested(node):
            return node
        return _rebuild(node, [down(child) for _, child in _children(node)])

    def up(node):
        if is_nested(node):
            node = _rebuild(node, [up(child) for _, child in _children(node)])
        return answer(func(node), node)

    return down(structure) if top_down else up(structure)


__all__ = [
    "MAP_TO_NONE", "assert_same_paths", "assert_same_structure", "flatten",
    "flatten_with_path", "is_nested", "lists_to_tuples", "map_shape_structure",
    "map_structure", "map_structure_up_to", "pack_sequence_as", "traverse",
]
