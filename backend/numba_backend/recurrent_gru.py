"""`gru_sequence` with its whole time loop compiled, forward and backward.

Built like the compiled LSTM (`recurrent_lstm.py`): each thread runs all steps
of its batch blocks (`_recurrent_blocks`) in compiled code, with per step
single-threaded OpenBLAS `sgemm` calls for the products and fused passes for
the gates (the vectorising `sigmoid_of_negated32`/`tanh32` of `_vector_math`).
The GRU's candidate gate keeps its input and recurrent parts apart, so a
step makes separate products for the input projection `kernel.T @ x_s` and
the recurrent side, where the LSTM makes one: two with `reset_after=True`
(Keras's default, `_gru_reset_after.py`), three with `reset_after=False`
(`_gru_reset_before.py`). The backward loop makes the recurrent products and
the input gradient of each step; the kernel gradients are then summed over
steps in a few parts, one `sgemm` per step and part (`_kernel_sums`).

The arrays are the numpy kernel's (`numpy_backend/recurrent_gru.py`),
*step-major*: `buf` `(T, 3H, B)` of the activated gates; with
`reset_after=True` in the internal order h, z, r, and `rec` `(T, 3H, B)` of
the recurrent product, whose candidate rows hold `s_h` with its bias; with
`reset_after=False` in Keras's order z, r, h, and `rh` `(T, H + 1, B)` of `r
* h_{s-1}` over a row of ones; the states `hs` `(T + 1, H + 1, B)` over a
row of ones. A step's block is then a few kilobytes of contiguous rows. (A
feature-major layout, `(rows, T * B)`, which would make the kernel
gradients one large product each, put the rows of one step 25 KB apart at
the benchmark's shapes, and the gate pass ran 4x slower from cache
conflicts.) The inputs are copied once to `(T, B, D)` in processing order;
the residual holds their `(T, D, B)` view, numpy's shape. Both kernels keep
the same residual, so either VJP works on either's.

Covered: float32 with the default activations (tanh, sigmoid), either
`reset_after`, with or without masks and recurrent dropout, both
directions, either output. Other dtypes and activations, and numpy builds
without an OpenBLAS `sgemm` to call, run the numpy kernel.
"""

import numpy as np

from ..numpy_backend import recurrent_common as rc
from ..numpy_backend.blas_threads import single_threaded_blas
from ..numpy_backend.recurrent_gru import _X_INVERSE, _X_ORDER
from . import _cblas, _gru_reset_after, _gru_reset_before
from ._cblas import NO_TRANS, ROW_MAJOR, TRANS, sgemm
from ._jit import jit, numba, prange
from ._recurrent_blocks import PARTS, columns, covered
from ._registry import override, override_vjp

_FLOAT = 4


def _threads():
    """numba's thread count for this call (`_jit` sets it), which blocks are grouped by."""
    return numba.get_num_threads()


