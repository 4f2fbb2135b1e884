"""numba, configured once: kernel cache, thread count, and the fallback to numpy.

Importing this module imports numba, so only the numba backend imports it.

* **Cache.** Kernels are compiled with `cache=True` into the user's cache
  directory (`$XDG_CACHE_HOME/hikeras/numba`, `~/.cache/hikeras/numba`, or
  `%LOCALAPPDATA%\\hikeras\\numba`) unless `NUMBA_CACHE_DIR` is already set.
  numba writes each cache file under a unique temporary name and renames it
  into place, so processes that start together (MPI ranks) may compile and
  store the same kernel at once: the last rename wins with a complete file.
* **Threads.** `prange` loops run on `batch_threads.num_threads()` threads,
  the one thread setting of hikeras. When the user has not chosen a count
  (`set_num_threads`, `HIKERAS_NUM_THREADS`), they run on one thread while
  the machine is busy (1-minute load average at least the number of cores
  plus a half), read at most once a second: measured on a shared 2-core
  machine at a load of 5.7, max pooling forward took 2 ms on one thread and
  11-17 ms on two, whose threads wait for each other at every loop's end.
  Every compiled kernel gives the same result on any number of threads, so
  this changes speed only.
* **No spinning.** numba's default OpenMP threading layer leaves its threads
  spinning after every parallel loop, which takes the cores from the BLAS
  calls and Python work in between: one-sample inference of the shared CNN
  took 10 ms instead of 0.8 ms under numpy. `GOMP_SPINCOUNT=0` (set here
  unless the user set it) makes idle threads sleep at once; that call then
  takes 0.64 ms.
* **Fallback.** `with_fallback` runs a compiled kernel and, when numba cannot
  compile it for the arguments' types, logs that once at debug level and
  runs the numpy kernel instead, then and for every later call with the
  same argument types.
"""

import logging
import os
import sys
import threading
import time


def _cache_directory():
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~")
    else:
        root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "hikeras", "numba")


os.environ.setdefault("NUMBA_CACHE_DIR", _cache_directory())
os.environ.setdefault("GOMP_SPINCOUNT", "0")   # read when numba first loads libgomp

import numba
from numba.core.errors import NumbaError

# numba reads the variable when first imported; if something imported it before
# hikeras did, its configuration takes the directory here.
numba.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

from ..numpy_backend import batch_threads

logger = logging.getLogger("hikeras.backend.numba")

_CORES = os.cpu_count() or 1
_threads = {"count": 1, "chosen": False, "version": 0}
_checked = threading.local()   # numba's thread count is per calling thread


def _on_setting(count):
    _threads["count"] = max(1, min(int(count), numba.config.NUMBA_NUM_THREADS))
    _threads["chosen"] = batch_threads.thread_count_chosen()
    _threads["version"] += 1


def _busy():
    try:
        return os.getloadavg()[0] >= _CORES + 0.5
    except (AttributeError, OSError):   # no load average on this platform
        return False


def _apply_thread_policy():
    """Sets numba's thread count for this call (see the module docstring)."""
    now = time.monotonic()
    if (getattr(_checked, "version", -1) == _threads["version"]
            and now - _checked.time < 1.0):
        return
    _checked.version, _checked.time = _threads["version"], now
    count = _threads["count"]
    if not _threads["chosen"] and _busy():
        count = 1
    numba.set_num_threads(count)


batch_threads.on_thread_count_change(_on_setting)


def jit(parallel=False, fastmath=False):
    """Decorator compiling a kernel lazily (at first call), cached on disk, without the GIL.

    `fastmath` is numba's: `{"contract"}` lets LLVM fuse multiply-adds, which
    loops calling `_vector_math.exp32`/`exp64` want (faster and more exact).
    """
    return numba.njit(cache=True, nogil=True, parallel=parallel, fastmath=fastmath,
                      error_model="numpy")


def inline(fn):
    """Compiles a small function that compiled kernels call (LLVM inlines it there)."""
    return numba.njit(cache=True, nogil=True, error_model="numpy")(fn)


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
            _apply_thread_policy()
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
