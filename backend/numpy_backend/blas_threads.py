"""Single-threaded BLAS for kernels that bring their own parallelism or need none.

OpenBLAS splits every product across its threads and synchronises them many
times per call. When another process holds a core, the threads wait for each
other and a product can take several times longer than on one thread: on the
project's shared 2-core machines this was seen for the recurrent ops' small
per-step products (64 x 64 by 64 x 256, tens of microseconds on one core,
milliseconds when stalled) and their larger gradient products alike, and for
the convolutions' GEMMs. So the recurrent ops run with one BLAS thread
throughout, and `batch_threads` runs its chunks with one BLAS thread each;
both restore the library's setting afterwards.

The thread count is changed through the BLAS library that numpy loaded
(OpenBLAS exports `openblas_set_num_threads` under a few names). When no such
library is found, `single_threaded_blas()` does nothing and
`blas_thread_count()` returns `None`. The setting is process-wide: other
threads calling BLAS meanwhile also run single-threaded.
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


def openblas_candidates():
    """Paths of the OpenBLAS libraries bundled with numpy's wheel (may be empty)."""
    root = os.path.dirname(np.__file__)
    return (glob.glob(os.path.join(root, "..", "numpy.libs", "*openblas*"))
            + glob.glob(os.path.join(root, ".libs", "*openblas*")))


def _find_thread_controls():
    """`(get, set)` ctypes functions of numpy's OpenBLAS, or `None`."""
    for path in openblas_candidates():
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


def blas_thread_count():
    """The number of threads numpy's BLAS uses now, or `None` when it cannot be read."""
    return None if _CONTROLS is None else _CONTROLS[0]()


def set_blas_thread_count(count):
    """Sets the number of threads numpy's BLAS uses (nothing happens when it cannot be set)."""
    if _CONTROLS is not None:
        _CONTROLS[1](int(count))


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
