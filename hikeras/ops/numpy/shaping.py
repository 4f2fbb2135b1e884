"""Rearranging ops: axes, flips, rolls, stacking and splitting, diagonals, triangles.

Most are compositions of registered ops (`transpose`, `reshape`,
`concatenate`, `getitem`, ...), so they run symbolically and have gradients
without a kernel of their own; `flip`, `roll`, `diagonal` and
`take_along_axis` are kernels.

>>> import numpy as np
>>> moveaxis(np.zeros((2, 3, 4)), 0, -1).shape
(3, 4, 2)
"""

import numpy as np

from ... import backend
from ..core import cast, shape, tensor_operand
from .basics import (
    concatenate,
    expand_dims,
    multiply,
    reshape,
    split,
    sum,
    transpose,
    where,
    zeros,
)
from .basics import ndim as _ndim

_apply = backend.apply


def _axis_in(axis, rank, op, name="axis"):
    if not -rank <= axis < rank:
        raise ValueError(f"{op}: {name} is out of bounds for a tensor of rank {rank}. "
                         f"Received: {name}={axis}")
    return axis % rank


def moveaxis(x, source, destination):
    """Moves axes `source` to positions `destination` (ints or sequences)."""
    x = tensor_operand(x)
    rank = _ndim(x)
    source = [source] if isinstance(source, (int, np.integer)) else list(source)
    destination = [destination] if isinstance(destination, (int, np.integer)) else list(
        destination)
    if len(source) != len(destination):
        raise ValueError("moveaxis needs as many sources as destinations. Received: "
                         f"source={source}, destination={destination}")
    source = [_axis_in(a, rank, "moveaxis", "source") for a in source]
    destination = [_axis_in(a, rank, "moveaxis", "destination") for a in destination]
    order = [a for a in range(rank) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return transpose(x, order)


def swapaxes(x, axis1, axis2):
    """Exchanges two axes."""
    x = tensor_operand(x)
    rank = _ndim(x)
    order = list(range(rank))
    a1, a2 = _axis_in(axis1, rank, "swapaxes", "axis1"), _axis_in(axis2, rank, "swapaxes",
                                                                  "axis2")
    order[a1], order[a2] = order[a2], order[a1]
    return transpose(x, order)


def ravel(x):
    """`x` flattened to one axis."""
    return reshape(x, (-1,))


def flip(x, axis=None):
    """Reverses the order of entries along `axis` (every axis when None)."""
    axis = tuple(axis) if isinstance(axis, list) else axis
    return _apply("flip", tensor_operand(x), axis=axis)


def fliplr(x):
    """Reverses axis 1 (columns)."""
    return flip(x, 1)


def flipud(x):
    """Reverses axis 0 (rows)."""
    return flip(x, 0)


def rot90(array, k=1, axes=(0, 1)):
    """Rotates by 90 degrees `k` times in the plane of `axes`, from the first towards
    the second."""
    x = tensor_operand(array)
    rank = _ndim(x)
    if rank < 2:
        raise ValueError(f"rot90 needs a tensor of rank >= 2. Received: array.shape={shape(x)}")
    a1, a2 = (_axis_in(a, rank, "rot90", "axes") for a in axes)
    if a1 == a2:
        raise ValueError(f"rot90 needs two different axes. Received: axes={axes}")
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return flip(x, (a1, a2))
    if k == 1:
        return swapaxes(flip(x, a2), a1, a2)
    return flip(swapaxes(x, a1, a2), a2)


def roll(x, shift, axis=None):
    """Shifts entries along `axis` cyclically (of the flattened `x` when None)."""
    shift = int(shift) if np.ndim(shift) == 0 else [int(s) for s in shift]
    axis = tuple(axis) if isinstance(axis, list) else axis
    return _apply("roll", tensor_operand(x), shift=shift, axis=axis)


def _at_least(x, rank):
    x = tensor_operand(x)
    while _ndim(x) < rank:
        x = expand_dims(x, 0 if _ndim(x) == 0 else _ndim(x))
    return x


def hstack(xs):
    """Joins along axis 1 (axis 0 for 1-d tensors)."""
    xs = [_at_least(x, 1) for x in xs]
    return concatenate(xs, axis=0 if _ndim(xs[0]) == 1 else 1)


def vstack(xs):
    """Joins along axis 0, 1-d tensors becoming rows."""
    xs = [tensor_operand(x) for x in xs]
    xs = [reshape(x, (1, -1)) if _ndim(x) < 2 else x for x in xs]
    return concatenate(xs, axis=0)


def dstack(xs):
    """Joins along axis 2, lower-rank tensors becoming `(1, n, 1)` or `(m, n, 1)`."""
    out = []
    for x in xs:
        x = tensor_operand(x)
        if _ndim(x) < 2:
            x = reshape(x, (1, -1))
        if _ndim(x) < 3:
            x = expand_dims(x, -1)
        out.append(x)
    return concatenate(out, axis=2)


def append(x1, x2, axis=None):
    """`x2` appended to `x1` along `axis` (both flattened when None)."""
    if axis is None:
        return concatenate([ravel(x1), ravel(x2)], axis=0)
    return concatenate([tensor_operand(x1), tensor_operand(x2)], axis=axis)


def array_split(x, indices_or_sections, axis=0):
    """Like `split`, but `n` sections need not divide the axis: the first ones get
    one extra entry."""
    x = tensor_operand(x)
    if not isinstance(indices_or_sections, (int, np.integer)):
        return split(x, indices_or_sections, axis=axis)
    sections = int(indices_or_sections)
    if sections <= 0:
        raise ValueError("array_split needs a positive number of sections. "
                         f"Received: indices_or_sections={indices_or_sections}")
    length = shape(x)[axis]
    if length is None:
        raise ValueError("array_split needs the length of the split axis. "
                         f"Received: x.shape={shape(x)}, axis={axis}")
    size, extra = divmod(length, sections)
    bounds = np.cumsum([size + 1] * extra + [size] * (sections - extra))[:-1]
    return split(x, [int(b) for b in bounds], axis=axis)


def _split_on(axis, name, min_rank):
    def op(x, indices_or_sections):
        x = tensor_operand(x)
        if _ndim(x) < min_rank:
            raise ValueError(f"{name} needs a tensor of rank >= {min_rank}. "
                             f"Received: x.shape={shape(x)}")
        return split(x, indices_or_sections, axis=axis if _ndim(x) > 1 else 0)

    op.__name__ = op.__qualname__ = name
    return op


hsplit = _split_on(1, "hsplit", 1)
hsplit.__doc__ = "Splits along axis 1 (axis 0 for 1-d tensors)."
vsplit = _split_on(0, "vsplit", 2)
vsplit.__doc__ = "Splits along axis 0 (tensors of rank >= 2)."
dsplit = _split_on(2, "dsplit", 3)
dsplit.__doc__ = "Splits along axis 2 (tensors of rank >= 3)."


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The `offset`-th diagonal of the planes spanned by `axis1` and `axis2`,
    as a new last axis."""
    x = tensor_operand(x)
    rank = _ndim(x)
    if rank < 2:
        raise ValueError(f"diagonal needs a tensor of rank >= 2. Received: x.shape={shape(x)}")
    return _apply("diagonal", x, offset=int(offset),
                  axis1=_axis_in(axis1, rank, "diagonal", "axis1"),
                  axis2=_axis_in(axis2, rank, "diagonal", "axis2"))


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum along the `offset`-th diagonal."""
    out = sum(diagonal(x, offset, axis1, axis2), axis=-1)
    if not np.issubdtype(np.dtype(out.dtype), np.inexact):
        out = cast(out, "int32")  # Keras sums integers as int32
    return out


def _band_mask(rows, cols, k, lower):
    i = np.arange(rows)[:, None]
    j = np.arange(cols)[None, :]
    return (j - i <= k) if lower else (j - i >= k)


def _triangle(x, k, lower, name):
    x = tensor_operand(x)
    dims = shape(x)
    if len(dims) < 2 or dims[-1] is None or dims[-2] is None:
        raise ValueError(f"{name} needs a tensor of rank >= 2 with known last two "
                         f"dimensions. Received: x.shape={dims}")
    mask = _band_mask(dims[-2], dims[-1], int(k), lower)
    return where(mask, x, zeros((), np.dtype(x.dtype)))


def tril(x, k=0):
    """Zeroes the entries above the `k`-th diagonal of the last two axes."""
    return _triangle(x, k, True, "tril")


def triu(x, k=0):
    """Zeroes the entries below the `k`-th diagonal of the last two axes."""
    return _triangle(x, k, False, "triu")


def diag(x, k=0):
    """A 1-d `x` becomes a square matrix with `x` on its `k`-th diagonal; a 2-d `x`
    gives its `k`-th diagonal."""
    x = tensor_operand(x)
    dims = shape(x)
    if len(dims) == 2:
        return diagonal(x, k)
    if len(dims) != 1 or dims[0] is None:
        raise ValueError(f"diag needs a 1-d tensor of known length or a 2-d tensor. "
                         f"Received: x.shape={dims}")
    if np.dtype(x.dtype) == np.bool_:
        return cast(diag(cast(x, "int32"), k), "bool")
    # A product with a 0/1 placement matrix: linear in x, so it has a gradient.
    length, k = dims[0], int(k)
    n = length + abs(k)
    flat = (np.arange(length) + max(-k, 0)) * n + np.arange(length) + max(k, 0)
    placement = np.zeros((length, n * n), np.dtype(x.dtype))
    placement[np.arange(length), flat] = 1
    return reshape(sum(multiply(expand_dims(x, -1), placement), axis=0), (n, n))


def diagflat(x, k=0):
    """`x` flattened, placed on the `k`-th diagonal of a square matrix."""
    return diag(ravel(x), k)


def take_along_axis(x, indices, axis=None):
    """Entries of `x` at `indices` along `axis` (of the flattened `x` when None);
    `indices` broadcasts against `x` on the other axes."""
    x = tensor_operand(x)
    indices = tensor_operand(indices)
    if not np.issubdtype(np.dtype(indices.dtype), np.integer):
        raise TypeError("take_along_axis needs integer indices. Received: "
                        f"indices.dtype={indices.dtype}")
    if axis is not None:
        axis = _axis_in(axis, _ndim(x), "take_along_axis")
    return _apply("take_along_axis", x, indices, axis=axis)


def get_item(x, key):
    """`x[key]`: basic and advanced (integer or boolean array) indexing."""
    return _apply("getitem", tensor_operand(x), key=key)


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-d tensors; `indexing` is "xy" (Cartesian) or "ij"."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij'. Received: "
                         f"indexing={indexing!r}")
    xs = [ravel(v) for v in x]
    n = len(xs)
    lengths = [shape(v)[0] for v in xs]
    if None in lengths:
        raise ValueError(f"meshgrid needs inputs of known length. Received: lengths={lengths}")
    if indexing == "xy" and n >= 2:
        lengths[0], lengths[1] = lengths[1], lengths[0]
    grids = []
    for i, v in enumerate(xs):
        position = i
        if indexing == "xy" and n >= 2 and i < 2:
            position = 1 - i
        view = [1] * n
        view[position] = -1
        grid = reshape(v, view)
        grids.append(multiply(grid, np.ones(lengths, np.dtype(grid.dtype))))
    return grids
