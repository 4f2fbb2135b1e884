"""`gru_sequence` with its whole time loop compiled, forward and backward.

Built like the compiled LSTM (`recurrent_lstm.py`): each thread runs all steps
of its batch blocks (`_recurrent_blocks`), with per step one single-threaded
OpenBLAS `sgemm` for the recurrent product and one fused pass for the gates
(the vectorising `sigmoid_of_negated32`/`tanh32` of `_vector_math`). The
GRU's candidate gate keeps its input and recurrent parts apart (`x_h + r *
s_h`), so the input side cannot share the step's product as the LSTM's does:
the input projection of all steps is one large product before the loop
(`product_in_parts`, on every thread), and the loop multiplies by the
recurrent kernel only. After the backward loop, the input and kernel
gradients are large products as well.

The residual is the numpy kernel's (`numpy_backend/recurrent_gru.py`, with
`reset_after=True`): internal input-side gate order h, z, r; `buf` of the
activated gates; `rec` of the recurrent product, whose candidate rows hold
`s_h` with its bias; states `hs` over a row of ones. Here those arrays are
stored feature-major over the whole sequence, `(rows, T (+1), B)`, so that a
step's block and the after-loop operands (`(rows, T * B)` matrices) are both
plain strided matrices; the residual holds their `(T, rows, B)` transposed
views, the numpy kernel's shapes. The numpy VJP therefore works on this
residual too; the compiled VJP takes only residuals in this layout.

Covered: float32, `reset_after=True` (Keras's default), the default
activations (tanh, sigmoid), with or without masks and recurrent dropout,
both directions, either output. `reset_after=False`, other dtypes and
activations, and numpy builds without an OpenBLAS `sgemm` to call, run the
numpy kernel.
"""

import numpy as np

from ..numpy_backend import recurrent_common as rc
from ..numpy_backend.blas_threads import single_threaded_blas
from ..numpy_backend.recurrent_gru import _X_INVERSE, _X_ORDER
from . import _cblas
from ._cblas import NO_TRANS, ROW_MAJOR, sgemm
from ._jit import inline, jit, prange
from ._recurrent_blocks import BLOCK, blocks, product_in_parts
from ._registry import override, override_vjp
from ._vector_math import sigmoid_of_negated32, tanh32

_FLOAT = 4
_ONE = np.float32(1.0)


@inline
def _forward_block(ut, bias, rmask, keep, hs, buf, rec, j0, j1):
    """All steps of the batch columns `[j0, j1)` (see `_forward`; a function of its own
    for the reason given at `recurrent_lstm._forward_block`)."""
    units = ut.shape[1]
    h2, h3 = 2 * units, 3 * units
    steps, batch = buf.shape[1], buf.shape[2]
    width = j1 - j0
    # with recurrent dropout the product's operand is a copy with masked states
    operand = np.empty((units, width if rmask.shape[0] else 0), np.float32)
    for s in range(steps):
        if rmask.shape[0]:
            operand[:] = hs[:units, s, j0:j1] * rmask[:, j0:j1]
            b_data, ldb = operand.ctypes.data, width
        else:
            b_data, ldb = hs.ctypes.data + (s * batch + j0) * _FLOAT, (steps + 1) * batch
        # rec[:, s] (3H, width) = recurrent_kernel.T @ h_{s-1}, rows z, r, h
        sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, h3, width, units, 1.0, ut.ctypes.data, units,
              b_data, ldb, 0.0, rec.ctypes.data + (s * batch + j0) * _FLOAT, steps * batch)
        # unsigned column indices let LLVM vectorise (see `recurrent_lstm._forward_block`)
        c0, c1 = np.uint64(j0), np.uint64(j1)
        for r in range(units):
            rz, rr = units + r, h2 + r
            b_x, b_z, b_r, b_s = bias[r], bias[rz], bias[rr], bias[h3 + r]
            for j in range(c0, c1):
                z = sigmoid_of_negated32(-(buf[rz, s, j] + rec[r, s, j] + b_z))
                g = sigmoid_of_negated32(-(buf[rr, s, j] + rec[rz, s, j] + b_r))
                s_h = rec[rr, s, j] + b_s
                hh = tanh32(buf[r, s, j] + b_x + g * s_h)
                rec[rr, s, j] = s_h
                buf[r, s, j], buf[rz, s, j], buf[rr, s, j] = hh, z, g
                hs[r, s + 1, j] = hh + z * (hs[r, s, j] - hh)
            if keep.shape[0]:    # masked steps keep the state
                for j in range(c0, c1):
                    if keep[s, j] == 0:
                        hs[r, s + 1, j] = hs[r, s, j]


