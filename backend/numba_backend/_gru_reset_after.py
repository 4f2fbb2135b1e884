"""The compiled time loops of `gru_sequence` with `reset_after=True` (see `recurrent_gru`).

Per step and batch block: the input projection and the recurrent product
(`sgemm` each), then one fused pass for z, r, the candidate `tanh(x_h + b_x +
r * s_h)` and the new state. The backward loop writes the step gradients
`dz`, makes the recurrent product of the state gradient and the step's input
gradient.
"""

import numpy as np

from ._cblas import NO_TRANS, ROW_MAJOR, TRANS, sgemm
from ._jit import inline, jit, prange
from ._recurrent_blocks import BLOCK, groups
from ._vector_math import sigmoid_of_negated32, tanh32

_FLOAT = 4
_ONE = np.float32(1.0)


@inline
def _forward_step(xs, wt, ut, bias, rmask, keep, hs, buf, rec, operand, s, j0, j1):
    """Step `s` of the batch columns `[j0, j1)` (see `forward`)."""
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
    # unsigned column indices need no check for negative values: LLVM vectorises the loops
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
def forward(xs, wt, ut, bias, rmask, keep, hs, buf, rec, threads):
    """Runs all steps of a GRU over the inputs `xs` `(T, B, D)` in processing order.

    `wt` `(3H, D)` is the kernel's transpose in the internal order h, z, r,
    `ut` `(3H, H)` the recurrent kernel's (order z, r, h); `bias` `(4H,)` holds
    the candidate's input bias, the summed z and r biases, and the candidate's
    recurrent bias. Writes the activated gates to `buf` `(T, 3H, B)`, the
    recurrent products (with `s_h`'s bias) to `rec` `(T, 3H, B)` and the
    states to `hs` `(T + 1, H + 1, B)` from `hs[0, :H]`. `rmask` `(H, B)`
    multiplies `h_{s-1}` in the product (recurrent dropout); `keep` `(T, B)`
    holds the mask (0 keeps the state). Either is empty when absent. `threads`:
    see `_recurrent_blocks.groups`.
    """
    steps, batch = xs.shape[0], xs.shape[1]
    units = ut.shape[1]
    count, group_count = groups(batch, threads)
    for group in prange(group_count):
        operand = np.empty((units, BLOCK if rmask.shape[0] else 0), np.float32)
        for s in range(steps):
            for block in range(group * count // group_count,
                               (group + 1) * count // group_count):
                j0 = block * BLOCK
                _forward_step(xs, wt, ut, bias, rmask, keep, hs, buf, rec, operand, s, j0,
                              min(j0 + BLOCK, batch))


@inline
def _backward_step(u, w, buf, rec, hs, rmask, keep, dz, dx, dh, dh_next, s, g0, j0, j1):
    """Step `s` of the batch columns `[j0, j1)` (see `backward`); `dh` and `dh_next`
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
def backward(u, w, buf, rec, hs, g_steps, rmask, keep, dh, dz, dx, threads):
    """Runs all steps in reverse, writing the gate gradients of step `s` to `dz[s]`.

    `dz` `(T, 4H, B)` rows: the candidate's pre-activation, z, r (the input
    side, rows 0:3H, in the internal order h, z, r) and the candidate's
    recurrent part `s_h` (rows H:4H are the recurrent side, order z, r, h).
    `u` `(H, 3H)` is the recurrent kernel, `w` `(D, 3H)` the kernel in internal
    order; `g_steps` the output gradients per step `(T, H, B)` (or `(0, H, B)`
    when only the last output has one, already in `dh`); `rmask` and `keep` as
    for `_forward`. `dh` `(H, B)` holds the final state's gradient and receives
    the initial state's. `dx` `(T, B, D)` receives the input gradient in
    processing order, unless it is empty. `threads`: see `_recurrent_blocks.groups`.
    """
    steps, batch = buf.shape[0], buf.shape[2]
    units = u.shape[0]
    count, group_count = groups(batch, threads)
    for group in prange(group_count):
        b0 = group * count // group_count
        b1 = (group + 1) * count // group_count
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
