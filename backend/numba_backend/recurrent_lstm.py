"""`lstm_sequence` with its whole time loop compiled, forward and backward.

The numpy kernel (`numpy_backend/recurrent_lstm.py`) makes about eight numpy
calls per forward step and five per backward step, each on a small
`(units, batch)` block, so its time loop runs on one thread (only its large
products run on a helper thread meanwhile). Here each thread runs all steps
of its batch block (`_recurrent_blocks`) in compiled code: per step one
`sgemm` for the pre-activations and one fused pass for the gates, with the
vectorising `exp32` of `_vector_math`. Both kernels do the same products, which
are most of the work; this one spreads all of it over the cores.

The layout and the residual are the numpy kernel's (gate order o, i, f, g;
`buf` of gates and cell states, `tc = tanh(c)`), except that the step
operands `[h_{s-1}; x_s; 1]` live in one `(H + D + 1, T + 1, B)` array,
`hxt`, and the residual holds its `(T + 1, H + D + 1, B)` transposed view, as
numpy's has. One product then gives each step's pre-activations,
`[recurrent_kernel.T | kernel.T] @ hxt[:H + D, s]` (the gate pass adds the
bias), and after the backward loop the kernel gradients of all steps are one
product with `hxt[:H + D]` seen as a `(H + D, T * B)` matrix. The numpy VJP
works on this residual too; the compiled VJP takes only residuals in this
layout.

Covered: float32 with the default activations (tanh, sigmoid), with or
without masks and recurrent dropout, both directions, either output. Other
dtypes and activations, and numpy builds without an OpenBLAS `sgemm` to
call, run the numpy kernel.
"""

import numpy as np

from ..numpy_backend import recurrent_common as rc
from ..numpy_backend.blas_threads import single_threaded_blas
from ..numpy_backend.recurrent_lstm import _INVERSE, _internal_weights
from . import _cblas
from ._cblas import NO_TRANS, ROW_MAJOR, sgemm
from ._jit import inline, jit, prange
from ._recurrent_blocks import BLOCK, blocks, product_in_parts
from ._registry import override, override_vjp
from ._vector_math import sigmoid_of_negated32, tanh32

_FLOAT = 4
_ONE, _TWO = np.float32(1.0), np.float32(2.0)


@inline
def _forward_block(weights, bias, rmask, keep, hxt, buf, tc, j0, j1):
    """All steps of the batch columns `[j0, j1)` (see `_forward`).

    A function of its own rather than the body of the parallel loop: compiled
    outside numba's parallel lowering it took about 5% less time.
    """
    rows, steps_1, batch = weights.shape[1], hxt.shape[1], hxt.shape[2]
    units = tc.shape[1]
    h4 = 4 * units
    width = j1 - j0
    # with recurrent dropout the product's operand is a copy with masked states
    operand = np.empty((rows, width if rmask.shape[0] else 0), np.float32)
    for s in range(steps_1 - 1):
        if rmask.shape[0]:
            operand[:units] = hxt[:units, s, j0:j1] * rmask[:, j0:j1]
            operand[units:] = hxt[units:rows, s, j0:j1]
            b_data, ldb = operand.ctypes.data, width
        else:
            b_data, ldb = hxt.ctypes.data + (s * batch + j0) * _FLOAT, steps_1 * batch
        sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, h4, width, rows, 1.0, weights.ctypes.data,
              rows, b_data, ldb, 0.0,
              buf.ctypes.data + (s * 5 * units * batch + j0) * _FLOAT, batch)
        # Unsigned column indices need no check for negative values, which
        # lets LLVM vectorise the loop (row slices would cost a view per row).
        c0, c1 = np.uint64(j0), np.uint64(j1)
        for r in range(units):
            ri, rf, rg, rc_ = units + r, 2 * units + r, 3 * units + r, h4 + r
            bo, bi, bf, bg = bias[r], bias[ri], bias[rf], bias[rg]
            for j in range(c0, c1):
                o = sigmoid_of_negated32(buf[s, r, j] + bo)
                i = sigmoid_of_negated32(buf[s, ri, j] + bi)
                f = sigmoid_of_negated32(buf[s, rf, j] + bf)
                g = _TWO * sigmoid_of_negated32(buf[s, rg, j] + bg) - _ONE
                buf[s, r, j], buf[s, ri, j], buf[s, rf, j], buf[s, rg, j] = o, i, f, g
                c = f * buf[s, rc_, j] + i * g
                buf[s + 1, rc_, j] = c
                tanh_c = tanh32(c)
                tc[s, r, j] = tanh_c
                hxt[r, s + 1, j] = o * tanh_c
            if keep.shape[0]:    # masked steps keep the states
                for j in range(c0, c1):
                    if keep[s, j] == 0:
                        buf[s + 1, rc_, j] = buf[s, rc_, j]
                        hxt[r, s + 1, j] = hxt[r, s, j]


