"""The compiled time loops of `gru_sequence` with `reset_after=False` (see `recurrent_gru`).

Here the reset gate acts before the candidate's recurrent product,
`tanh(x_h + (r * h) @ recurrent_kernel_h + b_h)`, so a step makes three
products (`sgemm` each): the input projection, the z and r part of the
recurrent product, then, after the pass that computes z, r and `r * h`, the
candidate's part. The backward loop mirrors them: the candidate's gradient
goes back through its product before the reset gate's can be formed. The
recurrent products are not kept: each group has a scratch block for them.
"""

import numpy as np

from ._cblas import NO_TRANS, ROW_MAJOR, TRANS, sgemm
from ._jit import inline, jit, prange
from ._recurrent_blocks import BLOCK, groups
from ._vector_math import sigmoid_of_negated32, tanh32

_FLOAT = 4
_ONE = np.float32(1.0)


@inline
def _forward_step(xs, wt, u_zr, u_h, bias, rmask, keep, hs, buf, rh, operand, rec, s, j0, j1):
    """Step `s` of the batch columns `[j0, j1)` (see `forward`)."""
    batch, inputs = xs.shape[1], xs.shape[2]
    units = u_h.shape[0]
    h2, h3 = 2 * units, 3 * units
    width = j1 - j0
    # buf[s] (3H, width) = kernel.T (rows z, r, h) @ xs[s, j0:j1].T
    sgemm(ROW_MAJOR, NO_TRANS, TRANS, h3, width, inputs, 1.0, wt.ctypes.data, inputs,
          xs.ctypes.data + (s * batch + j0) * inputs * _FLOAT, inputs, 0.0,
          buf.ctypes.data + (s * h3 * batch + j0) * _FLOAT, batch)
    if rmask.shape[0]:    # the product's operand: a copy with the masked states
        operand[:, :width] = hs[s, :units, j0:j1] * rmask[:, j0:j1]
        b_data, ldb = operand.ctypes.data, BLOCK
    else:
        b_data, ldb = hs.ctypes.data + (s * (units + 1) * batch + j0) * _FLOAT, batch
    # rec (2H, width) = recurrent_kernel[:, :2H].T @ h_{s-1}
    sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, h2, width, units, 1.0, u_zr.ctypes.data, units,
          b_data, ldb, 0.0, rec.ctypes.data, BLOCK)
    # unsigned column indices need no check for negative values: LLVM vectorises the loops
    c0, c1 = np.uint64(j0), np.uint64(j1)
    for r in range(units):
        rr = units + r
        b_z, b_r = bias[r], bias[rr]
        for j in range(c0, c1):
            k = j - c0
            z = sigmoid_of_negated32(-(buf[s, r, j] + rec[r, k] + b_z))
            g = sigmoid_of_negated32(-(buf[s, rr, j] + rec[rr, k] + b_r))
            buf[s, r, j], buf[s, rr, j] = z, g
            h_in = hs[s, r, j] * rmask[r, j] if rmask.shape[0] else hs[s, r, j]
            rh[s, r, j] = g * h_in
    # rec[:H] (H, width) = recurrent_kernel[:, 2H:].T @ (r * h_{s-1})
    sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, units, 1.0, u_h.ctypes.data, units,
          rh.ctypes.data + (s * (units + 1) * batch + j0) * _FLOAT, batch, 0.0,
          rec.ctypes.data, BLOCK)
    for r in range(units):
        rh_ = h2 + r
        b_h = bias[rh_]
        for j in range(c0, c1):
            hh = tanh32(buf[s, rh_, j] + rec[r, j - c0] + b_h)
            buf[s, rh_, j] = hh
            hs[s + 1, r, j] = hh + buf[s, r, j] * (hs[s, r, j] - hh)
        if keep.shape[0]:    # masked steps keep the state
            for j in range(c0, c1):
                if keep[s, j] == 0:
                    hs[s + 1, r, j] = hs[s, r, j]


