"""`gru_sequence` with its whole time loop compiled, forward and backward.

Built like the compiled LSTM (`recurrent_lstm.py`): each thread runs all steps
of its batch blocks (`_recurrent_blocks`) in compiled code, with per step
single-threaded OpenBLAS `sgemm` calls for the products and one fused pass for
the gates (the vectorising `sigmoid_of_negated32`/`tanh32` of `_vector_math`).
The GRU's candidate gate keeps its input and recurrent parts apart (`x_h + r
* s_h`), so a step makes two products where the LSTM makes one: the input
projection `kernel.T @ x_s` and the recurrent `recurrent_kernel.T @ h_{s-1}`.
The backward loop makes the recurrent product and the input gradient of each
step; the kernel gradients are then summed over steps in a few parts, one
`sgemm` per step and part (`_kernel_sums`).

The arrays are the numpy kernel's (`numpy_backend/recurrent_gru.py` with
`reset_after=True`), *step-major*: `buf` `(T, 3H, B)` of the activated gates
in the internal order h, z, r; `rec` `(T, 3H, B)` of the recurrent product,
whose candidate rows hold `s_h` with its bias; the states `hs` `(T + 1, H +
1, B)` over a row of ones. A step's block is then a few kilobytes of
contiguous rows. (A feature-major layout, `(rows, T * B)`, which would make
the kernel gradients one large product each, put the rows of one step 25 KB
apart at the benchmark's shapes, and the gate pass ran 4x slower from cache
conflicts.) The inputs are copied once to `(T, B, D)` in processing order; the
residual holds their `(T, D, B)` view, numpy's shape. Both kernels keep the
same residual, so either VJP works on either's.

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
from ._cblas import NO_TRANS, ROW_MAJOR, TRANS, sgemm
from ._jit import inline, jit, numba, prange
from ._recurrent_blocks import BLOCK, PARTS, blocks
from ._registry import override, override_vjp
from ._vector_math import sigmoid_of_negated32, tanh32

_FLOAT = 4
_ONE = np.float32(1.0)


def _threads():
    """numba's thread count for this call (`_jit` sets it), which `_groups` shares blocks by."""
    return numba.get_num_threads()


@inline
def _groups(batch, threads):
    """`(blocks, groups)`: the batch's `BLOCK`-column blocks, shared by one group a thread.

    A thread runs a step for all blocks of its group before the next step, so
    that on fewer threads than blocks it reads whole rows of the step arrays
    (a thread that ran all steps of one block, then of the next, read 32 of
    every 64 or 128 columns, and took up to 1.6x the time per column at batch
    128). Each block's computation is the same in any group, so the grouping,
    which follows the thread count, never changes a result.
    """
    count = blocks(batch)
    return count, max(1, min(count, threads))