@jit(parallel=True)
def _forward(weights, bias, rmask, keep, hxt, buf, tc):
    """Runs all steps.

    `weights` `(4H, H + D)` and `bias` `(4H,)` have the `exp` factors -1/-2
    folded in; the product leaves out the row of ones of `hxt` (an odd
    dimension costs OpenBLAS up to twice the time), the gate pass adds the bias.
    `rmask` `(H, B)` multiplies `h_{s-1}` in the product (recurrent dropout);
    `keep` `(T, B)` holds the mask (0 keeps the states). Either is empty when absent.
    """
    batch = hxt.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _forward_block(weights, bias, rmask, keep, hxt, buf, tc, j0, min(j0 + BLOCK, batch))


@inline
def _backward_block(u, buf, tc, g_steps, rmask, keep, dh_in, dc_in, dz, dh_out, dc_out, j0, j1):
    """All steps of the batch columns `[j0, j1)`, in reverse (see `_backward`; a function
    of its own for the reason given at `_forward_block`)."""
    steps, units, batch = tc.shape
    h4 = 4 * units
    width = j1 - j0
    dh = np.empty((units, width), np.float32)
    dc = np.empty((units, width), np.float32)
    dh_next = np.empty((units, width), np.float32)
    dh[:] = dh_in[:, j0:j1]
    dc[:] = dc_in[:, j0:j1]
    for s in range(steps - 1, -1, -1):
        if g_steps.shape[0]:
            dh += g_steps[s, :, j0:j1]
        c0, c1 = np.uint64(j0), np.uint64(j1)    # unsigned: see `_forward`
        for r in range(units):
            ri, rf, rg, rc_ = units + r, 2 * units + r, 3 * units + r, h4 + r
            for j in range(c0, c1):
                k = j - c0
                # m = 0 on a masked step: no gate gradients, dc passes through
                m = keep[s, j] if keep.shape[0] else _ONE
                o, i, f, g = buf[s, r, j], buf[s, ri, j], buf[s, rf, j], buf[s, rg, j]
                t = tc[s, r, j]
                dh_k = dh[r, k] * m
                dcs = dc[r, k] + dh_k * o * (_ONE - t * t)
                dcm = dcs * m
                dz[r, s, j] = dh_k * t * o * (_ONE - o)
                dz[ri, s, j] = dcm * g * i * (_ONE - i)
                dz[rf, s, j] = dcm * buf[s, rc_, j] * f * (_ONE - f)
                dz[rg, s, j] = dcm * i * (_ONE - g * g)
                dc[r, k] = dcs * (m * f + (_ONE - m))
        sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, h4, 1.0, u.ctypes.data, h4,
              dz.ctypes.data + (s * batch + j0) * _FLOAT, steps * batch, 0.0,
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
    dc_out[:, j0:j1] = dc


@jit(parallel=True)
def _backward(u, buf, tc, g_steps, rmask, keep, dh_in, dc_in, dz, dh_out, dc_out):
    """Runs all steps in reverse, writing the gate gradients of step `s` to `dz[:, s]`.

    `u` `(H, 4H)` is the internal-order recurrent kernel; `g_steps` the output
    gradients per step `(T, H, B)` (or `(0, H, B)` when only the last output
    has one, already in `dh_in`); `rmask` and `keep` as for `_forward`. A
    masked step has zero gate gradients and passes `dh` and `dc` through.
    """
    batch = tc.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _backward_block(u, buf, tc, g_steps, rmask, keep, dh_in, dc_in, dz, dh_out, dc_out,
                        j0, min(j0 + BLOCK, batch))


def _covered(x, kernel, recurrent_kernel, bias, activation, recurrent_activation):
    arrays = [a for a in (x, kernel, recurrent_kernel, bias) if a is not None]
    return (_cblas.AVAILABLE and activation == "tanh" and recurrent_activation == "sigmoid"
            and all(np.asarray(a).dtype == np.float32 for a in arrays)
            and x.shape[0] > 0 and x.shape[1] > 0 and recurrent_kernel.shape[0] > 0)


def _columns(a, batch, transpose=False):
    """A per-column factor array as C-contiguous float32 `(rows, B)`, or `(0, B)` for None.

    `transpose` for `(B, H)` recurrent-dropout factors; else `(T, 1, B)` step masks.
    """
    if a is None:
        return np.empty((0, batch), np.float32)
    a = np.asarray(a, np.float32)
    return np.ascontiguousarray(a.T if transpose else a[:, 0, :])


