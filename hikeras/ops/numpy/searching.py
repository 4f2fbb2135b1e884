"""Sorting, searching, counting and set ops.

`sort` has a gradient (through the permutation it applied); the index- and
count-valued ops (`argsort`, `searchsorted`, `unique`, `bincount`, ...) have
none, as in Keras. Ops whose output shape depends on the values (`unique`,
`nonzero`, `histogram` edges) run on concrete values only. Indices are
int32, as on Keras's TensorFlow backend.

>>> import numpy as np
>>> argsort(np.array([3.0, 1.0, 2.0])).tolist()
[1, 2, 0]
"""

import numpy as np

from ... import backend
from ..core import shape, tensor_operand
from .basics import ndim as _ndim
from .basics import where

_apply = backend.apply


def _axis(x, axis, name):
    rank = max(_ndim(x), 1)
    if not -rank <= axis < rank:
        raise ValueError(f"{name}: axis is out of bounds for a tensor of rank {_ndim(x)}. "
                         f"Received: x.shape={shape(x)}, axis={axis}")
    return int(axis)


def _flat_if_none(x, axis):
    if axis is None:
        return _apply("reshape", x, shape=(-1,)), -1
    return x, axis


def sort(x, axis=-1):
    """`x` sorted ascending along `axis` (of the flattened `x` when None)."""
    x, axis = _flat_if_none(tensor_operand(x), axis)
    return _apply("sort", x, axis=_axis(x, axis, "sort"))


def argsort(x, axis=-1):
    """The indices that sort `x` along `axis` (stable; no gradient)."""
    x, axis = _flat_if_none(tensor_operand(x), axis)
    return _apply("argsort", x, axis=_axis(x, axis, "argsort"))


def argpartition(x, kth, axis=-1):
    """Indices that put the `kth` entry in its sorted place along `axis`, smaller ones
    before it and larger ones after (no gradient)."""
    x = tensor_operand(x)
    return _apply("argpartition", x, kth=int(kth), axis=_axis(x, axis, "argpartition"))


def _concrete(x, name):
    """The numpy values of `x`, for ops whose result depends on them."""
    if isinstance(x, backend.SymbolicTensor):
        raise TypeError(f"{name} needs concrete values: its result's shape depends on "
                        f"them. Received: x={x!r}")
    return x.value if isinstance(x, backend.Tensor) else np.asarray(x)


def searchsorted(sorted_sequence, values, side="left"):
    """Indices where `values` would be inserted into the 1-d `sorted_sequence` to keep it
    sorted (int32; no gradient)."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right'. Received: "
                         f"side={side!r}")
    sequence = _concrete(tensor_operand(sorted_sequence), "searchsorted")
    if sequence.ndim != 1:
        raise ValueError("searchsorted needs a 1-d sorted_sequence. Received: "
                         f"sorted_sequence.shape={sequence.shape}")
    return np.searchsorted(sequence, _concrete(tensor_operand(values), "searchsorted"),
                           side=side).astype(np.int32)


def digitize(x, bins):
    """The index of the bin each entry of `x` falls in (int32; no gradient)."""
    return np.digitize(_concrete(tensor_operand(x), "digitize"),
                       _concrete(tensor_operand(bins), "digitize")).astype(np.int32)


def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each entry of `x1` occurs in `x2` (bool; no gradient)."""
    return np.isin(_concrete(tensor_operand(x1), "isin"), _concrete(tensor_operand(x2), "isin"),
                   assume_unique=assume_unique, invert=invert)


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts (or sums `weights`) of each non-negative integer in `x`; a 2-d `x` counts
    each row (no gradient)."""
    if sparse:
        raise ValueError(f"Sparse tensors are not supported. Received: sparse={sparse}")
    values = _concrete(tensor_operand(x), "bincount")
    if not np.issubdtype(values.dtype, np.integer):
        raise TypeError(f"bincount needs integers. Received: x.dtype={values.dtype}")
    if values.size and values.min() < 0:
        raise ValueError(f"bincount needs non-negative integers. Received: "
                         f"min(x)={values.min()}")
    w = None if weights is None else _concrete(tensor_operand(weights), "bincount")
    length = max(int(minlength), int(values.max()) + 1 if values.size else 0)
    if values.ndim == 2:
        rows = [np.bincount(r, None if w is None else wr, minlength=length)
                for r, wr in zip(values, values if w is None else w)]
        out = np.stack(rows) if rows else np.zeros((0, length))
    else:
        out = np.bincount(values.ravel(), None if w is None else w.ravel(), minlength=length)
    return out.astype(np.int32 if w is None else w.dtype)


def histogram(x, bins=10, range=None):
    """Counts of `x` in `bins` equal bins over `range` (the data's range by default);
    returns `(counts, edges)` (no gradient)."""
    values = _concrete(tensor_operand(x), "histogram")
    counts, edges = np.histogram(values, bins=bins, range=range)
    dtype = values.dtype if np.issubdtype(values.dtype, np.inexact) else np.dtype(
        backend.floatx())
    return counts.astype(np.int32), edges.astype(dtype)


def unique(x, sorted=True, return_index=False, return_inverse=False,
           return_counts=False, axis=None, size=None, fill_value=None):
    """The distinct values of `x` (sorted), optionally with first indices, the
    inverse map and counts; `size` pads or truncates to a fixed length with
    `fill_value` (no gradient)."""
    values = _concrete(tensor_operand(x), "unique")
    found = np.unique(values, return_index=return_index, return_inverse=return_inverse,
                      return_counts=return_counts, axis=axis)
    found = list(found) if isinstance(found, tuple) else [found]
    if size is not None:
        fill = found[0].reshape(-1)[:1] if fill_value is None else fill_value
        found[0] = _fixed_length(found[0], int(size), fill, axis)
        extra = 1
        if return_index:
            found[extra] = _fixed_length(found[extra], int(size), 0, None)
            extra += 1
        if return_inverse:
            extra += 1
        if return_counts:
            found[extra] = _fixed_length(found[extra], int(size), 0, None)
    found = [f.astype(np.int32) if i and np.issubdtype(f.dtype, np.integer) else f
             for i, f in enumerate(found)]
    return found[0] if len(found) == 1 else tuple(found)


def _fixed_length(values, size, fill, axis):
    axis = 0 if axis is None else axis
    length = values.shape[axis]
    if length >= size:
        return np.take(values, np.arange(size), axis=axis)
    pad_shape = list(values.shape)
    pad_shape[axis] = size - length
    return np.concatenate([values, np.full(pad_shape, fill, values.dtype)], axis=axis)


def nonzero(x):
    """A tuple of int32 index arrays, one per axis, of the non-zero entries."""
    return tuple(i.astype(np.int32) for i in np.nonzero(_concrete(tensor_operand(x),
                                                                  "nonzero")))


def unravel_index(indices, shape):
    """Flat `indices` as a tuple of coordinate arrays into an array of `shape`."""
    values = _concrete(tensor_operand(indices), "unravel_index")
    return tuple(i.astype(values.dtype) for i in np.unravel_index(values, tuple(shape)))


def select(condlist, choicelist, default=0):
    """Per entry, the value from the first `choicelist` tensor whose condition holds,
    else `default`; differentiable in the choices."""
    if len(condlist) != len(choicelist):
        raise ValueError("select needs as many conditions as choices. Received: "
                         f"len(condlist)={len(condlist)}, len(choicelist)={len(choicelist)}")
    if not condlist:
        raise ValueError("select needs at least one condition. Received: condlist=[]")
    out = default
    for condition, choice in zip(reversed(condlist), reversed(choicelist)):
        out = where(condition, choice, out)
    return out
