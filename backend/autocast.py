"""Autocasting of float variables while a mixed-precision layer computes.

Under `AutocastScope("float16")` every op that receives a float `Variable`
whose `autocast` flag is set reads it through a `cast` op, so a layer with
float32 weights computes in float16 and the tape carries the gradient back
through the cast to the float32 variable (Keras's `AutocastScope`). Ops that
write into their inputs (optimizer updates) never see a cast copy.

`AutocastScope(None)` switches autocasting off inside an enclosing scope (a
layer that keeps float32 computations, such as `LayerNormalization`).

bfloat16 comes from `ml-dtypes`, whose arithmetic runs element by element and
often answers in float32. Once bfloat16 is in use (`dtypes.bfloat16_dtype`),
`dispatch` runs an op with bfloat16 inputs on their float32 values (BLAS for
products) and rounds its float32 outputs to bfloat16: each op rounds once, as
on hardware that computes bfloat16 with float32 accumulation.
"""

import threading

import numpy as np

_local = threading.local()
# How many scopes are open in any thread: `dispatch.apply` looks no further while 0,
# so code that never uses mixed precision pays one global read per op.
_open_scopes = [0]
_bfloat16 = []  # numpy's bfloat16 dtype, once `dtypes.bfloat16_dtype` has imported it


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


def use_bfloat16(dtype):
    """Records numpy's bfloat16 dtype: from now on `dispatch` widens it (see above)."""
    if not _bfloat16:
        _bfloat16.append(dtype)


def bfloat16_in_use():
    return bool(_bfloat16)


def widen_bfloat16(values):
    """`values` with bfloat16 arrays as float32."""
    return [v.astype(np.float32) if getattr(v, "dtype", None) == _bfloat16[0] else v
            for v in values]


def round_to_bfloat16(out, residual):
    """A kernel's result with its float32 arrays rounded to bfloat16 (not its residual)."""
    def narrow(x):
        if isinstance(x, np.ndarray) and x.dtype == np.float32:
            return x.astype(_bfloat16[0])
        return x

    if residual:
        result, kept = out
        return (narrow_all(result, narrow), kept)
    return narrow_all(out, narrow)


def narrow_all(out, narrow):
    return tuple(narrow(o) for o in out) if isinstance(out, tuple) else narrow(out)
