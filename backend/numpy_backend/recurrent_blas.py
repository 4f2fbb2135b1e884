"""Single-threaded BLAS for the recurrent sequence ops.

A recurrent step multiplies a small state by the recurrent kernel (e.g. 64 x 64
by 64 x 256): tens of microseconds on one core. Splitting such products across
OpenBLAS threads gains nothing, and every product is a synchronisation point:
when another process holds a core, the threads wait for each other and one
step can take milliseconds instead of microseconds. The larger products of
these ops (the input projection, the weight gradients, about 100 M
multiply-adds each at batch 64) showed the same collapse on a busy 2-core
machine, so the recurrent ops run with one BLAS thread throughout and restore
the library's setting afterwards.

The thread count is changed through the BLAS library that numpy loaded
(OpenBLAS exports `openblas_set_num_threads` under a few names). When no such
library is found, `single_threaded_blas()` does nothing. The setting is
process-wide: other threads calling BLAS meanwhile also run single-threaded.
"""

import contextlib
import ctypes
import glob
import os

import numpy as np

_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads_64_",
            "openblas_set_num_threads64_", "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads_64_",
            "openblas_get_num_threads64_", "openblas_get_num_threads")


def _find_thread_controls():
    """`(get, set)` ctypes functions of numpy's OpenBLAS, or `None`."""
    root = os.path.dirname(np.__file__)
    candidates = (glob.glob(os.path.join(root, "..", "numpy.libs", "*openblas*"))
                  + glob.glob(os.path.join(root, ".libs", "*openblas*")))
    for path in candidates:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for get_name, set_name in zip(_GETTERS, _SETTERS):
            get, put = getattr(lib, get_name, None), getattr(lib, set_name, None)
            if get is not None and put is not None:
                get.restype = ctypes.c_int
                put.argtypes = [ctypes.c_int]
                return get, put
    return None


_CONTROLS = _find_thread_controls()


@contextlib.contextmanager
def single_threaded_blas():
    """Runs the enclosed code with one BLAS thread, then restores the count."""
    if _CONTROLS is None:
        yield
        return
    get, put = _CONTROLS
    threads = get()
    if threads <= 1:
        yield
        return
    put(1)
    try:
        yield
    finally:
        put(threads)
