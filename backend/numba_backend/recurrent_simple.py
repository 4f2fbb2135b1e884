"""`simple_rnn_sequence` with its whole time loop compiled, forward and backward.

A SimpleRNN step is small: one `(units, batch)` product and one activation.
The numpy kernel (`numpy_backend/recurrent_simple.py`) pays a few numpy calls
for each, on one thread. Here each thread runs all steps of its batch block
(`_recurrent_blocks`) in compiled code: per step one single-threaded `sgemm`
and one fused pass for bias, activation and mask.

The step operands `[h_{s-1}; x_s; 1]` live in one `(H + D + 1, T + 1, B)`
array, `hxt`, and the residual holds its `(T + 1, H + D + 1, B)` transposed
view: the numpy kernel's layout, so numpy's VJP reads this residual too, while
the compiled VJP takes only residuals in this layout (as in `recurrent_lstm`).

The input projection `kernel.T @ x_s` of all steps is one large product
before the time loop, written where each step's state goes; the step then
adds `recurrent_kernel.T @ h_{s-1}` to it (`sgemm` with beta 1). Against the
LSTM's way, one product of the stacked `[recurrent_kernel.T | kernel.T]` by
`[h_{s-1}; x_s]` per step, it took the same CPU time at batch 64 with 64,
128 and 256 units, 0.9x at batch 128 and 1.05-1.1x at batch 32 (one thread,
alternating pairs in one process). After the backward loop, the input and
kernel gradients of all steps are large products too.

Covered: float32 with `tanh` or `relu`, with or without masks and recurrent
dropout, both directions, either output. Other dtypes and activations, and
numpy builds without an OpenBLAS `sgemm` to call, run the numpy kernel.
"""

import numpy as np

from ..numpy_backend import recurrent_common as rc
from ..numpy_backend.blas_threads import single_threaded_blas
from ._cblas import NO_TRANS, ROW_MAJOR, TRANS, sgemm
from ._jit import inline, jit, prange
from ._recurrent_blocks import BLOCK, PARTS, blocks, columns, covered, product_in_parts
from ._registry import override, override_vjp
from ._vector_math import tanh32

_FLOAT = 4
_ZERO, _ONE = np.float32(0.0), np.float32(1.0)

# the activations the compiled kernel covers, by the code its loops branch on
_ACTIVATIONS = {"tanh": 0, "relu": 1}


@jit(parallel=True)
def _gather_inputs(x, go_backwards, hxt):
    """Copies `x` `(B, T, D)` into the input rows of `hxt`, step by step in processing order.

    numpy's transposing copy took 0.5 ms for the benchmark's (64, 100, 64)
    inputs; here each step's `(B, D)` slice, 16 KB there, stays in cache while
    it is written out transposed.
    """
    batch, steps, inputs = x.shape
    units = hxt.shape[0] - inputs - 1
    for s in prange(steps):
        t = np.int64(s)    # prange's index may be unsigned
        if go_backwards:
            t = steps - 1 - t
        for d in range(inputs):
            for j in range(batch):
                hxt[units + d, s, j] = x[j, t, d]


