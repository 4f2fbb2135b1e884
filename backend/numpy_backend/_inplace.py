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