@jit(parallel=True)
def _forward(ut, bias, rmask, keep, hs, buf, rec):
    """Runs all steps, given the input projections in `buf` `(3H, T, B)` (rows h, z, r).

    `ut` `(3H, H)` is `recurrent_kernel.T` (rows z, r, h); `bias` `(4H,)` holds
    the candidate's input bias, the summed z and r biases, and the candidate's
    recurrent bias. Writes the activated gates over `buf`, the recurrent
    products (with `s_h`'s bias) to `rec` `(3H, T, B)` and the states to `hs`
    `(H + 1, T + 1, B)` from `hs[:H, 0]`. `rmask` `(H, B)` multiplies `h_{s-1}`
    in the product (recurrent dropout); `keep` `(T, B)` holds the mask (0 keeps
    the state). Either is empty when absent.
    """
    batch = hs.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _forward_block(ut, bias, rmask, keep, hs, buf, rec, j0, min(j0 + BLOCK, batch))


@inline
def _backward_block(u, buf, rec, hs, g_steps, rmask, keep, dh_in, dz, dh_out, j0, j1):
    """All steps of the batch columns `[j0, j1)`, in reverse (see `_backward`)."""
    units = u.shape[0]
    h2, h3 = 2 * units, 3 * units
    steps, batch = buf.shape[1], buf.shape[2]
    width = j1 - j0
    dh = np.empty((units, width), np.float32)
    dh_next = np.empty((units, width), np.float32)
    dh[:] = dh_in[:, j0:j1]
    for s in range(steps - 1, -1, -1):
        if g_steps.shape[0]:
            dh += g_steps[s, :, j0:j1]
        c0, c1 = np.uint64(j0), np.uint64(j1)    # unsigned: see `_forward_block`
        for r in range(units):
            rz, rr = units + r, h2 + r
            for j in range(c0, c1):
                # m = 0 on a masked step: no gate gradients, dh passes through
                m = keep[s, j] if keep.shape[0] else _ONE
                dh_k = dh[r, j - c0] * m
                hh, z, g = buf[r, s, j], buf[rz, s, j], buf[rr, s, j]
                a = dh_k * (_ONE - z) * (_ONE - hh * hh)    # candidate pre-activation
                dz[r, s, j] = a
                dz[rz, s, j] = dh_k * (hs[r, s, j] - hh) * z * (_ONE - z)
                dz[rr, s, j] = a * rec[rr, s, j] * g * (_ONE - g)
                dz[h3 + r, s, j] = a * g                        # s_h
        # dh_next (H, width) = recurrent_kernel @ dz[H:4H] (rows z, r, s_h)
        sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, h3, 1.0, u.ctypes.data, h3,
              dz.ctypes.data + ((units * steps + s) * batch + j0) * _FLOAT, steps * batch,
              0.0, dh_next.ctypes.data, width)
        for r in range(units):
            rz = units + r
            for j in range(c0, c1):
                k = j - c0
                m = keep[s, j] if keep.shape[0] else _ONE
                d = dh_next[r, k] * rmask[r, j] if rmask.shape[0] else dh_next[r, k]
                dh_next[r, k] = d + dh[r, k] * m * buf[rz, s, j] + dh[r, k] * (_ONE - m)
        dh, dh_next = dh_next, dh
    dh_out[:, j0:j1] = dh


@jit(parallel=True)
def _backward(u, buf, rec, hs, g_steps, rmask, keep, dh_in, dz, dh_out):
    """Runs all steps in reverse, writing the gate gradients of step `s` to `dz[:, s]`.

    `dz` `(4H, T, B)` rows: the candidate's pre-activation, z, r (the input
    side, rows 0:3H, in the internal order h, z, r) and the candidate's
    recurrent part `s_h` (rows H:4H are the recurrent side, order z, r, h).
    `u` `(H, 3H)` is the recurrent kernel; `g_steps` the output gradients per
    step `(T, H, B)` (or `(0, H, B)` when only the last output has one, already
    in `dh_in`); `rmask` and `keep` as for `_forward`.
    """
    batch = buf.shape[2]
    for block in prange(blocks(batch)):
        j0 = block * BLOCK
        _backward_block(u, buf, rec, hs, g_steps, rmask, keep, dh_in, dz, dh_out,
                        j0, min(j0 + BLOCK, batch))


