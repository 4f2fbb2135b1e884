"""Indexing and gathering: `getitem` (the `x[key]` operator) and `take`.

Basic keys (ints, slices, `None`, `Ellipsis`) select a view, and the
gradient is written into a zero array through the same key. Advanced keys
(integer or boolean arrays) may select an element several times, so their
gradient is a scatter-add (`np.add.at`).
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor, Tensor
from ._registry import define


def _normalize_key(key):
    """`key` as a tuple; lists and tensors become arrays, boolean masks their indices."""
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for item in items:
        if isinstance(item, Tensor):
            item = item.value
        if isinstance(item, (bool, np.bool_)):
            raise TypeError(f"A scalar boolean is not a supported index. Received: key={key!r}")
        if isinstance(item, (list, np.ndarray)):
            item = np.asarray(item)
            if item.dtype == bool:
                out.extend(np.nonzero(item))  # a k-d mask indexes k axes
                continue
            if not np.issubdtype(item.dtype, np.integer):
                raise TypeError(f"Index arrays must be integer or boolean. Received: key={key!r}")
        elif isinstance(item, SymbolicTensor) and item.shape == ():
            pass  # an unknown integer index (a traced layer's `x[:, steps - 1]`)
        elif not (item is None or item is Ellipsis or isinstance(item, (slice, int, np.integer))):
            raise TypeError(f"Unsupported index type {type(item).__name__}. Received: key={key!r}")
        out.append(item)
    return tuple(out)


def _is_advanced(key):
    return any(isinstance(item, np.ndarray) for item in key)


def _expand_ellipsis(key, ndim):
    consumed = sum(1 for item in key if item is not None and item is not Ellipsis)
    if consumed > ndim:
        raise IndexError(f"Too many indices for a tensor of rank {ndim}. Received: key={key}")
    if sum(1 for item in key if item is Ellipsis) > 1:
        raise IndexError(f"An index can have only one Ellipsis. Received: key={key}")
    fill = (slice(None),) * (ndim - consumed)
    if any(item is Ellipsis for item in key):
        i = next(i for i, item in enumerate(key) if item is Ellipsis)
        return key[:i] + fill + key[i + 1:]
    return key + fill


def _slice_length(s, dim):
    """Elements a slice selects; None where the axis or a bound is unknown."""
    if dim is None or any(isinstance(b, SymbolicTensor) for b in (s.start, s.stop, s.step)):
        return None
    return len(range(*s.indices(dim)))


def _getitem_shape(x, key, **_):
    shape = rules.shape_of(x)
    key = _expand_ellipsis(_normalize_key(key), len(shape))
    advanced = _is_advanced(key)
    dims = iter(shape)
    out, index_shapes, positions = [], [], []
    insert_at = 0
    for pos, item in enumerate(key):
        if item is None:
            out.append(1)
            continue
        dim = next(dims)
        if isinstance(item, slice):
            out.append(_slice_length(item, dim))
            continue
        if isinstance(item, SymbolicTensor):
            continue  # an unknown integer index removes its axis
        if dim is not None and np.size(item) and not (
                -dim <= np.min(item) and np.max(item) < dim):
            raise IndexError(f"Index out of bounds for an axis of size {dim}. Received: key={key}")
        if advanced:  # alongside index arrays, integers act as 0-d index arrays
            if not positions:
                insert_at = len(out)
            index_shapes.append(np.shape(item))
            positions.append(pos)
    if advanced:
        # numpy keeps adjacent index arrays in place, else moves their dims to the front.
        if positions != list(range(positions[0], positions[-1] + 1)):
            insert_at = 0
        out[insert_at:insert_at] = np.broadcast_shapes(*index_shapes)
    return SymbolicTensor(tuple(out), rules.dtype_of(x))


@define("getitem", shape=_getitem_shape)
def getitem(x, key):
    """`x[key]` for basic and advanced numpy keys."""
    return x[_normalize_key(key)]


@getitem.defvjp
def _getitem_vjp(node, g):
    key = _normalize_key(node.attrs["key"])
    gx = np.zeros(node.input_shapes[0], dtype=g.dtype)
    if _is_advanced(key):
        np.add.at(gx, key, g)
    else:
        gx[key] = g
    return (gx,)


def _take_shape(x, indices, axis=None, **_):
    shape = rules.shape_of(x)
    index_shape = rules.shape_of(indices)
    if axis is None:
        return SymbolicTensor(index_shape, rules.dtype_of(x))
    axis = rules.normalize_axes(axis, len(shape))[0]
    return SymbolicTensor(shape[:axis] + tuple(index_shape) + shape[axis + 1:],
                          rules.dtype_of(x))


@define("take", shape=_take_shape, save_inputs=(1,))
def take(x, indices, axis=None):
    """Gathers entries at integer `indices` along `axis` (of the flattened `x` if None)."""
    return np.take(x, indices, axis=axis)


@take.defvjp
def _take_vjp(node, g):
    indices = np.asarray(node.inputs[1])
    shape = node.input_shapes[0]
    gx = np.zeros(shape, dtype=g.dtype)
    axis = node.attrs.get("axis")
    if axis is None:
        np.add.at(gx.reshape(-1), indices.reshape(-1), np.reshape(g, -1))
        return gx, None
    axis = int(axis) % len(shape)
    # Bring the gathered axis (and the index axes in g) to the front.
    front = np.moveaxis(gx, axis, 0)
    k = indices.ndim
    updates = np.moveaxis(g, tuple(range(axis, axis + k)), tuple(range(k)))
    np.add.at(front, indices, updates)
    return gx, None