@inline
def _forward_step(xs, wt, ut, bias, rmask, keep, hs, buf, rec, operand, s, j0, j1):
    """Step `s` of the batch columns `[j0, j1)` (see `_forward`)."""
    batch, inputs = xs.shape[1], xs.shape[2]
    units = ut.shape[1]
    h2, h3 = 2 * units, 3 * units
    width = j1 - j0
    # buf[s] (3H, width) = kernel.T (rows h, z, r) @ xs[s, j0:j1].T
    sgemm(ROW_MAJOR, NO_TRANS, TRANS, h3, width, inputs, 1.0, wt.ctypes.data, inputs,
          xs.ctypes.data + (s * batch + j0) * inputs * _FLOAT, inputs, 0.0,
          buf.ctypes.data + (s * h3 * batch + j0) * _FLOAT, batch)
    if rmask.shape[0]:    # the product's operand: a copy with the masked states
        operand[:, :width] = hs[s, :units, j0:j1] * rmask[:, j0:j1]
        b_data, ldb = operand.ctypes.data, BLOCK
    else:
        b_data, ldb = hs.ctypes.data + (s * (units + 1) * batch + j0) * _FLOAT, batch
    # rec[s] (3H, width) = recurrent_kernel.T (rows z, r, h) @ h_{s-1}
    sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, h3, width, units, 1.0, ut.ctypes.data, units,
          b_data, ldb, 0.0, rec.ctypes.data + (s * h3 * batch + j0) * _FLOAT, batch)
    # unsigned column indices let LLVM vectorise (see `recurrent_lstm._forward_block`)
    c0, c1 = np.uint64(j0), np.uint64(j1)
    for r in range(units):
        rz, rr = units + r, h2 + r
        b_x, b_z, b_r, b_s = bias[r], bias[rz], bias[rr], bias[h3 + r]
        for j in range(c0, c1):
            z = sigmoid_of_negated32(-(buf[s, rz, j] + rec[s, r, j] + b_z))
            g = sigmoid_of_negated32(-(buf[s, rr, j] + rec[s, rz, j] + b_r))
            s_h = rec[s, rr, j] + b_s
            hh = tanh32(buf[s, r, j] + b_x + g * s_h)
            rec[s, rr, j] = s_h
            buf[s, r, j], buf[s, rz, j], buf[s, rr, j] = hh, z, g
            hs[s + 1, r, j] = hh + z * (hs[s, r, j] - hh)
        if keep.shape[0]:    # masked steps keep the state
            for j in range(c0, c1):
                if keep[s, j] == 0:
                    hs[s + 1, r, j] = hs[s, r, j]


@jit(parallel=True)
def _forward(xs, wt, ut, bias, rmask, keep, hs, buf, rec, threads):
    """Runs all steps of a GRU over the inputs `xs` `(T, B, D)` in processing order.

    `wt` `(3H, D)` is the kernel's transpose in the internal order h, z, r,
    `ut` `(3H, H)` the recurrent kernel's (order z, r, h); `bias` `(4H,)` holds
    the candidate's input bias, the summed z and r biases, and the candidate's
    recurrent bias. Writes the activated gates to `buf` `(T, 3H, B)`, the
    recurrent products (with `s_h`'s bias) to `rec` `(T, 3H, B)` and the
    states to `hs` `(T + 1, H + 1, B)` from `hs[0, :H]`. `rmask` `(H, B)`
    multiplies `h_{s-1}` in the product (recurrent dropout); `keep` `(T, B)`
    holds the mask (0 keeps the state). Either is empty when absent. `threads`:
    see `_groups`.
    """
    steps, batch = xs.shape[0], xs.shape[1]
    units = ut.shape[1]
    count, groups = _groups(batch, threads)
    for group in prange(groups):
        operand = np.empty((units, BLOCK if rmask.shape[0] else 0), np.float32)
        for s in range(steps):
            for block in range(group * count // groups, (group + 1) * count // groups):
                j0 = block * BLOCK
                _forward_step(xs, wt, ut, bias, rmask, keep, hs, buf, rec, operand, s, j0,
                              min(j0 + BLOCK, batch))


@inline
def _backward_step(u, w, buf, rec, hs, rmask, keep, dz, dx, dh, dh_next, s, g0, j0, j1):
    """Step `s` of the batch columns `[j0, j1)` (see `_backward`); `dh` and `dh_next`
    hold the columns from `g0` on."""
    h3, batch = buf.shape[1], buf.shape[2]
    units, inputs = u.shape[0], w.shape[0]
    h2 = 2 * units
    width = j1 - j0
    c0, c1 = np.uint64(j0), np.uint64(j1)    # unsigned: see `_forward_step`
    g = np.uint64(g0)
    for r in range(units):
        rz, rr = units + r, h2 + r
        for j in range(c0, c1):
            # m = 0 on a masked step: no gate gradients, dh passes through
            m = keep[s, j] if keep.shape[0] else _ONE
            dh_k = dh[r, j - g] * m
            hh, z, gate_r = buf[s, r, j], buf[s, rz, j], buf[s, rr, j]
            a = dh_k * (_ONE - z) * (_ONE - hh * hh)    # candidate pre-activation
            dz[s, r, j] = a
            dz[s, rz, j] = dh_k * (hs[s, r, j] - hh) * z * (_ONE - z)
            dz[s, rr, j] = a * rec[s, rr, j] * gate_r * (_ONE - gate_r)
            dz[s, h3 + r, j] = a * gate_r                   # s_h
    step = dz.ctypes.data + (s * (h3 + units) * batch + j0) * _FLOAT
    # dh_next (H, width) = recurrent_kernel @ dz[s, H:4H] (rows z, r, s_h)
    sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, h3, 1.0, u.ctypes.data, h3,
          step + units * batch * _FLOAT, batch, 0.0,
          dh_next.ctypes.data + (j0 - g0) * _FLOAT, dh_next.shape[1])
    if dx.shape[0]:
        # dx[s, j0:j1] (width, D) = dz[s, :3H].T @ kernel.T (internal order)
        sgemm(ROW_MAJOR, TRANS, TRANS, width, inputs, h3, 1.0, step, batch,
              w.ctypes.data, h3, 0.0, dx.ctypes.data + (s * batch + j0) * inputs * _FLOAT,
              inputs)
    for r in range(units):
        rz = units + r
        for j in range(c0, c1):
            k = j - g
            m = keep[s, j] if keep.shape[0] else _ONE
            d = dh_next[r, k] * rmask[r, j] if rmask.shape[0] else dh_next[r, k]
            dh_next[r, k] = d + dh[r, k] * m * buf[s, rz, j] + dh[r, k] * (_ONE - m)


