"""Autocasting of float variables while a mixed-precision layer computes.

Under `AutocastScope("float16")` every op that receives a float `Variable`
whose `autocast` flag is set reads it through a `cast` op, so a layer with
float32 weights computes in float16 and the tape carries the gradient back
through the cast to the float32 variable (Keras's `AutocastScope`). Ops that
write into their inputs (optimizer updates) never see a cast copy.

`AutocastScope(None)` switches autocasting off inside an enclosing scope (a
layer that keeps float32 computations, such as `LayerNormalization`).
"""

import threading

import numpy as np

_local = threading.local()
# How many scopes are open in any thread: `dispatch.apply` looks no further while 0,
# so code that never uses mixed precision pays one global read per op.
_open_scopes = [0]


def autocast_dtype():
    """The dtype float variables are read in by ops now, or None."""
    return getattr(_local, "dtype", None)


def any_scope_open():
    """Whether some thread is inside an `AutocastScope` (a cheap first check)."""
    return _open_scopes[0] > 0


class AutocastScope:
    """Within it, ops read autocast float variables in `dtype` (None: as stored).

    Args:
        dtype: a float dtype name such as `"float16"`, or None.
    """

    def __init__(self, dtype):
        if dtype is not None:
            dtype = np.dtype(dtype)
            if not _is_float(dtype):
                raise ValueError("`AutocastScope` can only be used with a floating-point "
                                 f"target dtype, such as 'float16'. Received: dtype={dtype}")
        self.dtype = dtype
        self._outer = None

    def __enter__(self):
        self._outer = autocast_dtype()
        _local.dtype = self.dtype
        _open_scopes[0] += 1
        return self

    def __exit__(self, *exc_info):
        _local.dtype = self._outer
        _open_scopes[0] -= 1


def _is_float(dtype):
    return dtype.kind == "f" or dtype.name == "bfloat16"