@jit(parallel=True)
def _kernel_sums(dz, xs, hs, rmask, rh, dkernel, drec, dbias):
    """The kernel, recurrent kernel and bias gradients, summed over steps in `PARTS` parts.

    Part `p` adds the steps of its range into `dkernel[p]` `(3H, D)` (`dz[s, :3H]
    @ xs[s]`) and `drec[p]` `(3H, H)`, which start as zeros, and writes the sum
    of `dz[s]` over its steps and the batch to `dbias[p]`. With `reset_after`
    (`rh` empty, `dz` `(T, 4H, B)`), `drec` sums `dz[s, H:] @ h_{s-1}.T`;
    otherwise (`dz` `(T, 3H, B)`) its z and r rows sum `dz[s, :2H] @ h_{s-1}.T`
    and its candidate rows `dz[s, 2H:] @ rh[s, :H].T`. The states are masked
    by `rmask` unless it is empty. Either kernel output may be empty `(PARTS,
    0, 0)` to skip it. The parts depend on the shapes only, and the caller adds
    them in order: the same sums on any thread count.
    """
    steps, batch, inputs = xs.shape
    h4 = dz.shape[1]
    units = hs.shape[1] - 1
    h2, h3 = 2 * units, 3 * units
    state_rows = h2 if rh.shape[0] else h3    # dz rows that multiply the states
    size = -(-steps // PARTS)
    for part in prange(PARTS):
        operand = np.empty((units, batch if rmask.shape[0] else 0), np.float32)
        columns = np.zeros((h4, batch), np.float32)   # the bias sums per batch column
        for s in range(part * size, min(steps, (part + 1) * size)):
            step = dz.ctypes.data + s * h4 * batch * _FLOAT
            if dkernel.shape[1]:
                sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, h3, inputs, batch, 1.0, step, batch,
                      xs.ctypes.data + s * batch * inputs * _FLOAT, inputs, 1.0,
                      dkernel[part].ctypes.data, inputs)
            if drec.shape[1]:
                if rmask.shape[0]:
                    operand[:] = hs[s, :units] * rmask
                    b_data = operand.ctypes.data
                else:
                    b_data = hs.ctypes.data + s * (units + 1) * batch * _FLOAT
                first = step + (h4 - h3) * batch * _FLOAT   # reset_after: from row H
                sgemm(ROW_MAJOR, NO_TRANS, TRANS, state_rows, units, batch, 1.0, first, batch,
                      b_data, batch, 1.0, drec[part].ctypes.data, units)
                if rh.shape[0]:
                    sgemm(ROW_MAJOR, NO_TRANS, TRANS, units, units, batch, 1.0,
                          step + h2 * batch * _FLOAT, batch,
                          rh.ctypes.data + s * (units + 1) * batch * _FLOAT, batch, 1.0,
                          drec[part].ctypes.data + h2 * units * _FLOAT, units)
            columns += dz[s]
        for k in range(h4):
            dbias[part, k] = columns[k].sum()


def _gate_bias(bias, units, reset_after):
    """The bias as the gate passes add it.

    `reset_after`: `(4H,)`, the candidate's input bias, z and r (input +
    recurrent), `s_h`'s bias; otherwise the bias itself, `(3H,)` (z, r, h).
    """
    if bias is None:
        return np.zeros((4 if reset_after else 3) * units, np.float32)
    if not reset_after:
        return np.asarray(bias, np.float32)
    b_in, b_rec = rc.permute_blocks(bias[0], _X_ORDER), bias[1]
    return np.concatenate([b_in[:units], b_in[units:] + b_rec[:2 * units],
                           b_rec[2 * units:]]).astype(np.float32)


@override("gru_sequence")
def gru_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None, recurrent_mask=None,
                 *, reset_after=True, go_backwards=False, return_sequences=True,
                 zero_output_for_mask=False, activation="tanh", recurrent_activation="sigmoid"):
    """The numpy kernel's op, compiled (see the module docstring for what is covered)."""
    if not covered(x, recurrent_kernel, (x, h0, kernel, recurrent_kernel, bias),
                   activation == "tanh" and recurrent_activation == "sigmoid"):
        return NotImplemented
    batch, steps, _ = x.shape
    units = recurrent_kernel.shape[0]
    h2, h3 = 2 * units, 3 * units
    xs = x.transpose(1, 0, 2)                         # (T, B, D) in processing order
    xs = np.ascontiguousarray(xs[::-1] if go_backwards else xs)
    buf = np.empty((steps, h3, batch), np.float32)
    hs = np.empty((steps + 1, units + 1, batch), np.float32)
    hs[0, :units] = h0.T
    hs[:, units] = 1                                  # the numpy VJP's bias operand
    masks = rc.step_masks(mask, go_backwards, np.float32)
    keep = columns(masks, batch)
    rmask = columns(recurrent_mask, batch, transpose=True)
    bias = _gate_bias(bias, units, reset_after)
    with single_threaded_blas():
        if reset_after:
            w = rc.permute_blocks(kernel, _X_ORDER)   # (D, 3H), internal order h, z, r
            rec = np.empty((steps, h3, batch), np.float32)
            _gru_reset_after.forward(xs, np.ascontiguousarray(w.T),
                                     np.ascontiguousarray(recurrent_kernel.T), bias, rmask,
                                     keep, hs, buf, rec, _threads())
        else:
            w = kernel
            rec = np.empty((steps, units + 1, batch), np.float32)   # r * h_{s-1}, ones
            rec[:, units] = 1
            u_t = recurrent_kernel.T
            _gru_reset_before.forward(xs, np.ascontiguousarray(w.T),
                                      np.ascontiguousarray(u_t[:h2]),
                                      np.ascontiguousarray(u_t[h2:]), bias, rmask, keep, hs,
                                      buf, rec, _threads())
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    out = rc.sequence_output(hs[:, :units], weights, return_sequences)
    residual = (xs.transpose(0, 2, 1), buf, rec, hs, w, recurrent_kernel, masks,
                weights, rmask if recurrent_mask is not None else None)
    return (out, hs[-1, :units].T), residual


