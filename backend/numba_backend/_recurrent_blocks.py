"""What the compiled recurrent ops share: batch blocks, their inputs, large products in parts.

The rows of a batch are independent through a recurrent layer, so a compiled
op cuts the batch into blocks of `BLOCK` columns of its feature-major
`(features, batch)` step arrays and lets each thread run *all* time steps of
its blocks: no synchronisation per step, and no Python at all inside the
loop. Each step's recurrent product is a single-threaded OpenBLAS `sgemm` on
the block (`_cblas`), the gate arithmetic one fused pass over it.

The block width and the number of parts of the large products depend only on
the shapes, never on the thread count, and each output element is computed
by exactly one call: results are the same on any number of threads.
"""

import numpy as np

from . import _cblas
from ._cblas import NO_TRANS, ROW_MAJOR, TRANS, sgemm
from ._jit import inline, jit, prange

# Columns per batch block: a multiple of the 16 float32 lanes of AVX-512,
# and small enough that a batch of 64 keeps two cores busy.
BLOCK = 32

# Row parts of the gradient products after the time loop (any thread count).
PARTS = 4

_FLOAT = 4   # bytes per float32


def covered(x, recurrent_kernel, arrays, activations_covered):
    """Whether a compiled recurrent op takes these inputs, else the numpy kernel runs.

    It needs numpy's OpenBLAS `sgemm` (`_cblas.AVAILABLE`), activations it
    compiles (`activations_covered`), float32 `arrays` (None for an absent
    one), and `x` `(B, T, D)` and the state without an empty dimension.
    """
    return (_cblas.AVAILABLE and activations_covered
            and all(np.asarray(a).dtype == np.float32 for a in arrays if a is not None)
            and min(x.shape) > 0 and recurrent_kernel.shape[0] > 0)


def columns(a, batch, transpose=False):
    """A per-column factor array as C-contiguous float32 `(rows, B)`, or `(0, B)` for None.

    `transpose` for `(B, H)` recurrent-dropout factors; else `(T, 1, B)` step masks.
    """
    if a is None:
        return np.empty((0, batch), np.float32)
    a = np.asarray(a, np.float32)
    return np.ascontiguousarray(a.T if transpose else a[:, 0, :])


@inline
def blocks(batch):
    """The number of `BLOCK`-column blocks covering `batch` columns."""
    return -(-batch // BLOCK)


@inline
def groups(batch, threads):
    """`(blocks, groups)`: the batch's blocks, and how many threads share them in groups.

    An op whose thread runs each step for all blocks of its group before the
    next step reads whole rows of its step arrays when there are fewer
    threads than blocks; a thread that ran all steps of one block, then of
    the next, read 32 of every 64 or 128 columns (the compiled GRU took up to
    1.2x the time at batch 128 on one thread). Group `g` holds the blocks
    `[g * blocks // groups, (g + 1) * blocks // groups)`. Each block's
    computation is the same in any group, so the grouping, which follows the
    thread count, never changes a result.
    """
    count = blocks(batch)
    return count, max(1, min(count, threads))


@jit(parallel=True)
def product_in_parts(trans_a, a, lda, trans_b, b, ldb, c, m, n, k):
    """`c (m, n) = op(a) @ op(b)` as `PARTS` sgemm calls on row ranges of `c`, in parallel.

    `a` and `b` are the arrays whose first elements start the operands, with
    leading dimensions `lda`, `ldb`; `op` transposes where `trans_*` is True.
    `c` is C-contiguous `(m, n)`.
    """
    size = -(-m // PARTS)
    for part in prange(PARTS):
        start = part * size
        rows = min(size, m - start)
        if rows <= 0:
            continue
        # rows [start, start + rows) of op(a) begin at row `start` of a, or column `start` of a^T
        a_offset = start if trans_a else start * lda
        sgemm(ROW_MAJOR, TRANS if trans_a else NO_TRANS, TRANS if trans_b else NO_TRANS,
              rows, n, k, 1.0, a.ctypes.data + a_offset * _FLOAT, lda,
              b.ctypes.data, ldb, 0.0, c.ctypes.data + start * n * _FLOAT, n)
