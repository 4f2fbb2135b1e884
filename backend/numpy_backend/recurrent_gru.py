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
from .blas_threads import single_threaded_blas

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
@rc.saturating
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
        b_x = None if b_in is None else b_in[:units, None]   # the candidate's input bias
        # buf[s] rows: h (candidate), z, r; rec[s]: the recurrent product z, r, h.
        rec = np.empty((steps, h3, batch), dtype)
    else:
        w = kernel
        u_zr = _recurrent_with_bias(recurrent_kernel[:, :h2].T,
                                    None if bias is None else bias[:h2])
        u_h = _recurrent_with_bias(recurrent_kernel[:, h2:].T,
                                   None if bias is None else bias[h2:])
        b_x = None                                 # buf rows: z, r, h
        rec = np.empty((h2, batch), dtype)
        rh = _ones_under(batch, steps, units, dtype)   # r * h_{t-1}, then ones
        rec_h = np.empty((units, batch), dtype)
    wt = w.T.copy()
    buf = np.empty((steps, h3, batch), dtype)
    tmp = np.empty((units, batch), dtype)
    for s in range(steps):
        if s % rc.CHUNK == 0:   # input projection of the next chunk of steps
            stop = min(s + rc.CHUNK, steps)
            np.matmul(wt, xs[s:stop], out=buf[s:stop])
            if b_x is not None:
                buf[s:stop, :units] += b_x
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
    # Otherwise rows z, r, a (both sides; the candidate's recurrent side
    # contracts with r * h instead of h).
    rows = 4 * units if reset_after else h3
    sums = rc.GradientSums(steps, batch, xs.shape[1], dtype,
                           w if rc.needs(node, 0) else None, slice(0, h3),
                           _gradient_terms(node, xs, hs, rec, rmask, reset_after, units))
    dz = np.empty((rc.CHUNK, rows, batch), dtype)
    d_zr = np.empty((h2, batch), dtype)
    t1, t2 = np.empty((units, batch), dtype), np.empty((units, batch), dtype)
    dh_new = np.empty((units, batch), dtype)
    if reset_after:
        rows_a, rows_z, rows_r = slice(0, units), slice(units, h2), slice(h2, h3)
    else:
        rows_z, rows_r, rows_a = slice(0, units), slice(units, h2), slice(h2, h3)
    for a0, b0 in reversed(rc.chunks(steps)):
        for s in range(b0 - 1, a0 - 1, -1):
            dz_s = dz[s - a0]
            if g_steps is not None:
                dh += g_steps[s]
            if masks is not None:
                keep = masks[s]
                dh_carry = dh * (1 - keep)
                dh *= keep
            gates = buf[s]
            hh = gates[:units] if reset_after else gates[h2:]
            z, r = (gates[units:h2], gates[h2:]) if reset_after else \
                (gates[:units], gates[units:h2])
            h_prev = hs[s, :units]
            rec_grad(gates[units:] if reset_after else gates[:h2], out=d_zr)
            # dz_z = dh * (h_{t-1} - hh) * z'
            np.subtract(h_prev, hh, out=t1)
            t1 *= d_zr[:units]
            np.multiply(t1, dh, out=dz_s[rows_z])
            # a = dh * (1 - z) * activation'(hh)
            act_grad(hh, out=t1)
            np.subtract(1, z, out=t2)
            t1 *= t2
            a = dz_s[rows_a]
            np.multiply(t1, dh, out=a)
            if reset_after:
                np.multiply(a, rec[s, h2:], out=t1)              # dL/dr = a * s_h * r'
                np.multiply(t1, d_zr[units:], out=dz_s[rows_r])
                np.multiply(a, r, out=dz_s[h3:])
                np.matmul(u, dz_s[units:], out=dh_new)
            else:
                np.matmul(u[:, h2:], a, out=t2)                  # dL/d(r * h_in)
                h_in = h_prev if rmask is None else h_prev * rmask
                np.multiply(t2, h_in, out=t1)
                np.multiply(t1, d_zr[units:], out=dz_s[rows_r])
                np.matmul(u[:, :h2], dz_s[:h2], out=dh_new)
                t2 *= r
                dh_new += t2
            if rmask is not None:
                dh_new *= rmask
            np.multiply(dh, z, out=t1)
            np.add(dh_new, t1, out=dh)
            if masks is not None:
                dh += dh_carry
        sums.add(a0, b0, rc.steps_matrix(dz[:b0 - a0]))
    sums.wait()
    dkernel = drec = dbias = None
    if sums.terms:
        inputs = xs.shape[1]
        x_grads = sums.sums[0].T         # reset_after: the last row is the input bias
        if reset_after:
            x_grads = rc.permute_blocks(x_grads, _X_INVERSE)
            rec_grads = sums.sums[1].T
        else:
            rec_grads = np.concatenate([sums.sums[1], sums.sums[2]]).T
        dkernel, drec = x_grads[:inputs], rec_grads[:units]
        if rc.needs(node, 4):
            dbias = np.stack([x_grads[-1], rec_grads[-1]]) if reset_after else rec_grads[-1]
    dh0 = dh.T if rc.needs(node, 1) else None
    grads = (sums.input_gradient(attrs.get("go_backwards", False)), dh0, dkernel, drec, dbias,
             None, None)
    return grads[:len(node.input_refs)]


def _gradient_terms(node, xs, hs, rec, rmask, reset_after, units):
    """The `GradientSums` terms: input side, then recurrent side(s) (see the VJP)."""
    if not rc.needs(node, 2, 3, 4):
        return []

    def states(a, b):
        return (rc.masked_states(hs[a:b], rmask),)

    if reset_after:
        ones = np.ones((rc.CHUNK, 1, xs.shape[2]), hs.dtype)      # for the input bias
        return [(slice(0, 3 * units), lambda a, b: (xs[a:b], ones[:b - a])),
                (slice(units, 4 * units), states)]
    return [(slice(None), lambda a, b: (xs[a:b],)),
            (slice(0, 2 * units), states),
            (slice(2 * units, 3 * units), lambda a, b: (rec[a:b],))]
