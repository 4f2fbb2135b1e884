"""Reusable scratch buffers for the convolution and pooling kernels.

The im2col matrices and the other temporaries of a convolution are large and
are needed again at the same shapes every training step. Allocating them
afresh costs page faults on every step (numpy hands big arrays straight to the
OS), so the kernels borrow them from this pool instead.

A pooled buffer is free when nothing but the pool refers to it: every view
of a numpy array keeps its base alive, so `sys.getrefcount` tells whether a
buffer (or a view of it) is still held by a kernel, a recorded node or a
user. A buffer is therefore never handed out twice at once, whatever keeps
its data around.
"""

import math
import sys
import threading

import numpy as np

# Buffers smaller than this come from malloc's free lists quickly anyway.
_MIN_POOLED_BYTES = 1 << 20
_MAX_PER_SHAPE = 2
_MAX_POOLED_BYTES = 1 << 30

_lock = threading.Lock()
_pool = {}  # (shape, dtype) -> [array, ...]
_pooled_bytes = 0

# References to a free buffer while `_is_free` looks at it: the pool's list,
# the loop variable and `getrefcount`'s own argument.
_FREE_REFCOUNT = 3


def workspace(shape, dtype):
    """An uninitialised array of `shape` and `dtype` that nothing else is using."""
    global _pooled_bytes
    shape = tuple(int(d) for d in shape)
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes < _MIN_POOLED_BYTES:
        return np.empty(shape, dtype)
    key = (shape, dtype)
    with _lock:
        buffers = _pool.setdefault(key, [])
        for buf in buffers:
            if sys.getrefcount(buf) == _FREE_REFCOUNT:
                return buf
        buf = np.empty(shape, dtype)
        if len(buffers) < _MAX_PER_SHAPE and _pooled_bytes + nbytes <= _MAX_POOLED_BYTES:
            buffers.append(buf)
            _pooled_bytes += nbytes
        return buf


def clear_workspaces():
    """Drops every pooled buffer (they are freed once no kernel holds them)."""
    global _pooled_bytes
    with _lock:
        _pool.clear()
        _pooled_bytes = 0