@jit(parallel=True)
def _backward(u, w, buf, rec, hs, g_steps, rmask, keep, dh, dz, dx, threads):
    """Runs all steps in reverse, writing the gate gradients of step `s` to `dz[s]`.

    `dz` `(T, 4H, B)` rows: the candidate's pre-activation, z, r (the input
    side, rows 0:3H, in the internal order h, z, r) and the candidate's
    recurrent part `s_h` (rows H:4H are the recurrent side, order z, r, h).
    `u` `(H, 3H)` is the recurrent kernel, `w` `(D, 3H)` the kernel in internal
    order; `g_steps` the output gradients per step `(T, H, B)` (or `(0, H, B)`
    when only the last output has one, already in `dh`); `rmask` and `keep` as
    for `_forward`. `dh` `(H, B)` holds the final state's gradient and receives
    the initial state's. `dx` `(T, B, D)` receives the input gradient in
    processing order, unless it is empty. `threads`: see `_groups`.
    """
    steps, batch = buf.shape[0], buf.shape[2]
    units = u.shape[0]
    count, groups = _groups(batch, threads)
    for group in prange(groups):
        b0, b1 = group * count // groups, (group + 1) * count // groups
        g0, g1 = b0 * BLOCK, min(b1 * BLOCK, batch)
        state = np.empty((units, g1 - g0), np.float32)
        state_next = np.empty((units, g1 - g0), np.float32)
        state[:] = dh[:, g0:g1]
        for s in range(steps - 1, -1, -1):
            if g_steps.shape[0]:
                state += g_steps[s, :, g0:g1]
            for block in range(b0, b1):
                j0 = block * BLOCK
                _backward_step(u, w, buf, rec, hs, rmask, keep, dz, dx, state, state_next, s,
                               g0, j0, min(j0 + BLOCK, batch))
            state, state_next = state_next, state
        dh[:, g0:g1] = state