@override("lstm_sequence")
def lstm_sequence(x, h0, c0, kernel, recurrent_kernel, bias=None, mask=None,
                  recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                  zero_output_for_mask=False, activation="tanh",
                  recurrent_activation="sigmoid"):
    """The numpy kernel's op, compiled (see the module docstring for what is covered)."""
    if not _covered(x, kernel, recurrent_kernel, bias, activation, recurrent_activation):
        return NotImplemented
    batch, steps, inputs = x.shape
    units = recurrent_kernel.shape[0]
    w, u, state_kernel, input_kernel = _internal_weights(kernel, recurrent_kernel, bias, True)
    step_kernel = np.concatenate([state_kernel, input_kernel[:, :-1]], axis=1)
    hxt = np.empty((units + inputs + 1, steps + 1, batch), np.float32)
    hxt[:units, 0] = h0.T
    xs = x.transpose(2, 1, 0)
    hxt[units:-1, :steps] = xs[:, ::-1] if go_backwards else xs
    hxt[-1] = 1
    buf = np.empty((steps + 1, 5 * units, batch), np.float32)
    buf[0, 4 * units:] = c0.T
    tc = np.empty((steps, units, batch), np.float32)
    masks = rc.step_masks(mask, go_backwards, np.float32)
    with single_threaded_blas():
        _forward(step_kernel, np.ascontiguousarray(input_kernel[:, -1]),
                 _columns(recurrent_mask, batch, transpose=True), _columns(masks, batch),
                 hxt, buf, tc)
    hx = hxt.transpose(1, 0, 2)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    out = rc.sequence_output(hx[:, :units], weights, return_sequences)
    residual = (hx, buf, tc, w, u, masks, weights, recurrent_mask)
    return (out, hx[-1, :units].T, buf[-1, 4 * units:].T), residual


@override_vjp("lstm_sequence")
def _lstm_sequence_vjp(node, grads):
    hx, buf, tc, w, u, masks, weights, recurrent_mask = node.residual
    hxt = hx.transpose(1, 0, 2)
    if not hxt.flags.c_contiguous or any(g.dtype != np.float32 for g in grads):
        return NotImplemented      # a residual of the numpy kernel's
    g_out, g_h, g_c = grads
    attrs = node.attrs
    steps, units, batch = tc.shape
    inputs = w.shape[0]
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = np.ascontiguousarray(g_h.T)
    if g_last is not None:
        dh = dh + g_last
    if g_steps is None:
        g_steps = np.empty((0, units, batch), np.float32)
    dc = np.ascontiguousarray(g_c.T)
    dz = np.empty((4 * units, steps, batch), np.float32)
    dh0, dc0 = np.empty_like(dh), np.empty_like(dc)
    dz_matrix = dz.reshape(4 * units, -1)
    dx = dkernel = drec = dbias = None
    rmask = _columns(recurrent_mask, batch, transpose=True)
    with single_threaded_blas():
        _backward(np.ascontiguousarray(u), buf, tc, g_steps, rmask, _columns(masks, batch),
                  dh, dc, dz, dh0, dc0)
        if rc.needs(node, 0):
            dx = np.empty((steps, batch, inputs), np.float32)
            # dx (T * B, D) = dz^T (T * B, 4H) @ w^T (4H, D)
            product_in_parts(True, dz_matrix, steps * batch, True, np.ascontiguousarray(w),
                             4 * units, dx.reshape(-1, inputs), steps * batch, inputs, 4 * units)
            dx = (dx[::-1] if attrs.get("go_backwards", False) else dx).transpose(1, 0, 2)
        if rc.needs(node, 3, 4, 5):
            rows = units + inputs
            operand, ld = hxt[:rows], (steps + 1) * batch
            if rmask.shape[0]:    # the product's operand had the masked states
                operand, ld = hxt[:rows, :steps].copy(), steps * batch
                operand[:units] *= rmask[:, None, :]
            sums = np.empty((4 * units, rows), np.float32)
            # sums (4H, H + D) = dz (4H, T * B) @ hxt[:H + D, :T]^T (without the row of ones)
            product_in_parts(False, dz_matrix, steps * batch, True, operand.reshape(rows, -1),
                             ld, sums, 4 * units, rows, steps * batch)
            sums = sums.T              # rows: recurrent kernel, kernel
            drec = rc.permute_blocks(sums[:units], _INVERSE)
            dkernel = rc.permute_blocks(sums[units:], _INVERSE)
            if rc.needs(node, 5):
                dbias = rc.permute_blocks(dz_matrix.sum(axis=1), _INVERSE)
    result = (dx, dh0.T if rc.needs(node, 1) else None, dc0.T if rc.needs(node, 2) else None,
              dkernel, drec, dbias, None, None)
    return result[:len(node.input_refs)]
