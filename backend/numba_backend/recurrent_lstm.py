"""`lstm_sequence` with its whole time loop compiled, forward and backward.

The numpy kernel (`numpy_backend/recurrent_lstm.py`) makes about eight numpy
calls per forward step and five per backward step, each on a small
`(units, batch)` block, so its time loop runs on one thread (only its large
products run on a helper thread meanwhile). Here each thread runs all steps
of its batch block (`_recurrent_blocks`) in compiled code, and every product
of the op, the gradient products included, is an OpenBLAS `sgemm` on one
block's columns, called from that block's thread: nothing is left for after
the loop, so all of it spreads over the cores.

The inputs are read in place: a block's rows of `x` `(B, T, D)` at step `t`
are a `(width, D)` matrix with leading dimension `T * D`, an sgemm operand
as they are, so no step copies or transposes them. Forward, per step: the
inputs' share of the pre-activations (`x_t` transposed in the product), the
state product added, and one fused pass computing the gates with the
vectorising `exp32` of `_vector_math`. Backward, per step: the gate
gradients, then `dh`, the step's input gradient and its share of the
input-kernel gradient (one product each); per chunk of `_CHUNK` steps, the
chunk's share of the state-kernel gradient, one product. The kernel and
bias sums are per block, added in block order afterwards.

The layout is the numpy kernel's (gate order o, i, f, g; `buf` of gates and
cell states), except that the step operands `[h_{s-1}; x_s; 1]` live in one
`(H + D + 1, T + 1, B)` array, `hxt`, whose `(T + 1, H + D + 1, B)` transposed
view is numpy's `hx`. The residual is numpy's with two things left out and
`x` appended: the inputs' rows of `hxt` stay unwritten (copying them cost the
forward 14% of its time) and `tc = tanh(c)` is not stored (the backward
recomputes it, faster than loading it: 7% less backward time on one core).
Where the numpy VJP runs instead of the compiled one (float64 gradients, a
VJP numba cannot compile), `_numpy_residual` first completes the residual.

Covered: float32 with the default activations (tanh, sigmoid), with or
without masks and recurrent dropout, both directions, either output. Other
dtypes and activations, and numpy builds without an OpenBLAS `sgemm` to
call, run the numpy kernel.
"""

import numpy as np

from ..numpy_backend import ops as numpy_ops
from ..numpy_backend import recurrent_common as rc
from ..numpy_backend.blas_threads import single_threaded_blas
from ..numpy_backend.recurrent_lstm import _INVERSE, _internal_weights
from ._cblas import NO_TRANS, ROW_MAJOR, TRANS, sgemm
from ._jit import inline, jit, prange
from ._recurrent_blocks import BLOCK, blocks, columns, covered
from ._registry import override, override_vjp
from ._vector_math import sigmoid_of_negated32, tanh32

_FLOAT = 4
_ONE, _TWO = np.float32(1.0), np.float32(2.0)

# Steps per chunk of the backward's state-kernel gradient sums
# (`_state_kernel_gradient_chunk`).
_CHUNK = 8


