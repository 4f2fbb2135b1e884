"""Ops that move entries without changing them: flip, roll, diagonals, gathers.

Each gradient sends the output gradient back to where its entries came
from: the inverse move for permutations (`flip`, `roll`), a zero array with
the gradient written into the diagonal for `diagonal`, a scatter-add for
`take_along_axis` (an index may repeat).
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import unbroadcast
from ._registry import define


def _flip_shape(x, axis=None, **_):
    rules.normalize_axes(axis, len(rules.shape_of(x)))
    return rules.same(x)


@define("flip", shape=_flip_shape)
def flip(x, axis=None):
    return np.flip(x, axis=axis).copy()


@flip.defvjp
def _flip_vjp(node, g):
    return (np.flip(g, axis=node.attrs.get("axis")).copy(),)


def _roll_shape(x, shift, axis=None, **_):
    if axis is not None:
        rules.normalize_axes(axis, len(rules.shape_of(x)))
    return rules.same(x)


@define("roll", shape=_roll_shape)
def roll(x, shift, axis=None):
    return np.roll(x, shift, axis=axis)


@roll.defvjp
def _roll_vjp(node, g):
    shift = node.attrs["shift"]
    back = -shift if np.ndim(shift) == 0 else [-s for s in shift]
    return (np.roll(g, back, axis=node.attrs.get("axis")),)


def _diagonal_length(rows, cols, offset):
    if rows is None or cols is None:
        return None
    if offset >= 0:
        return max(min(rows, cols - offset), 0)
    return max(min(rows + offset, cols), 0)


def _diagonal_shape(x, offset=0, axis1=0, axis2=1, **_):
    shape = rules.shape_of(x)
    if len(shape) < 2:
        raise ValueError(f"diagonal needs a tensor of rank >= 2. Received: x.shape={shape}")
    a1, a2 = (a % len(shape) for a in (axis1, axis2))
    if a1 == a2:
        raise ValueError(f"axis1 and axis2 cannot be the same. Received: axis1={axis1}, "
                         f"axis2={axis2}")
    rest = tuple(d for i, d in enumerate(shape) if i not in (a1, a2))
    return SymbolicTensor(rest + (_diagonal_length(shape[a1], shape[a2], offset),),
                          rules.dtype_of(x))


@define("diagonal", shape=_diagonal_shape)
def diagonal(x, offset=0, axis1=0, axis2=1):
    return np.diagonal(x, offset, axis1, axis2).copy()


@diagonal.defvjp
def _diagonal_vjp(node, g):
    shape = node.input_shapes[0]
    offset, axis1, axis2 = (node.attrs.get(k, d) for k, d in
                            (("offset", 0), ("axis1", 0), ("axis2", 1)))
    grad = np.zeros(shape, g.dtype)
    view = np.diagonal(grad, offset, axis1, axis2)
    view.setflags(write=True)  # numpy's diagonal is a read-only view of a writable array
    view[...] = g
    return (grad,)


def _take_along_axis_shape(x, indices, axis=-1, **_):
    xs, ids = rules.shape_of(x), rules.shape_of(indices)
    if axis is None:
        return SymbolicTensor(ids, rules.dtype_of(x))
    if len(xs) != len(ids):
        raise ValueError("take_along_axis needs x and indices of the same rank. Received: "
                         f"x.shape={xs}, indices.shape={ids}")
    a = rules.normalize_axes(axis, len(xs))[0]
    others = [s for i, s in enumerate(zip(xs, ids)) if i != a]
    shape = [rules.broadcast_shapes((u,), (v,))[0] for u, v in others]
    shape.insert(a, ids[a])
    return SymbolicTensor(tuple(shape), rules.dtype_of(x))


@define("take_along_axis", shape=_take_along_axis_shape, save_inputs=(1,))
def take_along_axis(x, indices, axis=-1):
    if axis is None:
        return np.take(np.ravel(x), indices)
    x, indices = _broadcast_except(x, indices, axis)
    return np.take_along_axis(x, indices, axis=axis)


def _broadcast_except(x, indices, axis):
    """`x` and `indices` broadcast against each other on every axis but `axis`."""
    xs, ids = list(np.shape(x)), list(np.shape(indices))
    a = axis % len(xs)
    xs_b, ids_b = xs.copy(), ids.copy()
    xs_b[a], ids_b[a] = 1, 1
    common = list(np.broadcast_shapes(tuple(xs_b), tuple(ids_b)))
    x_shape, id_shape = common.copy(), common.copy()
    x_shape[a], id_shape[a] = xs[a], ids[a]
    return np.broadcast_to(x, x_shape), np.broadcast_to(indices, id_shape)


@take_along_axis.defvjp
def _take_along_axis_vjp(node, g):
    shape = node.input_shapes[0]
    axis = node.attrs.get("axis", -1)
    indices = np.asarray(node.inputs[1])
    grad = np.zeros(shape, g.dtype)
    if axis is None:
        np.add.at(grad.reshape(-1), indices.reshape(-1) % grad.size, g.reshape(-1))
        return (grad, None)
    a = axis % len(shape)
    full = list(g.shape)
    full[a] = shape[a]
    wide = np.zeros(full, g.dtype)
    indices = np.broadcast_to(indices, g.shape) % shape[a]
    grid = list(np.indices(g.shape, sparse=True))
    grid[a] = indices
    np.add.at(wide, tuple(grid), g)
    return (np.asarray(unbroadcast(wide, shape)), None)
