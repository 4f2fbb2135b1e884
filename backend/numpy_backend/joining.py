"""Joining and splitting along an axis: concatenate, stack, split.

`concatenate` and `stack` take their tensors as variadic inputs, so every
one of them is a tracked input of the recorded node. `split` has a variable
number of outputs (`num_outputs=None`): its VJP receives one gradient per
piece (zeros for pieces that did not reach the target).
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def _merge_dim(a, b, what):
    if a is None:
        return b
    if b is not None and a != b:
        raise ValueError(f"{what}: dimensions {a} and {b} do not match. Received: {a} vs {b}")
    return a


def _merge_shapes(shapes, what, skip_axis=None):
    ranks = {len(s) for s in shapes}
    if len(ranks) != 1:
        raise ValueError(f"{what} needs inputs of equal rank. Received: shapes={list(shapes)}")
    out = list(shapes[0])
    for s in shapes[1:]:
        for i, d in enumerate(s):
            if i != skip_axis:
                out[i] = _merge_dim(out[i], d, what)
    return out


def _concatenate_shape(*xs, axis=0):
    if not xs:
        raise ValueError("concatenate needs at least one input. Received: no inputs")
    shapes = [rules.shape_of(x) for x in xs]
    axis = rules.normalize_axes(axis, len(shapes[0]))[0]
    out = _merge_shapes(shapes, "concatenate", skip_axis=axis)
    sizes = [s[axis] for s in shapes]
    out[axis] = None if None in sizes else sum(sizes)
    return SymbolicTensor(out, rules.result_dtype(*xs))


@define("concatenate", shape=_concatenate_shape)
def concatenate(*xs, axis=0):
    return np.concatenate(xs, axis=axis)


@concatenate.defvjp
def _concatenate_vjp(node, g):
    shapes = node.input_shapes
    axis = int(node.attrs.get("axis", 0)) % len(shapes[0])
    bounds = np.cumsum([s[axis] for s in shapes])[:-1]
    return tuple(np.split(g, bounds, axis=axis))


def _stack_axis(axis, ndim):
    return rules.normalize_axes(axis, ndim + 1)[0]


def _stack_shape(*xs, axis=0):
    if not xs:
        raise ValueError("stack needs at least one input. Received: no inputs")
    out = _merge_shapes([rules.shape_of(x) for x in xs], "stack")
    out.insert(_stack_axis(axis, len(out)), len(xs))
    return SymbolicTensor(out, rules.result_dtype(*xs))


@define("stack", shape=_stack_shape)
def stack(*xs, axis=0):
    return np.stack(xs, axis=axis)


@stack.defvjp
def _stack_vjp(node, g):
    axis = _stack_axis(node.attrs.get("axis", 0), len(node.input_shapes[0]))
    lead = (slice(None),) * axis
    return tuple(g[lead + (i,)] for i in range(len(node.input_shapes)))


def _split_sizes(size, indices_or_sections):
    """Piece sizes along the axis (`None` where the axis length is unknown)."""
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if size is None:
            return [None] * sections
        if sections <= 0 or size % sections:
            raise ValueError(
                f"An axis of size {size} cannot be split into {sections} equal pieces. "
                f"Received: indices_or_sections={indices_or_sections}"
            )
        return [size // sections] * sections
    bounds = [int(i) for i in indices_or_sections]
    if size is None:
        # Pieces between non-negative indices are known if the axis is long enough.
        if any(b < 0 for b in bounds):
            return [None] * (len(bounds) + 1)
        return [max(0, b - a) for a, b in zip([0] + bounds, bounds)] + [None]
    edges = [min(max(b if b >= 0 else b + size, 0), size) for b in bounds]
    return [max(0, b - a) for a, b in zip([0] + edges, edges + [size])]


def _split_shape(x, indices_or_sections, axis=0):
    shape = rules.shape_of(x)
    axis = rules.normalize_axes(axis, len(shape))[0]
    return tuple(
        SymbolicTensor(shape[:axis] + (n,) + shape[axis + 1:], rules.dtype_of(x))
        for n in _split_sizes(shape[axis], indices_or_sections)
    )


@define("split", shape=_split_shape, num_outputs=None)
def split(x, indices_or_sections, axis=0):
    """Splits into equal `sections` or at the given indices; returns a tuple."""
    return tuple(np.split(x, indices_or_sections, axis=axis))


@split.defvjp
def _split_vjp(node, g):
    axis = int(node.attrs.get("axis", 0)) % len(node.input_shapes[0])
    return (np.concatenate(g, axis=axis),)