@jit(fastmath={"contract"})
def _forward_block(weights, bias, rmask, keep, x, go_backwards, hxt, buf, j0, j1):
    """All steps of the batch columns `[j0, j1)` (see `_forward`).

    A function of its own rather than the body of the parallel loop: compiled
    outside numba's parallel lowering it took about 5% less time. Compiled with
    fused multiply-adds (`contract`, as `_vector_math` recommends): 2% less.
    """
    rows, steps_1, batch = weights.shape[1], hxt.shape[1], hxt.shape[2]
    units = buf.shape[1] // 5
    h4 = 4 * units
    inputs = rows - units
    width = j1 - j0
    steps = steps_1 - 1
    # the block's pre-activations of the current step, `(4H, width)`
    z = np.empty((h4, width), np.float32)
    # with recurrent dropout the product's operand is a copy with masked states
    operand = np.empty((units, width if rmask.shape[0] else 0), np.float32)
    for s in range(steps):
        # z_s = input kernel @ x_t^T, read in place: the block's rows of x (B, T, D)
        # at step t are a (width, D) matrix with leading dimension T * D
        t_in = steps - 1 - s if go_backwards else s
        sgemm(ROW_MAJOR, NO_TRANS, TRANS, h4, width, inputs, 1.0,
              weights.ctypes.data + units * _FLOAT, rows,
              x.ctypes.data + (j0 * steps + t_in) * inputs * _FLOAT, steps * inputs,
              0.0, z.ctypes.data, width)
        if rmask.shape[0]:
            operand[:] = hxt[:units, s, j0:j1] * rmask[:, j0:j1]
            b_data, ldb = operand.ctypes.data, width
        else:
            b_data, ldb = hxt.ctypes.data + (s * batch + j0) * _FLOAT, steps_1 * batch
        # z_s += state kernel @ h_{s-1}
        sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, h4, width, units, 1.0, weights.ctypes.data,
              rows, b_data, ldb, 1.0, z.ctypes.data, width)
        # Unsigned column indices need no check for negative values, which
        # lets LLVM vectorise the loop (row slices would cost a view per row).
        c0, c1 = np.uint64(j0), np.uint64(j1)
        for r in range(units):
            ri, rf, rg, rc_ = units + r, 2 * units + r, 3 * units + r, h4 + r
            bo, bi, bf, bg = bias[r], bias[ri], bias[rf], bias[rg]
            for j in range(c0, c1):
                k = j - c0
                o = sigmoid_of_negated32(z[r, k] + bo)
                i = sigmoid_of_negated32(z[ri, k] + bi)
                f = sigmoid_of_negated32(z[rf, k] + bf)
                g = _TWO * sigmoid_of_negated32(z[rg, k] + bg) - _ONE
                buf[s, r, j], buf[s, ri, j], buf[s, rf, j], buf[s, rg, j] = o, i, f, g
                c = f * buf[s, rc_, j] + i * g
                buf[s + 1, rc_, j] = c
                tanh_c = tanh32(c)
                hxt[r, s + 1, j] = o * tanh_c
            if keep.shape[0]:    # masked steps keep the states
                for j in range(c0, c1):
                    if keep[s, j] == 0:
                        buf[s + 1, rc_, j] = buf[s, rc_, j]
                        hxt[r, s + 1, j] = hxt[r, s, j]


@jit(parallel=True)
def _forward(weights, bias, rmask, keep, x, go_backwards, hxt, buf):
    """Runs all steps.

    `weights` `(4H, H + D)` and `bias` `(4H,)` have the `exp` factors -1/-2
    folded in; the product leaves out the row of ones of `hxt` (an odd
    dimension costs OpenBLAS up to twice the time), the gate pass adds the bias.
    `rmask` `(H, B)` multiplies `h_{s-1}` in the product (recurrent dropout);
    `keep` `(T, B)` holds the mask (0 keeps the states). Either is empty when absent.
    The inputs `x` `(B, T, D)` (taken in reverse with `go_backwards`) are read in
    place; their rows of `hxt` are left unwritten.
    """
    batch = hxt.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _forward_block(weights, bias, rmask, keep, x, go_backwards, hxt, buf,
                       j0, min(j0 + BLOCK, batch))


@inline
def _state_kernel_gradient_chunk(dz, hxt, hx, rmask, sums, s0, s1, j0, accumulate):
    """Adds steps `[s0, s1)` of the block starting at column `j0` to its state-kernel
    gradient sums, the first H columns of `sums` `(4H, H + D)`; `accumulate` False
    overwrites them (the first chunk).

    `dz` `(4H, _CHUNK, width)` holds the chunk's gate gradients, a matrix
    `(4H, _CHUNK * width)`; `hx` `(H, _CHUNK * width)` receives the chunk's
    states, with recurrent dropout's masks. Chunks start at multiples of
    `_CHUNK` whatever the thread count, so the sums are added in the same
    order on any number of threads.
    """
    h4, _, width = dz.shape
    units = h4 // 4
    c0, w1 = np.uint64(j0), np.uint64(width)    # unsigned: see `_forward_block`
    for r in range(units):
        for s in range(s0, s1):
            col = np.uint64((s - s0) * width)
            if rmask.shape[0]:
                for k in range(w1):
                    hx[r, col + k] = hxt[r, s, c0 + k] * rmask[r, c0 + k]
            else:
                for k in range(w1):
                    hx[r, col + k] = hxt[r, s, c0 + k]
    # sums[:, :H] += dz (4H, n * width) @ hx[:, :n * width]^T
    sgemm(ROW_MAJOR, NO_TRANS, TRANS, h4, units, (s1 - s0) * width, 1.0,
          dz.ctypes.data, _CHUNK * width, hx.ctypes.data, _CHUNK * width,
          _ONE if accumulate else np.float32(0.0), sums.ctypes.data, sums.shape[1])


