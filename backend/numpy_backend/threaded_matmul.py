"""Matrix products that share the batch threads once those are in use.

OpenBLAS parallelises a product with its own threads, which keep spinning
for about a tenth of a second after each call. In a training step that
alternates products with the batch-parallel convolution and pooling kernels
(`batch_threads`), the spinning thread takes a core from those kernels (a
convolutional model trained 20-30% slower for it), and on a busy machine
OpenBLAS's synchronisation makes products several times slower. So once
those kernels are in use in the process (`batch_kernels_seen`), products
run on single-threaded BLAS: a large one cut into row (or column) blocks
that `run_chunks` computes on the batch threads, each block carrying an
elementwise epilogue (bias, activation) while it is in cache. Before that,
e.g. in a process that trains dense layers only, OpenBLAS's own threads are
used: for products of a layer's size they are faster (a dense network's
training step took 20-70% longer on the batch threads). The switch depends
only on which kernels ran, never on timing, so seeded runs stay
reproducible bit for bit.
Blocks are a fixed partition written to disjoint parts of the output, so
the result does not depend on the number of threads either.
"""

import numpy as np

from .batch_threads import batch_kernels_seen, num_threads, run_chunks
from .blas_threads import single_threaded_blas

# Multiply-adds below which a product runs as one call: handing out blocks
# costs tens of microseconds, a product of this size about a millisecond.
MIN_SHARED_WORK = 1 << 22
# A fixed number of blocks (independent of the thread count, for identical
# results), a few per thread for slack when a thread is slowed down.
BLOCKS = 4


# Sizes below which OpenBLAS computes a product on the calling thread by itself
# (its SMP thresholds with the default GEMM_MULTITHREAD_THRESHOLD of 4): a
# matrix product of fewer multiply-adds, a matrix-vector product (one row or
# column) of a smaller matrix. Holding its threads to one around such a
# product only adds the 3 microseconds of setting the count twice, more than
# the product of a small layer's one-sample call takes.
SERIAL_GEMM_WORK = 65536 * 4
SERIAL_GEMV_SIZE = 2304 * 4


def _blas_runs_serially(m, k, n):
    if min(m, n) == 1:
        return k * max(m, n) < SERIAL_GEMV_SIZE
    return m * k * n < SERIAL_GEMM_WORK


# Multiply-adds from which a product of a one-chunk kernel is shared among threads:
# about 3 ms on one core. Below it, a product takes a millisecond or less, and
# waiting for a second thread costs more whenever another process holds a core.
MIN_SHARED_LATENCY_WORK = 1 << 26


def matmul_shared(a, b, out):
    """`out[...] = a @ b` (2-D) on single-threaded BLAS, in row blocks shared by the
    batch threads when the product is large.

    For a kernel whose batch gives one chunk (a one-sample convolution), so
    that its product runs on this thread. With OpenBLAS's own threads, the
    benchmark CNN's one-sample call took 35 ms instead of 1.5 ms whenever other
    processes held the cores; sharing its 10M multiply-adds among the batch
    threads still took 8 ms; on an idle machine the call takes 0.72 ms this way
    against 0.66 ms with OpenBLAS's threads. So
    only products of `MIN_SHARED_LATENCY_WORK` or more are shared, always cut
    into the same `BLOCKS` row blocks, whatever the thread count, so that the
    result does not depend on it.
    """
    m, k = a.shape
    if m * k * b.shape[1] < MIN_SHARED_LATENCY_WORK or m < BLOCKS:
        with single_threaded_blas():
            np.matmul(a, b, out=out)
        return

    def task(start, stop):
        with single_threaded_blas():
            np.matmul(a[start:stop], b, out=out[start:stop])
    run_chunks(task, m, -(-m // BLOCKS))


def product_2d(a, b, epilogue=None):
    """`epilogue(a @ b)` for 2-D `a` and `b`, shared among threads when large.

    `epilogue(block)` transforms a block of output rows in place; it must be
    elementwise along the columns (a bias, an activation).
    """
    m, k = a.shape
    n = b.shape[1]
    if not batch_kernels_seen():
        out = np.matmul(a, b)
        return out if epilogue is None else epilogue(out)
    threads = num_threads()
    if threads <= 1 or m * k * n < MIN_SHARED_WORK or max(m, n) < BLOCKS:
        if _blas_runs_serially(m, k, n):
            out = np.matmul(a, b)
        else:
            with single_threaded_blas():
                out = np.matmul(a, b)
        return out if epilogue is None else epilogue(out)
    out = np.empty((m, n), np.result_type(a, b))
    if m >= n or epilogue is not None:
        def task(start, stop):
            block = np.matmul(a[start:stop], b, out=out[start:stop])
            if epilogue is not None:
                epilogue(block)
        size = m
    else:
        def task(start, stop):
            np.matmul(a, b[:, start:stop], out=out[:, start:stop])
        size = n
    run_chunks(task, size, -(-size // BLOCKS))
    return out
