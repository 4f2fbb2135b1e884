"""Helpers for kernels that reuse their own temporaries as output buffers.

A ufunc applied to a 0-d array returns a numpy scalar rather than an array,
and scalars cannot be written into. Kernels that chain in-place ufuncs on a
temporary they created write `np.exp(z, out=scratch(z))`: in place when `z`
is an array, a fresh scalar otherwise. Inputs are never passed to `scratch`;
kernels must not overwrite arrays they did not allocate.
"""

import numpy as np


def scratch(a):
    """`a` as an `out=` buffer when it is an ndarray, else `None` (allocate)."""
    return a if isinstance(a, np.ndarray) else None



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
