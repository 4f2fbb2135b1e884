"""`gru_sequence`: a whole GRU layer as one op, with backpropagation through time.

Keras's gates are `z, r, h` (kernel columns in that order). With
`reset_after=True` (Keras's default; bias `(2, 3H)`: input bias, recurrent
bias):

    x_t = x_t @ kernel + b_in;  s_t = h_{t-1} @ recurrent_kernel + b_rec
    z, r = recurrent_activation(x_z + s_z, x_r + s_r)
    hh = activation(x_h + r * s_h);  h_t = z * h_{t-1} + (1 - z) * hh

With `reset_after=False` (bias `(3H,)`, added to the input projection), the
reset gate acts before the product: `hh = activation(x_h + (r * h_{t-1}) @
recurrent_kernel_h)`, a second small GEMM per step.

The layout follows `recurrent_common`; biases multiply a row of ones under the
state (`reset_after=True`) or under `h` and `r * h` (`reset_after=False`), so
they cost nothing in the loop. With `reset_after=True` the input-side rows are
ordered `h, z, r` internally, so that the input-side and recurrent-side step
gradients are two overlapping contiguous row ranges of one array.
"""

import numpy as np

from . import recurrent_common as rc
from ._registry import define
from .recurrent_blas import single_threaded_blas

_X_ORDER = (2, 0, 1)      # reset_after: internal input-side rows h, z, r
_X_INVERSE = (1, 2, 0)


def _recurrent_with_bias(u_t, bias_col):
    """`(rows, H + 1)`: the transposed recurrent kernel with a bias column."""
    out = np.zeros((u_t.shape[0], u_t.shape[1] + 1), u_t.dtype)
    out[:, :-1] = u_t
    if bias_col is not None:
        out[:, -1] = bias_col
    return out


def _ones_under(batch, steps, units, dtype):
    """`(steps, units + 1, batch)` with a last row of ones (states go above it)."""
    a = np.empty((steps, units + 1, batch), dtype)
    a[:, units] = 1
    return a


@define("gru_sequence", shape=rc.sequence_shape(1), num_outputs=2, residual=True)
@single_threaded_blas()
def gru_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None, recurrent_mask=None,
                 *, reset_after=True, go_backwards=False, return_sequences=True,
                 zero_output_for_mask=False, activation="tanh", recurrent_activation="sigmoid"):
    """Runs a GRU over `x` `(B, T, D)`; returns `(outputs, h_T)`.

    Arguments as for `lstm_sequence`, with one state and `reset_after`
    selecting the GRU variant (and the bias shape, `(2, 3H)` or `(3H,)`).
    """
    batch, steps, _ = x.shape
    units = recurrent_kernel.shape[0]
    h2, h3 = 2 * units, 3 * units
    dtype = np.result_type(x, recurrent_kernel)
    act, _ = rc.activation(activation)
    rec_act, _ = rc.activation(recurrent_activation)
    xs = rc.steps_first(x, go_backwards)
    masks = rc.step_masks(mask, go_backwards, dtype)
    rmask = None if recurrent_mask is None else np.asarray(recurrent_mask, dtype).T
    hs = _ones_under(batch, steps + 1, units, dtype)
    hs[0, :units] = h0.T
    h_in = None if rmask is None else np.ones((units + 1, batch), dtype)
    if reset_after:
        w = rc.permute_blocks(kernel, _X_ORDER)
        b_in = b_rec = None
        if bias is not None:
            b_in, b_rec = rc.permute_blocks(bias[0], _X_ORDER), bias[1].copy()
            b_rec[:h2] += b_in[units:]          # z and r: both biases add up
        ut = _recurrent_with_bias(recurrent_kernel.T, b_rec)
        # buf[s] rows: h (candidate), z, r; rec[s]: the recurrent product z, r, h.
        buf = np.matmul(w.T, xs)
        if b_in is not None:
            buf[:, :units] += b_in[:units, None]
        rec = np.empty((steps, h3, batch), dtype)
    else:
        w = kernel
        u_zr = _recurrent_with_bias(recurrent_kernel[:, :h2].T,
                                    None if bias is None else bias[:h2])
        u_h = _recurrent_with_bias(recurrent_kernel[:, h2:].T,
                                   None if bias is None else bias[h2:])
        buf = np.matmul(kernel.T, xs)             # rows z, r, h
        rec = np.empty((h2, batch), dtype)
        rh = _ones_under(batch, steps, units, dtype)   # r * h_{t-1}, then ones
        rec_h = np.empty((units, batch), dtype)
    tmp = np.empty((units, batch), dtype)
    for s in range(steps):
        h = hs[s]
        if h_in is not None:
            np.multiply(h[:units], rmask, out=h_in[:units])
            h = h_in
        if reset_after:
            np.matmul(ut, h, out=rec[s])
            hh, zr = buf[s, :units], buf[s, units:]
            zr += rec[s, :h2]
            rec_act(zr)
            np.multiply(zr[units:], rec[s, h2:], out=tmp)     # r * s_h
            hh += tmp
        else:
            np.matmul(u_zr, h, out=rec)
            zr, hh = buf[s, :h2], buf[s, h2:]
            zr += rec
            rec_act(zr)
            np.multiply(zr[units:], h[:units], out=rh[s, :units])
            np.matmul(u_h, rh[s], out=rec_h)
            hh += rec_h
        act(hh)
        h_new = hs[s + 1, :units]
        np.subtract(hs[s, :units], hh, out=h_new)            # h_{t-1} - hh
        h_new *= zr[:units]
        h_new += hh
        if masks is not None:
            np.copyto(h_new, hs[s, :units], where=masks[s] == 0)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    states = hs[:, :units]
    out = rc.sequence_output(states, weights, return_sequences)
    residual = (xs, buf, rec if reset_after else rh, hs, w, recurrent_kernel, masks, weights,
                rmask)
    return (out, states[-1].T), residual