@jit(fastmath={"contract"})
def _backward_block(u, w, buf, hxt, x, g_steps, rmask, keep, dh_in, dc_in, go_backwards,
                    dx, sums, bias_sums, dh_out, dc_out, block, j0, j1):
    """All steps of the batch columns `[j0, j1)` in reverse, with the block's shares of the
    input, kernel and bias gradients (see `_backward`; a function of its own for the
    reason given at `_forward_block`)."""
    steps, units = buf.shape[0] - 1, buf.shape[1] // 5
    h4 = 4 * units
    width = j1 - j0
    # the gate gradients of the block's current chunk of steps, `(4H, _CHUNK, width)`,
    # step s in slot `s % _CHUNK`: small enough to stay in cache until the chunk's
    # kernel-gradient product has used them
    dz = np.empty((h4, _CHUNK, width), np.float32)
    hx = np.empty((units if sums.shape[0] else 0, _CHUNK * width), np.float32)
    product = np.empty((units, width), np.float32)
    dh = np.empty((units, width), np.float32)
    dc = np.empty((units, width), np.float32)
    db = np.zeros((h4, width), np.float32)
    dh[:] = dh_in[:, j0:j1]
    dc[:] = dc_in[:, j0:j1]
    c0, w1 = np.uint64(j0), np.uint64(width)    # unsigned: see `_forward_block`
    for s in range(steps - 1, -1, -1):
        slot = s % _CHUNK
        if g_steps.shape[0]:
            dh += g_steps[s, :, j0:j1]
        for r in range(units):
            ri, rf, rg, rc_ = units + r, 2 * units + r, 3 * units + r, h4 + r
            for k in range(w1):
                j = k + c0
                # m = 0 on a masked step: no gate gradients, dc passes through
                m = keep[s, j] if keep.shape[0] else _ONE
                o, i, f, g = buf[s, r, j], buf[s, ri, j], buf[s, rf, j], buf[s, rg, j]
                t = tanh32(buf[s + 1, rc_, j])    # recomputed: cheaper than a load
                dh_k = dh[r, k] * m
                dcs = dc[r, k] + dh_k * o * (_ONE - t * t)
                dcm = dcs * m
                dzo = dh_k * t * o * (_ONE - o)
                dzi = dcm * g * i * (_ONE - i)
                dzf = dcm * buf[s, rc_, j] * f * (_ONE - f)
                dzg = dcm * i * (_ONE - g * g)
                dz[r, slot, k], dz[ri, slot, k], dz[rf, slot, k], dz[rg, slot, k] = (
                    dzo, dzi, dzf, dzg)
                db[r, k] += dzo
                db[ri, k] += dzi
                db[rf, k] += dzf
                db[rg, k] += dzg
                dc[r, k] = dcs * (m * f + (_ONE - m))
        # dh_{s-1} (H, width) = u @ dz_s, straight into dh without masks
        direct = not (rmask.shape[0] or keep.shape[0])
        sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, h4, 1.0, u.ctypes.data, h4,
              dz.ctypes.data + slot * width * _FLOAT, _CHUNK * width, 0.0,
              (dh if direct else product).ctypes.data, width)
        t_in = steps - 1 - s if go_backwards else s
        inputs = x.shape[2]
        if sums.shape[0]:
            # the step's share of the input-kernel gradient, with the block's rows
            # of x (B, T, D) at step t read in place:
            # sums[block][:, H:] (4H, D) += dz_s (4H, width) @ x[j0:j1, t] (width, D)
            sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, h4, inputs, width, 1.0,
                  dz.ctypes.data + slot * width * _FLOAT, _CHUNK * width,
                  x.ctypes.data + (j0 * steps + t_in) * inputs * _FLOAT, steps * inputs,
                  0.0 if s == steps - 1 else 1.0,
                  sums[block].ctypes.data + units * _FLOAT, units + inputs)
        if dx.shape[0]:
            # the step's input gradient, straight into its rows of dx (B, T, D):
            # dx[j0:j1, t] (width, D) = dz_s^T @ w^T
            sgemm(ROW_MAJOR, TRANS, TRANS, width, inputs, h4, 1.0,
                  dz.ctypes.data + slot * width * _FLOAT, _CHUNK * width, w.ctypes.data, h4, 0.0,
                  dx.ctypes.data + (j0 * steps + t_in) * inputs * _FLOAT, steps * inputs)
        for r in range(0 if direct else units):
            for k in range(w1):
                d_prev = product[r, k]
                if rmask.shape[0]:
                    d_prev *= rmask[r, k + c0]
                if keep.shape[0] and keep[s, k + c0] == 0:   # a masked step passes dh through
                    d_prev = dh[r, k]
                dh[r, k] = d_prev
        if sums.shape[0] and slot == 0:
            _state_kernel_gradient_chunk(dz, hxt, hx, rmask, sums[block], s,
                                         min(s + _CHUNK, steps), j0, s + _CHUNK < steps)
    dh_out[:, j0:j1] = dh
    dc_out[:, j0:j1] = dc
    for r in range(h4):
        bias_sums[block, r] = db[r].sum()


