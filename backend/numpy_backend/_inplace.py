"""Helpers for kernels that reuse their own temporaries as output buffers.

A ufunc applied to a 0-d array returns a numpy scalar rather than an array,
and scalars cannot be written into. Kernels that chain in-place ufuncs on a
temporary they created write `np.exp(z, out=scratch(z))`: in place when `z`
is an array, a fresh scalar otherwise. Inputs are never passed to `scratch`;
kernels must not overwrite arrays they did not allocate (update ops, which
declare the inputs they write into, are the exception).

Update kernels run on every variable at every training step; `reusable_like`
lends them one temporary per thread and dtype that outlives the call, so a
step allocates nothing.
"""

import threading

import numpy as np

_reusable = threading.local()


def scratch(a):
    """`a` as an `out=` buffer when it is an ndarray, else `None` (allocate)."""
    return a if isinstance(a, np.ndarray) else None


def reusable_like(array):
    """A temporary shaped and typed like `array`, reused across calls (contents undefined).

    One flat buffer per thread and dtype, grown to the largest array asked
    for, so it holds as much memory as the largest variable an update op has
    touched. It is only valid until the next `reusable_like` in the same
    thread: a kernel takes at most one and never returns it.
    """
    buffers = getattr(_reusable, "buffers", None)
    if buffers is None:
        buffers = _reusable.buffers = {}
    buffer = buffers.get(array.dtype)
    if buffer is None or buffer.size < array.size:
        buffer = buffers[array.dtype] = np.empty(array.size, dtype=array.dtype)
    return buffer[:array.size].reshape(array.shape)


def as_float(x):
    """`x` as a float array (unchanged if it already is one).

    Integer and bool inputs become float64 when 32 bits or wider, else
    float32, matching `shape_rules.elementwise_float`, so that kernels can
    then compute in place.
    """
    x = np.asarray(x)
    if np.issubdtype(x.dtype, np.inexact):
        return x
    return x.astype(np.float64 if x.dtype.itemsize >= 4 else np.float32)
