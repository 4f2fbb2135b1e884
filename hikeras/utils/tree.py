"""Minimal nested-structure helpers (lists, tuples, dicts of leaves).

Functional models and the training loop move structures of tensors around:
a model may take a dict of inputs and return a list of outputs. These
helpers flatten such structures in a deterministic order and rebuild them.
Dicts are traversed in insertion order, as the user wrote them.
"""


def is_nested(x):
    """Whether `x` is a list, tuple or dict (a container, not a leaf)."""
    return isinstance(x, (list, tuple, dict))


def flatten(structure):
    """All leaves of `structure`, depth-first."""
    if isinstance(structure, dict):
        return [leaf for v in structure.values() for leaf in flatten(v)]
    if isinstance(structure, (list, tuple)):
        return [leaf for v in structure for leaf in flatten(v)]
    return [structure]


def map_structure(fn, structure):
    """Applies `fn` to every leaf, keeping the containers."""
    if isinstance(structure, dict):
        return {k: map_structure(fn, v) for k, v in structure.items()}
    if isinstance(structure, list):
        return [map_structure(fn, v) for v in structure]
    if isinstance(structure, tuple):
        return tuple(map_structure(fn, v) for v in structure)
    return fn(structure)


def pack_sequence_as(structure, flat):
    """Rebuilds `structure`'s containers around the leaves in `flat`."""
    leaves = iter(flat)
    return map_structure(lambda _: next(leaves), structure)
