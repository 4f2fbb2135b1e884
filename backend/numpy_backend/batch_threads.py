"""Batch-parallel kernels: the chunks of a batch loop run on all cores.

numpy runs an elementwise pass (a gather, a mask, a scatter) on one core, and
in a convolution's training step such passes take about as long as the GEMMs.
Kernels that already walk the batch in chunks (`conv_gemm`, `pooling`) hand
the chunks to `run_chunks`, which runs them on the calling thread and on
helper threads at once: numpy releases the GIL inside copies, ufuncs and BLAS
calls, so every pass of a chunk, not only its products, runs in parallel.
BLAS is held to one thread meanwhile (`blas_threads`), so the parallelism is
the batch's alone.

The threads pull chunks from a shared queue until none is left, so a thread
slowed down by another process on its core simply takes fewer chunks, and the
only point where the threads wait for each other is the end of the kernel.
OpenBLAS's own threads synchronise many times inside every product, and on a
busy 2-core machine those waits were seen to make products several times
slower than on one thread; chunks have no such cliff.

The number of threads is the one thread setting of hikeras: `set_num_threads(n)`
(`hikeras.config.set_num_threads`), else `HIKERAS_NUM_THREADS` when set (1 turns this off;
the variable also sets numpy's BLAS to that many threads when hikeras is imported),
else the number of threads numpy's BLAS is set to use (`OPENBLAS_NUM_THREADS`,
threadpoolctl, or `MPIStrategy`'s share of the cores per rank all set it):
the kernels trade BLAS's parallelism for their own at the same thread count.
When that cannot be read, it is the number of cores this process may run on.
Chunks never depend on it, and results are combined in chunk order, so the
numbers a kernel computes do not depend on how many threads computed them.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .blas_threads import blas_thread_count, set_blas_thread_count, single_threaded_blas

_chosen = None   # set_num_threads's count; None: the environment or BLAS decides
_listeners = []
_pool = None
_pool_key = None
_batch_kernels_seen = False


def batch_kernels_seen():
    """Whether this process has used a batch-parallel kernel.

    Set by running one on several threads, or by building a model that has
    one (`declares_batch_kernel` on the op's shape rule), so that a model's
    products run the same way from its first step on, in a fresh process as
    in one resumed from a checkpoint. Sticky on purpose: a decision that
    depended on timing would make the numbers of a seeded run depend on the
    machine's load, since single- and multi-threaded BLAS round differently.
    """
    return _batch_kernels_seen


def declares_batch_kernel(shape_rule):
    """Wraps the shape rule of a batch-parallel op so that tracing it counts as use."""

    def rule(*args, **kwargs):
        global _batch_kernels_seen
        _batch_kernels_seen = True
        return shape_rule(*args, **kwargs)

    return rule


def set_num_threads(n):
    """Makes hikeras compute with `n` threads: batch chunks, compiled loops and BLAS.

    The one thread setting (`hikeras.config.set_num_threads`): it takes
    precedence over `HIKERAS_NUM_THREADS`, sets numpy's BLAS to `n` threads
    too, and is passed on to every listener (`on_thread_count_change`; the
    numba backend sizes its thread pool with it). `None` returns to the
    default, the environment variable or else BLAS's count.
    """
    global _chosen
    if n is not None and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1):
        raise ValueError("set_num_threads: n must be a positive integer or None. "
                         f"Received: n={n!r}")
    _chosen = None if n is None else int(n)
    if _chosen is not None:
        set_blas_thread_count(_chosen)
    for listener in _listeners:
        listener(num_threads())


def thread_count_chosen():
    """Whether the user fixed the count (`set_num_threads` or `HIKERAS_NUM_THREADS`)."""
    return _chosen is not None or bool(os.environ.get("HIKERAS_NUM_THREADS", "").strip())


def on_thread_count_change(listener):
    """Calls `listener(count)` now and after every `set_num_threads`."""
    _listeners.append(listener)
    listener(num_threads())


def num_threads():
    """Threads hikeras computes with: `set_num_threads`, `HIKERAS_NUM_THREADS`, else BLAS's count."""
    if _chosen is not None:
        return _chosen
    setting = os.environ.get("HIKERAS_NUM_THREADS", "").strip()
    if setting:
        try:
            threads = int(setting)
        except ValueError:
            threads = 0
        if threads < 1:
            raise ValueError("HIKERAS_NUM_THREADS must be a positive integer. "
                             f"Received: HIKERAS_NUM_THREADS={setting!r}")
        return threads
    threads = blas_thread_count()
    if threads is not None:
        return max(threads, 1)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _apply_environment():
    """`HIKERAS_NUM_THREADS` sets BLAS's thread count too, once, when hikeras is imported.

    An invalid value is left for `num_threads` to report when a kernel runs.
    """
    setting = os.environ.get("HIKERAS_NUM_THREADS", "").strip()
    if setting.isdigit() and int(setting) >= 1:
        set_blas_thread_count(int(setting))


_apply_environment()


def _helpers(count):
    """A pool of `count` helper threads (a forked child or a new count gets a new pool)."""
    global _pool, _pool_key
    key = (os.getpid(), count)
    if _pool is None or _pool_key != key:
        if _pool is not None and _pool_key[0] == key[0]:
            _pool.shutdown(wait=False)
        _pool = ThreadPoolExecutor(max_workers=count, thread_name_prefix="hikeras-batch")
        _pool_key = key
    return _pool


def batch_step(batch, item_bytes, chunk_bytes, min_chunk_bytes=1 << 20, min_chunks=8):
    """Items per chunk when each of `batch` items needs `item_bytes` of scratch memory.

    A chunk holds at most `chunk_bytes` (so that its passes run in cache);
    the batch is cut into at least `min_chunks` chunks, for the threads to
    share and balance, unless that would make chunks smaller than
    `min_chunk_bytes`, which are not worth handing to another thread.
    """
    item_bytes = max(int(item_bytes), 1)
    most = chunk_bytes // item_bytes
    spread = max(-(-batch // min_chunks), min_chunk_bytes // item_bytes)
    return max(1, min(batch, most, spread))


def run_chunks(task, size, step):
    """`[task(start, stop) for each chunk of range(size)]`, the chunks run in parallel.

    Chunks are `step` long (the last may be shorter) and the results come
    back in chunk order. `task` must only write to memory no other chunk
    writes. An exception in any chunk is raised here once every started
    chunk has finished; the chunks not yet started are skipped.
    """
    bounds = [(start, min(start + step, size)) for start in range(0, size, step)]
    threads = num_threads()
    if min(threads, len(bounds)) <= 1:
        return [task(start, stop) for start, stop in bounds]
    global _batch_kernels_seen
    _batch_kernels_seen = True
    results = [None] * len(bounds)
    queue = iter(range(len(bounds)))
    lock = threading.Lock()
    failed = threading.Event()

    def drain():
        while not failed.is_set():
            with lock:
                index = next(queue, None)
            if index is None:
                return
            try:
                results[index] = task(*bounds[index])
            except BaseException:
                failed.set()
                raise

    with single_threaded_blas():
        pool = _helpers(threads - 1)
        helpers = [pool.submit(drain) for _ in range(min(threads, len(bounds)) - 1)]
        try:
            drain()  # the caller works too, so progress never waits for a free helper
        finally:
            for helper in helpers:
                helper.exception()  # wait, whatever happened here
        for helper in helpers:
            helper.result()  # re-raises a helper's exception
    return results