@jit(parallel=True)
def _project(kernel, hxt):
    """Writes `kernel.T @ x_s` into the state rows of step `s + 1`, for all steps.

    One `(H, D) @ (D, T * B)` product over the input rows of `hxt`, in `PARTS`
    column ranges (each a single-threaded `sgemm`) that run in parallel.
    """
    inputs, units = kernel.shape
    steps, batch = hxt.shape[1] - 1, hxt.shape[2]
    columns, ld = steps * batch, (steps + 1) * batch
    size = -(-columns // PARTS)
    for part in prange(PARTS):
        start = part * size
        width = min(size, columns - start)
        if width <= 0:
            continue
        sgemm(ROW_MAJOR, TRANS, NO_TRANS, units, width, inputs, 1.0, kernel.ctypes.data, units,
              hxt.ctypes.data + (units * ld + start) * _FLOAT, ld, 0.0,
              hxt.ctypes.data + (batch + start) * _FLOAT, ld)


@jit(parallel=True)
def _contract_steps(a, lda, b, ldb, columns, out):
    """`out (m, n) = a[:, :columns] @ b[:, :columns]^T`, summed over `PARTS` ranges of columns.

    `a` `(m, *)` and `b` `(n, *)` have row strides `lda`, `ldb`. Each part is
    one single-threaded `sgemm` on its own range of the long axis, so each
    packs only its share of both operands (parts of `out`'s rows each packed
    all of `b`: 1.4x the CPU time at the benchmark's shapes), and the partial
    sums are added in part order, whatever thread computed them.
    """
    m, n = out.shape
    partial = np.zeros((PARTS, m, n), np.float32)
    size = -(-columns // PARTS)
    for part in prange(PARTS):
        start = part * size
        width = min(size, columns - start)
        if width > 0:
            sgemm(ROW_MAJOR, NO_TRANS, TRANS, m, n, width, 1.0, a.ctypes.data + start * _FLOAT,
                  lda, b.ctypes.data + start * _FLOAT, ldb, 0.0,
                  partial.ctypes.data + part * m * n * _FLOAT, n)
    out[:] = partial[0]
    for part in range(1, PARTS):
        out += partial[part]


@inline
def _forward_block(recurrent, bias, relu, rmask, keep, hxt, j0, j1):
    """All steps of the batch columns `[j0, j1)` (see `_forward`)."""
    units, steps_1, batch = recurrent.shape[0], hxt.shape[1], hxt.shape[2]
    ld = steps_1 * batch
    width = j1 - j0
    # with recurrent dropout the product's operand is a copy with masked states
    operand = np.empty((units, width if rmask.shape[0] else 0), np.float32)
    for s in range(steps_1 - 1):
        if rmask.shape[0]:
            operand[:] = hxt[:units, s, j0:j1] * rmask[:, j0:j1]
            b_data, ldb = operand.ctypes.data, width
        else:
            b_data, ldb = hxt.ctypes.data + (s * batch + j0) * _FLOAT, ld
        # the projected inputs are already in the state rows of step s + 1
        sgemm(ROW_MAJOR, TRANS, NO_TRANS, units, width, units, 1.0, recurrent.ctypes.data,
              units, b_data, ldb, 1.0, hxt.ctypes.data + ((s + 1) * batch + j0) * _FLOAT, ld)
        # Unsigned column indices need no check for negative values, which
        # lets LLVM vectorise the loop (see `recurrent_lstm`).
        c0, c1 = np.uint64(j0), np.uint64(j1)
        for r in range(units):
            b = bias[r]
            if relu:
                for j in range(c0, c1):
                    z = hxt[r, s + 1, j] + b
                    # written out, not max: a NaN passes through, as in np.maximum
                    hxt[r, s + 1, j] = _ZERO if z < _ZERO else z  # noqa: FURB136
            else:
                for j in range(c0, c1):
                    hxt[r, s + 1, j] = tanh32(hxt[r, s + 1, j] + b)
            if keep.shape[0]:    # masked steps keep the state
                for j in range(c0, c1):
                    if keep[s, j] == 0:
                        hxt[r, s + 1, j] = hxt[r, s, j]


@jit(parallel=True, fastmath={"contract"})
def _forward(recurrent, bias, relu, rmask, keep, hxt):
    """Runs all steps on `hxt`, whose state rows hold the projected inputs.

    `recurrent` is the `(H, H)` recurrent kernel, `bias` `(H,)`; `relu`
    selects relu over tanh. `rmask` `(H, B)` multiplies `h_{s-1}` in the
    product (recurrent dropout); `keep` `(T, B)` holds the mask (0 keeps the
    state). Either is empty when absent.
    """
    batch = hxt.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _forward_block(recurrent, bias, relu, rmask, keep, hxt, j0, min(j0 + BLOCK, batch))


@inline
def _backward_block(recurrent, relu, hxt, g_seq, weights, rmask, keep, dh_in, dz, dh_out,
                    j0, j1):
    """All steps of the batch columns `[j0, j1)`, in reverse (see `_backward`)."""
    units, steps, batch = dz.shape
    width = j1 - j0
    dh = np.empty((units, width), np.float32)
    dh_next = np.empty((units, width), np.float32)
    dh[:] = dh_in[:, j0:j1]
    for s in range(steps - 1, -1, -1):
        if g_seq.shape[0]:
            for k in range(width):
                w = weights[s, j0 + k] if weights.shape[0] else _ONE
                for r in range(units):
                    dh[r, k] += g_seq[j0 + k, s, r] * w
        c0, c1 = np.uint64(j0), np.uint64(j1)    # unsigned: see `_forward_block`
        for r in range(units):
            for j in range(c0, c1):
                # m = 0 on a masked step: no pre-activation gradient
                m = keep[s, j] if keep.shape[0] else _ONE
                y = hxt[r, s + 1, j]
                if relu:
                    slope = _ONE if y > _ZERO else _ZERO
                else:
                    slope = _ONE - y * y
                dz[r, s, j] = dh[r, j - c0] * m * slope
        sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, units, 1.0, recurrent.ctypes.data,
              units, dz.ctypes.data + (s * batch + j0) * _FLOAT, steps * batch, 0.0,
              dh_next.ctypes.data, width)
        if rmask.shape[0]:
            dh_next *= rmask[:, j0:j1]
        if keep.shape[0]:    # a masked step passes dh through
            kept = keep[s, j0:j1]
            for r in range(units):
                for k in range(width):
                    if kept[k] == 0:
                        dh_next[r, k] = dh[r, k]
        dh, dh_next = dh_next, dh
    dh_out[:, j0:j1] = dh


@jit(parallel=True, fastmath={"contract"})
def _backward(recurrent, relu, hxt, g_seq, weights, rmask, keep, dh_in, dz, dh_out):
    """Runs all steps in reverse, writing the pre-activation gradients of step `s` to
    `dz[:, s]` `(H, T, B)` and `dL/dh0` to `dh_out` `(H, B)`.

    `g_seq` holds the gradients of the output sequence `(B, T, H)`, in
    processing order, and `weights` `(T, B)` their mask weights
    (`recurrent_common.output_weights`); `g_seq` is `(0, T, H)` when only the
    last output has a gradient (already in `dh_in`), `weights` `(0, B)`
    without a mask. `rmask` and `keep` as for `_forward`. A masked step passes
    `dh` through.
    """
    batch = hxt.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _backward_block(recurrent, relu, hxt, g_seq, weights, rmask, keep, dh_in, dz, dh_out,
                        j0, min(j0 + BLOCK, batch))


@override("simple_rnn_sequence")
def simple_rnn_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None,
                        recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                        zero_output_for_mask=False, activation="tanh"):
    """The numpy kernel's op, compiled (see the module docstring for what is covered)."""
    if not covered(x, recurrent_kernel, (x, kernel, recurrent_kernel, bias),
                   activation in _ACTIVATIONS):
        return NotImplemented
    batch, steps, inputs = x.shape
    units = recurrent_kernel.shape[0]
    hxt = np.empty((units + inputs + 1, steps + 1, batch), np.float32)
    hxt[:units, 0] = h0.T
    hxt[-1] = 1
    bias = np.zeros(units, np.float32) if bias is None else np.ascontiguousarray(bias)
    masks = rc.step_masks(mask, go_backwards, np.float32)
    with single_threaded_blas():
        _gather_inputs(np.ascontiguousarray(x), go_backwards, hxt)
        _project(np.ascontiguousarray(kernel), hxt)
        _forward(np.ascontiguousarray(recurrent_kernel), bias, _ACTIVATIONS[activation] == 1,
                 columns(recurrent_mask, batch, transpose=True), columns(masks, batch), hxt)
    hx = hxt.transpose(1, 0, 2)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    out = rc.sequence_output(hx[:, :units], weights, return_sequences)
    residual = (hx, kernel, recurrent_kernel, masks, weights, recurrent_mask)
    return (out, hx[-1, :units].T), residual


