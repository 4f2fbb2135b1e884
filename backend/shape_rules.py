"""Shape/dtype rules shared by many ops (elementwise, reductions, ...).

A rule receives input specs (`SymbolicTensor`s, or Python scalars, which are
"weak" in type promotion) plus the op's attributes, and returns output
`SymbolicTensor`s. Unknown dimensions are `None` and propagate.
"""

import numpy as np

from .tensor import SymbolicTensor


def shape_of(x):
    """The shape of a spec; `()` for a Python scalar."""
    return getattr(x, "shape", ())


def dtype_of(x):
    """The dtype of a spec, or the Python scalar itself (for weak promotion)."""
    return getattr(x, "dtype", x)


def broadcast_shapes(*shapes):
    """numpy broadcasting over shapes that may contain `None`."""
    ndim = max((len(s) for s in shapes), default=0)
    result = []
    for axis in range(-ndim, 0):
        dims = [s[axis] for s in shapes if len(s) >= -axis]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ValueError(
                f"Shapes cannot be broadcast together. Received: shapes={list(shapes)}"
            )
        if known:
            result.append(known.pop())
        elif any(d is None for d in dims):
            result.append(None)
        else:
            result.append(1)
    return tuple(result)


def result_dtype(*specs):
    """numpy's promotion of the inputs' dtypes (Python scalars stay weak)."""
    return np.result_type(*[dtype_of(s) for s in specs])


def elementwise(*specs, **_):
    """Broadcast shape, promoted dtype."""
    return SymbolicTensor(broadcast_shapes(*map(shape_of, specs)), result_dtype(*specs))


def elementwise_float(*specs, **_):
    """Broadcast shape; integer inputs give the default float (like `np.exp`)."""
    dtype = result_dtype(*specs)
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.dtype("float64") if dtype.itemsize >= 4 else np.dtype("float32")
    return SymbolicTensor(broadcast_shapes(*map(shape_of, specs)), dtype)


def comparison(*specs, **_):
    """Broadcast shape, bool dtype."""
    return SymbolicTensor(broadcast_shapes(*map(shape_of, specs)), "bool")


def same(x, *_, **__):
    """The first input's shape and dtype."""
    return SymbolicTensor(shape_of(x), dtype_of(x))


def normalize_axes(axis, ndim):
    """`axis` (None, int or sequence, negatives allowed) as a sorted tuple."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"Axis {a} is out of bounds for a tensor of rank {ndim}. Received: axis={axis}"
            )
        out.append(a % ndim)
    return tuple(sorted(set(out)))


def reduction(x, axis=None, keepdims=False, **_):
    """Shape after reducing `axis`; dtype unchanged."""
    shape = shape_of(x)
    axes = normalize_axes(axis, len(shape))
    if keepdims:
        out = tuple(1 if i in axes else d for i, d in enumerate(shape))
    else:
        out = tuple(d for i, d in enumerate(shape) if i not in axes)
    return SymbolicTensor(out, dtype_of(x))
