"""Reusable scratch buffers for the convolution kernels.

The im2col matrices and the other temporaries of a convolution are large and
are needed again at the same shapes every training step. Allocating them
afresh costs page faults on every step (numpy hands big arrays straight to
the OS), so a kernel borrows them for the length of one call instead:

    with Workspace() as scratch:
        cols = scratch((rows, width), np.float32)
        ...                       # cols never leaves the call

and they return to a small pool when the `with` block ends. Only a kernel's
own temporaries come from here, never an array it returns.
"""

import threading

import numpy as np

from .batch_threads import num_threads

# Smaller buffers come quickly from malloc's free lists anyway.
_MIN_POOLED_BYTES = 1 << 20
# Every thread of a batch-parallel kernel borrows its own buffers, so the pool
# keeps one buffer of a shape per thread (and at least two).
_MIN_PER_SHAPE = 2
_MAX_POOLED_BYTES = 1 << 30

_lock = threading.Lock()
_free = {}  # (shape, dtype) -> [array, ...] not lent to any call
_pooled_bytes = 0


class Workspace:
    """Scratch buffers lent to one kernel call; a context manager.

    Calling it returns an uninitialised array of the given shape and dtype
    that no other call holds; leaving the `with` block gives every buffer
    it lent back to the pool (within the pool's size limits).
    """

    def __init__(self):
        self._lent = []

    def __enter__(self):
        return self

    def __call__(self, shape, dtype):
        global _pooled_bytes
        shape = tuple(int(d) for d in shape)
        dtype = np.dtype(dtype)
        with _lock:
            buffers = _free.get((shape, dtype))
            buf = buffers.pop() if buffers else None
            if buf is not None:
                _pooled_bytes -= buf.nbytes
        if buf is None:
            buf = np.empty(shape, dtype)
        self._lent.append(buf)
        return buf

    def __exit__(self, *exc_info):
        global _pooled_bytes
        per_shape = max(_MIN_PER_SHAPE, num_threads())
        with _lock:
            for buf in self._lent:
                if buf.nbytes < _MIN_POOLED_BYTES:
                    continue
                buffers = _free.setdefault((buf.shape, buf.dtype), [])
                if len(buffers) < per_shape and _pooled_bytes + buf.nbytes <= \
                        _MAX_POOLED_BYTES:
                    buffers.append(buf)
                    _pooled_bytes += buf.nbytes
        self._lent.clear()
        return False


def clear_workspaces():
    """Drops every pooled buffer that no call is using."""
    global _pooled_bytes
    with _lock:
        _free.clear()
        _pooled_bytes = 0
