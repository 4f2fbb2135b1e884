"""Shared pieces of the row-wise compiled kernels (losses, normalisation, activations).

* `row_sum(x)`: the sum of a 1-D float array, compiled with reassociation
  allowed so that LLVM vectorises it (numba's loops otherwise add one
  element after another: 20x slower). The order of the additions is fixed
  by the compiled code, so the result is the same run to run and on any
  number of threads (one row is always summed by one thread).
* `row_dot(x, y)`: `sum(x * y)` likewise.
* `row_max(x)`: the maximum, in 16 lanes that LLVM vectorises for long
  rows. A NaN may or may not be ignored (callers whose row holds a NaN get
  NaN through their sums anyway; numpy's kernels give NaN there too).
* `exp_shifted(x, out)`: the exponentials of a softmax row, shifted by its
  maximum as numpy's kernels shift them.
* `as_rows(x)`: `x` as a C-contiguous 2-D float32/float64 array
  `(-1, x.shape[-1])` (a view when it can be), or None for anything the
  compiled kernels do not take.
* `compiled(fn)`: `fn` compiled twice, serial and with `prange` threads,
  and `pick(kernels, size)` which of them to run: below `PARALLEL_FROM`
  elements, waking the threads costs more than they save.
"""

import numpy as np

from ._jit import jit, numba
from ._vector_math import exp

PARALLEL_FROM = 1 << 16


@numba.njit(cache=True, nogil=True, fastmath={"reassoc"}, error_model="numpy")
def row_sum(x):
    total = x.dtype.type(0)
    for j in range(x.shape[0]):
        total += x[j]
    return total


@numba.njit(cache=True, nogil=True, fastmath={"reassoc", "contract"}, error_model="numpy")
def row_dot(x, y):
    total = x.dtype.type(0)
    for j in range(x.shape[0]):
        total += x[j] * y[j]
    return total


_LANES = 16


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _serial_max(x, start, stop, peak):
    for j in range(start, stop):
        v = x[j]
        peak = v if v > peak else peak  # noqa: FURB136  (NaN: see the module docstring)
    return peak


# "no NaN" lets LLVM vectorise the lane-wise maxima; a NaN in the row then
# gives some element or NaN, and the callers' sums turn the row to NaN anyway.
@numba.njit(cache=True, nogil=True, fastmath={"nnan", "nsz"}, error_model="numpy")
def row_max(x):
    n = x.shape[0]
    if n < 4 * _LANES:
        return _serial_max(x, 1, n, x[0])
    lanes = x[:_LANES].copy()
    full = n - n % _LANES
    for j in range(_LANES, full, _LANES):
        for k in range(_LANES):
            lanes[k] = np.maximum(lanes[k], x[j + k])
    return _serial_max(x, full, n, _serial_max(lanes, 1, _LANES, lanes[0]))


@numba.njit(inline="always", cache=True, nogil=True, error_model="numpy")
def exp_shifted(x, out):
    """`out = exp(x - peak)`, returning the peak: the row's maximum, or 0 if that is not finite.

    (numpy's kernels shift by 0 when the maximum is infinite, so that a row
    of -inf gives NaN and one holding +inf gives NaN, not an error.) Callers
    compile with `fastmath={"contract"}`, as `_vector_math.exp` wants.
    """
    peak = row_max(x)
    if not np.isfinite(peak):
        peak = x.dtype.type(0)
    for j in range(x.shape[0]):
        out[j] = exp(x[j] - peak)
    return peak


def as_rows(x):
    if (not isinstance(x, np.ndarray) or x.dtype not in (np.float32, np.float64)
            or x.ndim == 0 or x.shape[-1] == 0):
        return None
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1])


def compiled(fn, fastmath=False):
    return jit(fastmath=fastmath)(fn), jit(parallel=True, fastmath=fastmath)(fn)


def pick(kernels, size):
    return kernels[1] if size >= PARALLEL_FROM else kernels[0]