@jit(parallel=True)
def forward(xs, wt, u_zr, u_h, bias, rmask, keep, hs, buf, rh, threads):
    """Runs all steps of a GRU over the inputs `xs` `(T, B, D)` in processing order.

    `wt` `(3H, D)` is the kernel's transpose (rows z, r, h), `u_zr` `(2H, H)`
    and `u_h` `(H, H)` the transposed parts of the recurrent kernel, `bias`
    `(3H,)`. Writes the activated gates to `buf` `(T, 3H, B)`, `r * h_{s-1}`
    to `rh[:, :H]` `(T, H + 1, B)` and the states to `hs` `(T + 1, H + 1, B)`
    from `hs[0, :H]`. `rmask`, `keep` and `threads` as for
    `_gru_reset_after.forward`.
    """
    steps, batch = xs.shape[0], xs.shape[1]
    units = u_h.shape[0]
    count, group_count = groups(batch, threads)
    for group in prange(group_count):
        operand = np.empty((units, BLOCK if rmask.shape[0] else 0), np.float32)
        rec = np.empty((2 * units, BLOCK), np.float32)
        for s in range(steps):
            for block in range(group * count // group_count,
                               (group + 1) * count // group_count):
                j0 = block * BLOCK
                _forward_step(xs, wt, u_zr, u_h, bias, rmask, keep, hs, buf, rh, operand, rec,
                              s, j0, min(j0 + BLOCK, batch))


@inline
def _backward_step(u, w, buf, hs, rmask, keep, dz, dx, dh, dh_next, t2, s, g0, j0, j1):
    """Step `s` of the batch columns `[j0, j1)` (see `backward`); `dh` and `dh_next`
    hold the columns from `g0` on."""
    h3, batch = buf.shape[1], buf.shape[2]
    units, inputs = u.shape[0], w.shape[0]
    h2 = 2 * units
    width = j1 - j0
    c0, c1 = np.uint64(j0), np.uint64(j1)    # unsigned: see `_forward_step`
    g = np.uint64(g0)
    for r in range(units):
        ra = h2 + r
        for j in range(c0, c1):
            # m = 0 on a masked step: no gate gradients, dh passes through
            m = keep[s, j] if keep.shape[0] else _ONE
            dh_k = dh[r, j - g] * m
            z, hh = buf[s, r, j], buf[s, ra, j]
            dz[s, r, j] = dh_k * (hs[s, r, j] - hh) * z * (_ONE - z)
            dz[s, ra, j] = dh_k * (_ONE - z) * (_ONE - hh * hh)   # candidate pre-activation
    step = dz.ctypes.data + (s * h3 * batch + j0) * _FLOAT
    # t2 (H, width) = recurrent_kernel[:, 2H:] @ dz[s, 2H:], the gradient of r * h_{s-1}
    sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, units, 1.0, u.ctypes.data + h2 * _FLOAT,
          h3, step + h2 * batch * _FLOAT, batch, 0.0, t2.ctypes.data, BLOCK)
    for r in range(units):
        rr = units + r
        for j in range(c0, c1):
            gate_r = buf[s, rr, j]
            h_in = hs[s, r, j] * rmask[r, j] if rmask.shape[0] else hs[s, r, j]
            dz[s, rr, j] = t2[r, j - c0] * h_in * gate_r * (_ONE - gate_r)
    # dh_next (H, width) = recurrent_kernel[:, :2H] @ dz[s, :2H]
    sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, units, width, h2, 1.0, u.ctypes.data, h3,
          step, batch, 0.0, dh_next.ctypes.data + (j0 - g0) * _FLOAT, dh_next.shape[1])
    if dx.shape[0]:
        # dx[s, j0:j1] (width, D) = dz[s].T @ kernel.T
        sgemm(ROW_MAJOR, TRANS, TRANS, width, inputs, h3, 1.0, step, batch,
              w.ctypes.data, h3, 0.0, dx.ctypes.data + (s * batch + j0) * inputs * _FLOAT,
              inputs)
    for r in range(units):
        rr = units + r
        for j in range(c0, c1):
            k = j - g
            m = keep[s, j] if keep.shape[0] else _ONE
            d = dh_next[r, k] + t2[r, j - c0] * buf[s, rr, j]
            if rmask.shape[0]:
                d *= rmask[r, j]
            dh_next[r, k] = d + dh[r, k] * m * buf[s, r, j] + dh[r, k] * (_ONE - m)


@jit(parallel=True)
def backward(u, w, buf, hs, g_steps, rmask, keep, dh, dz, dx, threads):
    """Runs all steps in reverse, writing the gate gradients of step `s` to `dz[s]`.

    `dz` `(T, 3H, B)` rows: z, r and the candidate's pre-activation, both
    the input side and (with the states, and `r * h` for the candidate) the
    recurrent side. `u` `(H, 3H)` is the recurrent kernel, `w` `(D, 3H)` the
    kernel; the other arguments as for `_gru_reset_after.backward`.
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
        t2 = np.empty((units, BLOCK), np.float32)
        state[:] = dh[:, g0:g1]
        for s in range(steps - 1, -1, -1):
            if g_steps.shape[0]:
                state += g_steps[s, :, g0:g1]
            for block in range(b0, b1):
                j0 = block * BLOCK
                _backward_step(u, w, buf, hs, rmask, keep, dz, dx, state, state_next, t2, s,
                               g0, j0, min(j0 + BLOCK, batch))
            state, state_next = state_next, state
        dh[:, g0:g1] = state