@gru_sequence.defvjp
@single_threaded_blas()
def _gru_sequence_vjp(node, grads):
    g_out, g_h = grads
    xs, buf, rec, hs, w, u, masks, weights, rmask = node.residual
    attrs = node.attrs
    reset_after = attrs.get("reset_after", True)
    _, act_grad = rc.activation(attrs.get("activation", "tanh"))
    _, rec_grad = rc.activation(attrs.get("recurrent_activation", "sigmoid"))
    steps, units, batch = buf.shape[0], hs.shape[1] - 1, hs.shape[2]
    h2, h3 = 2 * units, 3 * units
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = g_h.T.copy()
    if g_last is not None:
        dh += g_last
    dtype = dh.dtype
    # Step gradients. reset_after: rows a, z, r, a * r where a = dL/d(candidate
    # pre-activation); input side rows 0:3H, recurrent side rows H:4H.
    # Otherwise rows z, r, a (both sides).
    dz = np.empty((steps, 4 * units if reset_after else h3, batch), dtype)
    d_zr = np.empty((h2, batch), dtype)
    t1, t2 = np.empty((units, batch), dtype), np.empty((units, batch), dtype)
    dh_new = np.empty((units, batch), dtype)
    rows_z, rows_a = (slice(units, h2), slice(0, units)) if reset_after else \
        (slice(0, units), slice(h2, h3))
    rows_r = slice(h2, h3) if reset_after else slice(units, h2)
    for s in range(steps - 1, -1, -1):
        if g_steps is not None:
            dh += g_steps[s]
        if masks is not None:
            keep = masks[s]
            dh_carry = dh * (1 - keep)
            dh *= keep
        gates = buf[s]
        hh = gates[:units] if reset_after else gates[h2:]
        z, r = (gates[units:h2], gates[h2:]) if reset_after else (gates[:units], gates[units:h2])
        h_prev = hs[s, :units]
        rec_grad(gates[units:] if reset_after else gates[:h2], out=d_zr)
        # dz_z = dh * (h_{t-1} - hh) * z'
        np.subtract(h_prev, hh, out=t1)
        t1 *= d_zr[:units]
        np.multiply(t1, dh, out=dz[s, rows_z])
        # a = dh * (1 - z) * activation'(hh)
        act_grad(hh, out=t1)
        np.subtract(1, z, out=t2)
        t1 *= t2
        a = dz[s, rows_a]
        np.multiply(t1, dh, out=a)
        if reset_after:
            np.multiply(a, rec[s, h2:], out=t1)              # dL/dr = a * s_h * r'
            np.multiply(t1, d_zr[units:], out=dz[s, rows_r])
            np.multiply(a, r, out=dz[s, h3:])
            np.matmul(u, dz[s, units:], out=dh_new)
        else:
            np.matmul(u[:, h2:], a, out=t2)                  # dL/d(r * h_in)
            h_in = h_prev if rmask is None else h_prev * rmask
            np.multiply(t2, h_in, out=t1)
            np.multiply(t1, d_zr[units:], out=dz[s, rows_r])
            np.matmul(u[:, :h2], dz[s, :h2], out=dh_new)
            t2 *= r
            dh_new += t2
        if rmask is not None:
            dh_new *= rmask
        np.multiply(dh, z, out=t1)
        np.add(dh_new, t1, out=dh)
        if masks is not None:
            dh += dh_carry
    return _input_grads(node, rc.steps_matrix(dz), dh)


def _input_grads(node, dz, dh):
    """Gradients of all inputs from the step gradients `dz` `(rows, T * B)`."""
    xs, buf, rec, hs, w, u, masks, weights, rmask = node.residual
    reset_after = node.attrs.get("reset_after", True)
    steps, units, batch = buf.shape[0], hs.shape[1] - 1, hs.shape[2]
    h2, h3 = 2 * units, 3 * units
    dx = dkernel = drec = dbias = None
    x_rows = dz[:h3]
    if rc.needs(node, 0):
        dx = rc.input_gradient(x_rows, w, node.attrs.get("go_backwards", False), batch, steps)
    if rc.needs(node, 2):
        dkernel = rc.contract_steps(x_rows, xs).T
        if reset_after:
            dkernel = rc.permute_blocks(dkernel, _X_INVERSE)
    if rc.needs(node, 3, 4):
        states = hs[:steps]
        if rmask is not None:
            states = states.copy()
            states[:, :units] *= rmask
        if reset_after:
            rec_grads = rc.contract_steps(dz[units:], states).T
            if rc.needs(node, 4):
                dbias = np.stack([rc.permute_blocks(x_rows.sum(axis=1), _X_INVERSE),
                                  rec_grads[-1]])
        else:
            rec_grads = np.concatenate([rc.contract_steps(dz[:h2], states),
                                        rc.contract_steps(dz[h2:], rec)]).T
            dbias = rec_grads[-1]
        drec = rec_grads[:units]
    if not rc.needs(node, 4):
        dbias = None
    dh0 = dh.T if rc.needs(node, 1) else None
    grads = (dx, dh0, dkernel, drec, dbias, None, None)
    return grads[:len(node.input_refs)]