@jit(parallel=True)
def _backward(u, w, buf, hxt, x, g_steps, rmask, keep, dh_in, dc_in, go_backwards,
              dx, sums, bias_sums, dh_out, dc_out):
    """Runs all steps in reverse and gives each block's share of every gradient.

    `u` `(H, 4H)` and `w` `(D, 4H)` are the internal-order kernels; each step
    writes its input gradient to `dx` `(B, T, D)` (empty when not wanted). `g_steps`
    are the output gradients per step `(T, H, B)` (or `(0, H, B)` when only the
    last output has one, already in `dh_in`); `rmask` and `keep` as for
    `_forward`. A masked step has zero gate gradients and passes `dh` and `dc`
    through. Block `b` writes its kernel-gradient sums to `sums[b]` `(4H, H + D)`
    (`sums` is empty when they are not wanted) and its bias sums to
    `bias_sums[b]`. Adding the blocks' sums in block order then gives results
    independent of the thread count.
    """
    batch = buf.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _backward_block(u, w, buf, hxt, x, g_steps, rmask, keep, dh_in, dc_in, go_backwards,
                        dx, sums, bias_sums, dh_out, dc_out,
                        block, j0, min(j0 + BLOCK, batch))


@override("lstm_sequence")
def lstm_sequence(x, h0, c0, kernel, recurrent_kernel, bias=None, mask=None,
                  recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                  zero_output_for_mask=False, activation="tanh",
                  recurrent_activation="sigmoid"):
    """The numpy kernel's op, compiled (see the module docstring for what is covered)."""
    if not covered(x, recurrent_kernel, (x, kernel, recurrent_kernel, bias),
                   activation == "tanh" and recurrent_activation == "sigmoid"):
        return NotImplemented
    batch, steps, inputs = x.shape
    units = recurrent_kernel.shape[0]
    w, u, state_kernel, input_kernel = _internal_weights(kernel, recurrent_kernel, bias, True)
    step_kernel = np.concatenate([state_kernel, input_kernel[:, :-1]], axis=1)
    hxt = np.empty((units + inputs + 1, steps + 1, batch), np.float32)
    hxt[:units, 0] = h0.T
    hxt[-1] = 1
    buf = np.empty((steps + 1, 5 * units, batch), np.float32)
    buf[0, 4 * units:] = c0.T
    masks = rc.step_masks(mask, go_backwards, np.float32)
    x = np.ascontiguousarray(x)
    with single_threaded_blas():
        _forward(step_kernel, np.ascontiguousarray(input_kernel[:, -1]),
                 columns(recurrent_mask, batch, transpose=True), columns(masks, batch),
                 x, go_backwards, hxt, buf)
    hx = hxt.transpose(1, 0, 2)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    out = rc.sequence_output(hx[:, :units], weights, return_sequences)
    # the inputs' rows of hx are left unwritten and tc is not stored: the compiled
    # VJP reads x in place and recomputes tc; `_numpy_residual` completes both
    # for the numpy VJP
    residual = (hx, buf, None, w, u, masks, weights, recurrent_mask, x)
    return (out, hx[-1, :units].T, buf[-1, 4 * units:].T), residual


