"""`simple_rnn_sequence`: a fully connected RNN layer as one op, with BPTT.

    h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)

The input projection is one batched GEMM before the loop; the bias rides in
the recurrent GEMM as a column multiplying a row of ones under the state
(layout as in `recurrent_common`).
"""

import numpy as np

from . import recurrent_common as rc
from ._registry import define
from .recurrent_blas import single_threaded_blas


@define("simple_rnn_sequence", shape=rc.sequence_shape(1), num_outputs=2, residual=True)
@single_threaded_blas()
def simple_rnn_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None,
                        recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                        zero_output_for_mask=False, activation="tanh"):
    """Runs a simple RNN over `x` `(B, T, D)`; returns `(outputs, h_T)`.

    Arguments as for `lstm_sequence`, with one state; weights `(D, H)`,
    `(H, H)`, `(H,)`.
    """
    batch, steps, _ = x.shape
    units = recurrent_kernel.shape[0]
    dtype = np.result_type(x, recurrent_kernel)
    act, _ = rc.activation(activation)
    xs = rc.steps_first(x, go_backwards)
    masks = rc.step_masks(mask, go_backwards, dtype)
    ut = np.zeros((units, units + 1), dtype)
    ut[:, :units] = recurrent_kernel.T
    if bias is not None:
        ut[:, units] = bias
    kernel_t = kernel.T.copy()
    xw = np.empty((steps, units, batch), dtype)
    hs = np.empty((steps + 1, units + 1, batch), dtype)
    hs[:, units] = 1
    hs[0, :units] = h0.T
    h_in = None
    if recurrent_mask is not None:
        rmask = np.asarray(recurrent_mask, dtype).T
        h_in = np.ones((units + 1, batch), dtype)
    rec = np.empty((units, batch), dtype)
    for s in range(steps):
        if s % rc.CHUNK == 0:   # input projection of the next chunk of steps
            stop = min(s + rc.CHUNK, steps)
            np.matmul(kernel_t, xs[s:stop], out=xw[s:stop])
        h = hs[s]
        if h_in is not None:
            np.multiply(h[:units], rmask, out=h_in[:units])
            h = h_in
        np.matmul(ut, h, out=rec)
        h_new = hs[s + 1, :units]
        np.add(xw[s], rec, out=h_new)
        act(h_new)
        if masks is not None:
            np.copyto(h_new, hs[s, :units], where=masks[s] == 0)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    states = hs[:, :units]
    out = rc.sequence_output(states, weights, return_sequences)
    residual = (xs, hs, kernel, recurrent_kernel, masks, weights, recurrent_mask)
    return (out, states[-1].T), residual


@simple_rnn_sequence.defvjp
@single_threaded_blas()
def _simple_rnn_sequence_vjp(node, grads):
    g_out, g_h = grads
    xs, hs, kernel, recurrent_kernel, masks, weights, recurrent_mask = node.residual
    attrs = node.attrs
    _, act_grad = rc.activation(attrs.get("activation", "tanh"))
    steps, units, batch = hs.shape[0] - 1, hs.shape[1] - 1, hs.shape[2]
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = g_h.T.copy()
    if g_last is not None:
        dh += g_last
    rmask = None if recurrent_mask is None else np.asarray(recurrent_mask, dh.dtype).T
    terms = []
    if rc.needs(node, 2, 3, 4):
        terms = [(slice(None), lambda a, b: (xs[a:b], rc.masked_states(hs[a:b], rmask)))]
    sums = rc.GradientSums(steps, batch, xs.shape[1], dh.dtype,
                           kernel if rc.needs(node, 0) else None, slice(None), terms)
    dz = np.empty((rc.CHUNK, units, batch), dh.dtype)
    for a, b in reversed(rc.chunks(steps)):
        for s in range(b - 1, a - 1, -1):
            dz_s = dz[s - a]
            if g_steps is not None:
                dh += g_steps[s]
            if masks is not None:
                keep = masks[s]
                dh_carry = dh * (1 - keep)
                dh *= keep
            act_grad(hs[s + 1, :units], out=dz_s)
            dz_s *= dh
            np.matmul(recurrent_kernel, dz_s, out=dh)
            if rmask is not None:
                dh *= rmask
            if masks is not None:
                dh += dh_carry
        sums.add(a, b, rc.steps_matrix(dz[:b - a]))
    sums.wait()
    dkernel = drec = dbias = None
    if terms:
        grads = sums.sums[0].T              # rows: kernel, recurrent kernel, bias
        inputs = xs.shape[1]
        dkernel, drec = grads[:inputs], grads[inputs:inputs + units]
        dbias = grads[-1] if rc.needs(node, 4) else None
    dh0 = dh.T if rc.needs(node, 1) else None
    grads = (sums.input_gradient(attrs.get("go_backwards", False)), dh0, dkernel, drec, dbias,
             None, None)
    return grads[:len(node.input_refs)]
