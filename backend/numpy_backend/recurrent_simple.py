"""`simple_rnn_sequence`: a fully connected RNN layer as one op, with BPTT.

    h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)

Each step is one GEMM, `[recurrent_kernel.T | kernel.T | bias] @ [h_{t-1}; x_t; 1]`,
written straight into the next step's operand, then the activation in place.
The kernel gradients contract the step gradients with the same operands (see
`recurrent_common` for the layout).
"""

import numpy as np

from . import recurrent_common as rc
from ._registry import define
from .blas_threads import single_threaded_blas


@define("simple_rnn_sequence", shape=rc.sequence_shape(1), num_outputs=2, residual=True)
@single_threaded_blas()
@rc.saturating
def simple_rnn_sequence(x, h0, kernel, recurrent_kernel, bias=None, mask=None,
                        recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                        zero_output_for_mask=False, activation="tanh"):
    """Runs a simple RNN over `x` `(B, T, D)`; returns `(outputs, h_T)`.

    Arguments as for `lstm_sequence`, with one state; weights `(D, H)`,
    `(H, H)`, `(H,)`.
    """
    batch, steps, inputs = x.shape
    units = recurrent_kernel.shape[0]
    dtype = np.result_type(x, recurrent_kernel)
    act, _ = rc.activation(activation)
    masks = rc.step_masks(mask, go_backwards, dtype)
    step_kernel = np.zeros((units, units + inputs + 1), dtype)
    step_kernel[:, :units] = recurrent_kernel.T
    step_kernel[:, units:-1] = kernel.T
    if bias is not None:
        step_kernel[:, -1] = bias
    # hx[s] rows: h_{s-1}, x_s, 1 -- the operand of the step GEMM. hx[T] holds h_T.
    hx = np.empty((steps + 1, units + inputs + 1, batch), dtype)
    hx[0, :units] = h0.T
    hx[:steps, units:-1] = rc.steps_first(x, go_backwards)
    hx[:, -1] = 1
    h_in = None
    if recurrent_mask is not None:
        rmask = np.asarray(recurrent_mask, dtype).T
        h_in = np.empty(hx.shape[1:], dtype)
    for s in range(steps):
        step_in = hx[s]
        if h_in is not None:
            np.multiply(step_in[:units], rmask, out=h_in[:units])
            h_in[units:] = step_in[units:]
            step_in = h_in
        h_new = hx[s + 1, :units]
        np.matmul(step_kernel, step_in, out=h_new)
        act(h_new)
        if masks is not None:
            np.copyto(h_new, hx[s, :units], where=masks[s] == 0)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    states = hx[:, :units]
    out = rc.sequence_output(states, weights, return_sequences)
    residual = (hx, kernel, recurrent_kernel, masks, weights, recurrent_mask)
    return (out, states[-1].T), residual


@simple_rnn_sequence.defvjp
@single_threaded_blas()
def _simple_rnn_sequence_vjp(node, grads):
    g_out, g_h = grads
    hx, kernel, recurrent_kernel, masks, weights, recurrent_mask = node.residual
    attrs = node.attrs
    _, act_grad = rc.activation(attrs.get("activation", "tanh"))
    steps, batch = hx.shape[0] - 1, hx.shape[2]
    units, inputs = recurrent_kernel.shape[0], kernel.shape[0]
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = g_h.T.copy()
    if g_last is not None:
        dh += g_last
    rmask = None if recurrent_mask is None else np.asarray(recurrent_mask, dh.dtype).T
    terms = []
    if rc.needs(node, 2, 3, 4):
        terms = [(slice(None), lambda a, b: (rc.masked_states(hx[a:b], rmask),))]
    sums = rc.GradientSums(steps, batch, inputs, dh.dtype,
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
            act_grad(hx[s + 1, :units], out=dz_s)
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
        grads = sums.sums[0].T              # rows: recurrent kernel, kernel, bias
        drec, dkernel = grads[:units], grads[units:units + inputs]
        dbias = grads[-1] if rc.needs(node, 4) else None
    dh0 = dh.T if rc.needs(node, 1) else None
    grads = (sums.input_gradient(attrs.get("go_backwards", False)), dh0, dkernel, drec, dbias,
             None, None)
    return grads[:len(node.input_refs)]