@override_vjp("gru_sequence")
def _gru_sequence_vjp(node, grads):
    attrs = node.attrs
    xs, buf, rec, hs, w, u, masks, weights, rmask = node.residual
    if not (_cblas.AVAILABLE and attrs.get("activation", "tanh") == "tanh"
            and attrs.get("recurrent_activation", "sigmoid") == "sigmoid"
            and all(a.dtype == np.float32 for a in (buf, *grads))):
        return NotImplemented
    g_out, g_h = grads
    reset_after = attrs.get("reset_after", True)
    go_backwards = attrs.get("go_backwards", False)
    steps, h3, batch = buf.shape
    units, inputs = h3 // 3, w.shape[0]
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = np.array(g_h.T, np.float32, order="C")
    if g_last is not None:
        dh += g_last
    if g_steps is None:
        g_steps = np.empty((0, units, batch), np.float32)
    xs = np.ascontiguousarray(xs.transpose(0, 2, 1))     # (T, B, D), as the forward's
    rows = 4 * units if reset_after else h3
    dz = np.empty((steps, rows, batch), np.float32)
    dx = np.empty((steps, batch, inputs) if rc.needs(node, 0) else (0, 0, 0), np.float32)
    rmask = np.empty((0, batch), np.float32) if rmask is None else np.ascontiguousarray(rmask)
    keep = columns(masks, batch)
    u, w = np.ascontiguousarray(u), np.ascontiguousarray(w)
    dkernel = drec = dbias = None
    with single_threaded_blas():
        if reset_after:
            _gru_reset_after.backward(u, w, buf, rec, hs, g_steps, rmask, keep, dh, dz, dx,
                                      _threads())
        else:
            _gru_reset_before.backward(u, w, buf, hs, g_steps, rmask, keep, dh, dz, dx,
                                       _threads())
        if rc.needs(node, 2, 3, 4):
            k_sums = np.zeros((PARTS, h3, inputs) if rc.needs(node, 2) else (PARTS, 0, 0),
                              np.float32)
            r_sums = np.zeros((PARTS, h3, units) if rc.needs(node, 3) else (PARTS, 0, 0),
                              np.float32)
            b_sums = np.empty((PARTS, rows), np.float32)
            rh = np.empty((0, 0, 0), np.float32) if reset_after else rec
            _kernel_sums(dz, xs, hs, rmask, rh, k_sums, r_sums, b_sums)
            if rc.needs(node, 2):
                dkernel = _in_order(k_sums).T
                if reset_after:
                    dkernel = rc.permute_blocks(dkernel, _X_INVERSE)
            if rc.needs(node, 3):
                drec = _in_order(r_sums).T
            if rc.needs(node, 4):
                b = _in_order(b_sums)
                dbias = (np.stack([rc.permute_blocks(b[:h3], _X_INVERSE), b[units:]])
                         if reset_after else b)
    if rc.needs(node, 0):
        dx = (dx[::-1] if go_backwards else dx).transpose(1, 0, 2)
    result = (dx if rc.needs(node, 0) else None, dh.T if rc.needs(node, 1) else None,
              dkernel, drec, dbias, None, None)
    return result[:len(node.input_refs)]


def _in_order(parts):
    """The sum of the partial sums `parts[0] + parts[1] + ...`, in that order."""
    total = parts[0].copy()
    for part in parts[1:]:
        total += part
    return total