def _own_residual(hx, grads):
    """Whether `hx` is this kernel's `(T + 1, H + D + 1, B)` view of a C-contiguous `hxt`
    (numpy's is C-contiguous itself) and the gradients are float32."""
    return (hx.dtype == np.float32 and hx.shape[0] > 1
            and hx.transpose(1, 0, 2).flags.c_contiguous
            and all(g.dtype == np.float32 for g in grads))


@override_vjp("simple_rnn_sequence")
def _simple_rnn_sequence_vjp(node, grads):
    hx, kernel, recurrent_kernel, masks, weights, recurrent_mask = node.residual
    if not _own_residual(hx, grads):
        return NotImplemented      # a residual of the numpy kernel's
    hxt = hx.transpose(1, 0, 2)
    g_out, g_h = grads
    attrs = node.attrs
    steps, batch = hx.shape[0] - 1, hx.shape[2]
    units, inputs = recurrent_kernel.shape[0], kernel.shape[0]
    dh = np.ascontiguousarray(g_h.T)
    if attrs.get("return_sequences", True):
        g_seq = np.ascontiguousarray(g_out)
    else:
        # not in place: `dh` may be a view of the incoming gradient
        dh = dh + (g_out.T if weights is None else g_out.T * weights[-1])
        g_seq = np.empty((0, steps, units), np.float32)
    dz = np.empty((units, steps, batch), np.float32)
    dh0 = np.empty_like(dh)
    dz_matrix = dz.reshape(units, -1)
    dx = dkernel = drec = dbias = None
    rmask = columns(recurrent_mask, batch, transpose=True)
    relu = _ACTIVATIONS[attrs.get("activation", "tanh")] == 1
    with single_threaded_blas():
        _backward(np.ascontiguousarray(recurrent_kernel), relu, hxt, g_seq,
                  columns(weights, batch), rmask, columns(masks, batch), dh, dz, dh0)
        if rc.needs(node, 0):
            dx = np.empty((steps, batch, inputs), np.float32)
            # dx (T * B, D) = dz^T (T * B, H) @ kernel^T (H, D)
            product_in_parts(True, dz_matrix, steps * batch, True, np.ascontiguousarray(kernel),
                             units, dx.reshape(-1, inputs), steps * batch, inputs, units)
            dx = (dx[::-1] if attrs.get("go_backwards", False) else dx).transpose(1, 0, 2)
        if rc.needs(node, 2, 3, 4):
            rows = units + inputs
            operand, ld = hxt[:rows], (steps + 1) * batch
            if rmask.shape[0]:    # the product's operand had the masked states
                operand, ld = hxt[:rows, :steps].copy(), steps * batch
                operand[:units] *= rmask[:, None, :]
            sums = np.empty((rows, units), np.float32)
            # sums (H + D, H) = hxt[:H + D, :T] (H + D, T * B) @ dz^T (T * B, H), without
            # the row of ones
            _contract_steps(operand.reshape(rows, -1), ld, dz_matrix, steps * batch,
                            steps * batch, sums)
            drec, dkernel = sums[:units], sums[units:]
            if rc.needs(node, 4):
                dbias = dz_matrix.sum(axis=1)
    result = (dx, dh0.T if rc.needs(node, 1) else None, dkernel, drec, dbias, None, None)
    return result[:len(node.input_refs)]
