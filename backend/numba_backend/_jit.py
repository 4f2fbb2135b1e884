"""numba, configured once: kernel cache, thread count, and the fallback to numpy.

Importing this module imports numba, so only the numba backend imports it.

* **Cache.** Kernels are compiled with `cache=True` into the user's cache
  directory (`$XDG_CACHE_HOME/hikeras/numba`, `~/.cache/hikeras/numba`, or
  `%LOCALAPPDATA%\\hikeras\\numba`) unless `NUMBA_CACHE_DIR` is already set.
  numba writes each cache file under a unique temporary name and renames it
  into place, so processes that start together (MPI ranks) may compile and
  store the same kernel at once: the last rename wins with a complete file.
* **Threads.** `prange` loops run on `batch_threads.num_threads()` threads,
  the one thread setting of hikeras, updated whenever it changes.
* **Fallback.** `with_fallback` runs a compiled kernel and, when numba cannot
  compile it for the arguments' types, logs that once at debug level and
  runs the numpy kernel instead, then and for every later call with the
  same argument types.
"""

import logging
import os
import sys


def _cache_directory():
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~")
    else:
        root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "hikeras", "numba")


os.environ.setdefault("NUMBA_CACHE_DIR", _cache_directory())

import numba
from numba.core.errors import NumbaError

from ..numpy_backend.batch_threads import on_thread_count_change

logger = logging.getLogger("hikeras.backend.numba")


def _set_threads(count):
    numba.set_num_threads(max(1, min(int(count), numba.config.NUMBA_NUM_THREADS)))


on_thread_count_change(_set_threads)


def jit(parallel=False):
    """Decorator compiling a kernel lazily (at first call), cached on disk, without the GIL."""
    return numba.njit(cache=True, nogil=True, parallel=parallel, error_model="numpy")


prange = numba.prange

_failed = set()   # (op name, argument types) that numba could not compile


def _signature(args):
    return tuple(f"{a.dtype}[{a.ndim}]" if hasattr(a, "dtype") and hasattr(a, "ndim")
                 else type(a).__name__ for a in args)


def with_fallback(name, compiled, fallback):
    """`compiled(*args, **attrs)`, or `fallback(...)` once numba has failed for these types.

    `compiled` is the Python wrapper that prepares arguments and calls jitted
    kernels; it may itself return `NotImplemented` for inputs it does not
    cover (a dtype, a layout), which also sends the call to `fallback`
    (without a log: that is a choice, not a failure).
    """

    def kernel(*args, **attrs):
        if not _failed or (name, _signature(args)) not in _failed:
            try:
                result = compiled(*args, **attrs)
            except NumbaError as error:
                signature = _signature(args)
                _failed.add((name, signature))
                logger.debug("numba could not compile '%s' for %s; using the numpy kernel "
                             "from now on: %s", name, signature, error)
            else:
                if result is not NotImplemented:
                    return result
        return fallback(*args, **attrs)

    kernel.__name__ = getattr(compiled, "__name__", name)
    kernel.__doc__ = compiled.__doc__
    return kernel
