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
        else:
            np.matmul(u_zr, h, out=rec)
            zr, hh = buf[s, :h2], buf[s, h2:]
            zr += rec
            rec_act(zr)
            np.multiply(zr[units:], h[:units], out=rh[s, :units])
            np.matmul(u_h, rh[s], out=rec_h)
            tmp = rec_h
        hh += tmp
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
    residual = (xs, buf, rec if reset_after else rh, hs, w, masks, weights, rmask)
    return (out, states[-1].T), residual


@gru_sequence.defvjp
@single_threaded_blas()
def _gru_sequence_vjp(node, grads):
    g_out, g_h = grads
    xs, buf, rec, hs, w, masks, weights, rmask = node.residual
    attrs = node.attrs
    reset_after = attrs.get("reset_after", True)
    _, act_grad = rc.activation(attrs.get("activation", "tanh"))
    _, rec_grad = rc.activation(attrs.get("recurrent_activation", "sigmoid"))
    steps, units, batch = hs.shape[0] - 1, hs.shape[1] - 1, hs.shape[2]
    h2, h3 = 2 * units, 3 * units
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = g_h.T.copy()
    if g_last is not None:
        dh += g_last
    u = node.inputs_for_vjp if False else None  # placeholder removed below
    return dh, g_steps, u
