"""Core ops that read or write parts of tensors: `slice`, `slice_update`, `scatter`,
`scatter_update`, `unstack`.

`slice` and `slice_update` are compositions of `getitem`, `pad` and `where`,
so they have gradients and run symbolically; `scatter` and `scatter_update`
are kernels (see `backend/numpy_backend/scatter.py`).

>>> import numpy as np
>>> scatter(np.array([[0], [2], [0]]), np.array([1.0, 2.0, 3.0]), (4,)).tolist()
[4.0, 0.0, 2.0, 0.0]
"""

import builtins

import numpy as np

from .. import backend
from .core import tensor_operand
from .numpy import get_item, pad, reshape, where

_apply = backend.apply


def _ints(values, name, op):
    values = values.value if isinstance(values, backend.Tensor) else values
    if isinstance(values, backend.SymbolicTensor):
        raise TypeError(f"{op} needs concrete {name}. Received: {name}={values!r}")
    return [int(v) for v in np.asarray(values).reshape(-1)]


def _indices(indices, op):
    indices = tensor_operand(indices)
    if not np.issubdtype(np.dtype(indices.dtype), np.integer):
        raise TypeError(f"{op} needs integer indices. Received: indices.dtype={indices.dtype}")
    if len(_shape(indices)) < 1:
        raise ValueError(f"{op} needs indices of rank >= 1. Received: "
                         f"indices.shape={_shape(indices)}")
    return indices


def slice(inputs, start_indices, shape):
    """The block of `inputs` of size `shape` starting at `start_indices`."""
    x = tensor_operand(inputs)
    starts = _ints(start_indices, "start_indices", "slice")
    sizes = [int(s) for s in shape]
    dims = _shape(x)
    if not len(starts) == len(sizes) == len(dims):
        raise ValueError("slice needs one start and one size per axis. Received: "
                         f"inputs.shape={dims}, start_indices={starts}, shape={sizes}")
    key = tuple(builtins.slice(s, None if n == -1 else s + n) for s, n in zip(starts, sizes))
    out = get_item(x, key)
    if isinstance(x, backend.SymbolicTensor) and -1 not in sizes:
        out = reshape(out, sizes)  # the block's size is known even where x's is not
    return out


def _shape(x):
    return tuple(x.shape)


def slice_update(inputs, start_indices, updates):
    """`inputs` with the block starting at `start_indices` replaced by `updates`."""
    x, updates = tensor_operand(inputs), tensor_operand(updates)
    starts = _ints(start_indices, "start_indices", "slice_update")
    dims, sizes = _shape(x), _shape(updates)
    if not len(starts) == len(sizes) == len(dims):
        raise ValueError("slice_update needs one start per axis and updates of the same "
                         f"rank. Received: inputs.shape={dims}, start_indices={starts}, "
                         f"updates.shape={sizes}")
    for d, s, n in zip(dims, starts, sizes):
        if d is not None and (s < 0 or s + n > d):
            raise ValueError("slice_update: the updates do not fit. Received: "
                             f"inputs.shape={dims}, start_indices={starts}, "
                             f"updates.shape={sizes}")
    widths = [[s, d - s - n] for d, s, n in zip(dims, starts, sizes)]
    placed = pad(updates, widths)
    mask = pad(np.ones(sizes, bool), widths)
    return where(mask, placed, x)


def scatter(indices, values, shape):
    """Zeros of `shape` with `values` added at `indices` (duplicates sum)."""
    return _apply("scatter", _indices(indices, "scatter"), tensor_operand(values),
                  shape=tuple(int(d) for d in shape))


def scatter_update(inputs, indices, updates, reduction=None):
    """`inputs` with `updates` written at `indices` (`reduction="add"` adds instead)."""
    return _apply("scatter_update", tensor_operand(inputs),
                  _indices(indices, "scatter_update"), tensor_operand(updates),
                  reduction=reduction)


def unstack(x, num=None, axis=0):
    """The slices of `x` along `axis`, as a list."""
    x = tensor_operand(x)
    dims = _shape(x)
    rank = len(dims)
    if not -rank <= axis < rank:
        raise ValueError(f"unstack: axis is out of bounds for a tensor of rank {rank}. "
                         f"Received: x.shape={dims}, axis={axis}")
    length = dims[axis]
    if length is None:
        length = num
    if length is None:
        raise ValueError(f"unstack needs `num` when the axis length is unknown. Received: "
                         f"x.shape={dims}, axis={axis}")
    if num is not None and int(num) != length:
        raise ValueError(f"unstack: num does not match the axis length. Received: "
                         f"x.shape={dims}, axis={axis}, num={num}")
    head = (builtins.slice(None),) * (axis % rank)
    return [get_item(x, head + (i,)) for i in range(length)]