def _numpy_residual(node):
    """Makes a compiled forward's residual the numpy kernel's, for the numpy VJP: the
    inputs' rows of `hx` in step order, and `tc`."""
    hx, buf, _, w, u, masks, weights, recurrent_mask, x = node.residual
    units = buf.shape[1] // 5
    if node.attrs.get("go_backwards", False):
        x = x[:, ::-1]
    hx[:-1, units:-1] = x.transpose(1, 2, 0)
    tc = np.tanh(buf[1:, 4 * units:])
    node.residual = (hx, buf, tc, w, u, masks, weights, recurrent_mask)


def _numpy_vjp(node, grads):
    """The numpy VJP, for the gradients the compiled one does not cover or after it
    failed to compile; on the compiled forward's residual, completed first."""
    if len(node.residual) == 9:
        _numpy_residual(node)
    return numpy_ops["lstm_sequence"].vjp(node, grads)


@override_vjp("lstm_sequence", fallback=_numpy_vjp)
def _lstm_sequence_vjp(node, grads):
    if len(node.residual) == 8 or any(g.dtype != np.float32 for g in grads):
        return NotImplemented      # a residual of the numpy kernel's, or float64 gradients
    hx, buf, _, w, u, masks, weights, recurrent_mask, x = node.residual
    hxt = hx.transpose(1, 0, 2)
    g_out, g_h, g_c = grads
    attrs = node.attrs
    steps, units, batch = buf.shape[0] - 1, buf.shape[1] // 5, buf.shape[2]
    inputs = w.shape[0]
    rows = units + inputs
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = np.ascontiguousarray(g_h.T)
    if g_last is not None:
        dh = dh + g_last
    if g_steps is None:
        g_steps = np.empty((0, units, batch), np.float32)
    dc = np.ascontiguousarray(g_c.T)
    dh0, dc0 = np.empty_like(dh), np.empty_like(dc)
    want_dx, want_kernels = rc.needs(node, 0), rc.needs(node, 3, 4, 5)
    dx = np.empty((batch, steps, inputs) if want_dx else (0, 0, 0), np.float32)
    parts = blocks(batch)
    sums = np.empty((parts if want_kernels else 0, 4 * units, rows), np.float32)
    bias_sums = np.empty((parts, 4 * units), np.float32)
    with single_threaded_blas():
        _backward(np.ascontiguousarray(u), np.ascontiguousarray(w), buf, hxt, x, g_steps,
                  columns(recurrent_mask, batch, transpose=True), columns(masks, batch),
                  dh, dc, attrs.get("go_backwards", False), dx, sums, bias_sums, dh0, dc0)
    dkernel = drec = dbias = None
    if want_kernels:
        sums = sums.sum(axis=0).T      # rows: recurrent kernel, kernel
        drec = rc.permute_blocks(sums[:units], _INVERSE)
        dkernel = rc.permute_blocks(sums[units:], _INVERSE)
        if rc.needs(node, 5):
            dbias = rc.permute_blocks(bias_sums.sum(axis=0), _INVERSE)
    result = (dx if want_dx else None, dh0.T if rc.needs(node, 1) else None,
              dc0.T if rc.needs(node, 2) else None, dkernel, drec, dbias, None, None)
    return result[:len(node.input_refs)]