def _covered(x, h0, kernel, recurrent_kernel, bias, reset_after, activation,
             recurrent_activation):
    arrays = [a for a in (x, h0, kernel, recurrent_kernel, bias) if a is not None]
    return (_cblas.AVAILABLE and reset_after and activation == "tanh"
            and recurrent_activation == "sigmoid"
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


def _gate_bias(bias, units):
    """`(4H,)`: the candidate's input bias, z and r (input + recurrent), `s_h`'s bias."""
    if bias is None:
        return np.zeros(4 * units, np.float32)
    b_in, b_rec = rc.permute_blocks(bias[0], _X_ORDER), bias[1]
    return np.concatenate([b_in[:units], b_in[units:] + b_rec[:2 * units],
                           b_rec[2 * units:]]).astype(np.float32)


@override("gru_sequence")
def gru_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None, recurrent_mask=None,
                 *, reset_after=True, go_backwards=False, return_sequences=True,
                 zero_output_for_mask=False, activation="tanh", recurrent_activation="sigmoid"):
    """The numpy kernel's op, compiled (see the module docstring for what is covered)."""
    if not _covered(x, h0, kernel, recurrent_kernel, bias, reset_after, activation,
                    recurrent_activation):
        return NotImplemented
    batch, steps, inputs = x.shape
    units = recurrent_kernel.shape[0]
    h3 = 3 * units
    w = rc.permute_blocks(kernel, _X_ORDER)           # (D, 3H), internal order h, z, r
    xt = np.empty((inputs, steps, batch), np.float32)
    xs = x.transpose(2, 1, 0)
    xt[:] = xs[:, ::-1] if go_backwards else xs
    buf = np.empty((h3, steps, batch), np.float32)
    rec = np.empty((h3, steps, batch), np.float32)
    hs = np.empty((units + 1, steps + 1, batch), np.float32)
    hs[:units, 0] = h0.T
    hs[units] = 1                                     # the numpy VJP's bias operand
    masks = rc.step_masks(mask, go_backwards, np.float32)
    rmask = _columns(recurrent_mask, batch, transpose=True)
    with single_threaded_blas():
        # buf (3H, T * B) = w.T (3H, D) @ xt (D, T * B)
        product_in_parts(True, np.ascontiguousarray(w), h3, False, xt.reshape(inputs, -1),
                         steps * batch, buf.reshape(h3, -1), h3, steps * batch, inputs)
        _forward(np.ascontiguousarray(recurrent_kernel.T), _gate_bias(bias, units), rmask,
                 _columns(masks, batch), hs, buf, rec)
    states = hs.transpose(1, 0, 2)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    out = rc.sequence_output(states[:, :units], weights, return_sequences)
    residual = (xt.transpose(1, 0, 2), buf.transpose(1, 0, 2), rec.transpose(1, 0, 2), states,
                w, recurrent_kernel, masks, weights, rmask if recurrent_mask is not None else None)
    return (out, hs[:units, -1].T), residual


@override_vjp("gru_sequence")
def _gru_sequence_vjp(node, grads):
    xs, buf, rec, states, w, u, masks, weights, rmask = node.residual
    xt, buf, rec, hs = (a.transpose(1, 0, 2) for a in (xs, buf, rec, states))
    if not hs.flags.c_contiguous or any(g.dtype != np.float32 for g in grads):
        return NotImplemented      # a residual of the numpy kernel's
    g_out, g_h = grads
    attrs = node.attrs
    h3, steps, batch = buf.shape
    units, inputs = h3 // 3, xt.shape[0]
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = np.ascontiguousarray(g_h.T)
    if g_last is not None:
        dh = dh + g_last
    if g_steps is None:
        g_steps = np.empty((0, units, batch), np.float32)
    dz = np.empty((4 * units, steps, batch), np.float32)
    dh0 = np.empty_like(dh)
    dz_matrix = dz.reshape(4 * units, -1)
    samples = steps * batch
    dx = dkernel = drec = dbias = None
    if rmask is None:
        rmask = np.empty((0, batch), np.float32)
    with single_threaded_blas():
        _backward(np.ascontiguousarray(u), buf, rec, hs, g_steps, rmask, _columns(masks, batch),
                  dh, dz, dh0)
        if rc.needs(node, 0):
            dx = np.empty((steps, batch, inputs), np.float32)
            # dx (T * B, D) = dz[:3H]^T (T * B, 3H) @ w^T (3H, D)
            product_in_parts(True, dz_matrix, samples, True, np.ascontiguousarray(w), h3,
                             dx.reshape(-1, inputs), samples, inputs, h3)
            dx = (dx[::-1] if attrs.get("go_backwards", False) else dx).transpose(1, 0, 2)
        if rc.needs(node, 2):
            sums = np.empty((h3, inputs), np.float32)
            # sums (3H, D) = dz[:3H] (3H, T * B) @ xt (D, T * B)^T
            product_in_parts(False, dz_matrix, samples, True, xt.reshape(inputs, -1), samples,
                             sums, h3, inputs, samples)
            dkernel = rc.permute_blocks(sums.T, _X_INVERSE)
        if rc.needs(node, 3):
            operand, ld = hs[:units], (steps + 1) * batch
            if rmask.shape[0]:    # the product's operand had the masked states
                operand, ld = hs[:units, :steps] * rmask[:, None, :], samples
            sums = np.empty((h3, units), np.float32)
            # sums (3H, H) = dz[H:4H] (3H, T * B) @ h_{s-1} (H, T * B)^T
            product_in_parts(False, dz_matrix[units:], samples, True, operand.reshape(units, -1),
                             ld, sums, h3, units, samples)
            drec = sums.T
        if rc.needs(node, 4):
            dbias = np.stack([rc.permute_blocks(dz_matrix[:h3].sum(axis=1), _X_INVERSE),
                              dz_matrix[units:].sum(axis=1)])
    result = (dx, dh0.T if rc.needs(node, 1) else None, dkernel, drec, dbias, None, None)
    return result[:len(node.input_refs)]