@jit(parallel=True)
def _kernel_sums(dz, xs, hs, rmask, dkernel, drec, dbias):
    """The kernel, recurrent kernel and bias gradients, summed over steps in `PARTS` parts.

    Part `p` adds the steps of its range into `dkernel[p]` `(3H, D)` (`dz[s, :3H]
    @ xs[s]`) and `drec[p]` `(3H, H)` (`dz[s, H:] @ h_{s-1}.T`, the states
    masked by `rmask` if it is not empty), which start as zeros, and writes
    their sum of `dz[s]` over steps and batch to `dbias[p]` `(4H,)`. Either
    kernel output may be empty `(PARTS, 0, 0)` to skip it. The parts depend on
    the shapes only, and the caller adds them in order: the same sums on any
    thread count.
    """
    steps, batch, inputs = xs.shape
    h4 = dz.shape[1]
    units = h4 // 4
    h3 = 3 * units
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
                sgemm(ROW_MAJOR, NO_TRANS, TRANS, h3, units, batch, 1.0,
                      step + units * batch * _FLOAT, batch, b_data, batch, 1.0,
                      drec[part].ctypes.data, units)
            columns += dz[s]
        for k in range(h4):
            dbias[part, k] = columns[k].sum()


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
    batch, steps, _ = x.shape
    units = recurrent_kernel.shape[0]
    h3 = 3 * units
    xs = x.transpose(1, 0, 2)                         # (T, B, D) in processing order
    xs = np.ascontiguousarray(xs[::-1] if go_backwards else xs)
    w = rc.permute_blocks(kernel, _X_ORDER)           # (D, 3H), internal order h, z, r
    buf = np.empty((steps, h3, batch), np.float32)
    rec = np.empty((steps, h3, batch), np.float32)
    hs = np.empty((steps + 1, units + 1, batch), np.float32)
    hs[0, :units] = h0.T
    hs[:, units] = 1                                  # the numpy VJP's bias operand
    masks = rc.step_masks(mask, go_backwards, np.float32)
    rmask = _columns(recurrent_mask, batch, transpose=True)
    with single_threaded_blas():
        _forward(xs, np.ascontiguousarray(w.T), np.ascontiguousarray(recurrent_kernel.T),
                 _gate_bias(bias, units), rmask, _columns(masks, batch), hs, buf, rec,
                 _threads())
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    out = rc.sequence_output(hs[:, :units], weights, return_sequences)
    residual = (xs.transpose(0, 2, 1), buf, rec, hs, w, recurrent_kernel, masks,
                weights, rmask if recurrent_mask is not None else None)
    return (out, hs[-1, :units].T), residual


@override_vjp("gru_sequence")
def _gru_sequence_vjp(node, grads):
    attrs = node.attrs
    xs, buf, rec, hs, w, u, masks, weights, rmask = node.residual
    if not (_cblas.AVAILABLE and attrs.get("reset_after", True)
            and attrs.get("activation", "tanh") == "tanh"
            and attrs.get("recurrent_activation", "sigmoid") == "sigmoid"
            and all(a.dtype == np.float32 for a in (buf, *grads))):
        return NotImplemented
    g_out, g_h = grads
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
    dz = np.empty((steps, 4 * units, batch), np.float32)
    dx = np.empty((steps, batch, inputs) if rc.needs(node, 0) else (0, 0, 0), np.float32)
    rmask = np.empty((0, batch), np.float32) if rmask is None else np.ascontiguousarray(rmask)
    dkernel = drec = dbias = None
    with single_threaded_blas():
        _backward(np.ascontiguousarray(u), np.ascontiguousarray(w), buf, rec, hs, g_steps,
                  rmask, _columns(masks, batch), dh, dz, dx, _threads())
        if rc.needs(node, 2, 3, 4):
            k_sums = np.zeros((PARTS, h3, inputs) if rc.needs(node, 2) else (PARTS, 0, 0),
                              np.float32)
            r_sums = np.zeros((PARTS, h3, units) if rc.needs(node, 3) else (PARTS, 0, 0),
                              np.float32)
            b_sums = np.empty((PARTS, 4 * units), np.float32)
            _kernel_sums(dz, xs, hs, rmask, k_sums, r_sums, b_sums)
            if rc.needs(node, 2):
                dkernel = rc.permute_blocks(_in_order(k_sums).T, _X_INVERSE)
            if rc.needs(node, 3):
                drec = _in_order(r_sums).T
            if rc.needs(node, 4):
                b = _in_order(b_sums)
                dbias = np.stack([rc.permute_blocks(b[:h3], _X_INVERSE), b[units:]])
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
