"""`lstm_sequence`: a whole LSTM layer as one op, with backpropagation through time.

Forward, with Keras's gates `i, f, c, o` (kernel columns in that order):

    z_t = x_t @ kernel + h_{t-1} @ recurrent_kernel + bias
    i, f, o = recurrent_activation(z_i, z_f, z_o);  g = activation(z_c)
    c_t = f * c_{t-1} + i * g;  h_t = o * activation(c_t)

Each step is one GEMM, `[recurrent_kernel.T | kernel.T | bias] @ [h_{t-1}; x_t; 1]`,
which writes the pre-activations straight into the step buffer (the operands
`[h; x; 1]` of all steps sit in one array, and the kernel gradients later
contract with exactly that array), followed by a few elementwise passes. The
residual keeps the gate activations, cell states and `activation(c_t)`; the
backward pass runs the loop in reverse with the hand-derived gradients, and
the input and kernel gradients are large GEMMs over chunks of steps (see
`recurrent_common`).

Internally the gate blocks are ordered `o, i, f, c`: the three
recurrent-activation gates form one block, and `(i, f)` lines up with
`(g, c_{t-1})`, which sit next to each other in the step buffer, so
`i * g` and `f * c_{t-1}` are one multiplication. With the default
activations, `sigmoid(z) = 0.5 * tanh(z / 2) + 0.5`: the halving is folded
into the step kernel, so one `tanh` serves all four gates.
"""

import numpy as np

from . import recurrent_common as rc
from ._registry import define
from .blas_threads import single_threaded_blas

_ORDER = (3, 0, 1, 2)     # internal block k holds Keras block _ORDER[k]
_INVERSE = (1, 2, 3, 0)   # Keras block j is internal block _INVERSE[j]


def _internal_weights(kernel, recurrent_kernel, bias, fast):
    """`(w, u, step_kernel)`: the kernels in internal gate order, and the step GEMM's.

    `step_kernel` is `(4H, H + D + 1)`: `[recurrent_kernel.T | kernel.T | bias]`,
    which multiplies a step's `[h_{t-1}; x_t; 1]`. With `fast`, its rows for the
    sigmoid gates are halved.
    """
    units, inputs = recurrent_kernel.shape[0], kernel.shape[0]
    w = rc.permute_blocks(kernel, _ORDER)
    u = rc.permute_blocks(recurrent_kernel, _ORDER)
    step_kernel = np.zeros((4 * units, units + inputs + 1),
                           np.result_type(kernel, recurrent_kernel))
    step_kernel[:, :units] = u.T
    step_kernel[:, units:units + inputs] = w.T
    if bias is not None:
        step_kernel[:, -1] = rc.permute_blocks(bias, _ORDER)
    if fast:
        step_kernel[:3 * units] *= 0.5
    return w, u, step_kernel


@define("lstm_sequence", shape=rc.sequence_shape(2), num_outputs=3, residual=True)
@single_threaded_blas()
def lstm_sequence(x, h0, c0, kernel, recurrent_kernel, bias=None, mask=None,
                  recurrent_mask=None, *, go_backwards=False, return_sequences=True,
                  zero_output_for_mask=False, activation="tanh",
                  recurrent_activation="sigmoid"):
    """Runs an LSTM over `x` `(B, T, D)`; returns `(outputs, h_T, c_T)`.

    Args:
        x: input sequences.
        h0, c0: initial states `(B, H)`.
        kernel, recurrent_kernel, bias: Keras's LSTM weights, `(D, 4H)`,
            `(H, 4H)`, `(4H,)` (or None).
        mask: optional `(B, T)` booleans; False steps are skipped.
        recurrent_mask: optional `(B, H)` factors multiplying `h_{t-1}` before
            the recurrent product (recurrent dropout); not differentiated.
        go_backwards: process the steps in reverse (outputs in that order).
        return_sequences: first output is `(B, T, H)`, else the last `(B, H)`.
        zero_output_for_mask: masked steps output zeros instead of the
            previous output.
        activation, recurrent_activation: names from `recurrent_common`.
    """
    batch, steps, _ = x.shape
    units = recurrent_kernel.shape[0]
    dtype = np.result_type(x, recurrent_kernel)
    act, _ = rc.activation(activation)
    rec_act, _ = rc.activation(recurrent_activation)
    fast = activation == "tanh" and recurrent_activation == "sigmoid"
    w, u, step_kernel = _internal_weights(kernel, recurrent_kernel, bias, fast)
    masks = rc.step_masks(mask, go_backwards, dtype)
    h4, h3, hx_rows = 4 * units, 3 * units, step_kernel.shape[1]

    # buf[s] rows: gates o, i, f, g of step s, then c_{s-1}.
    buf = np.empty((steps + 1, 5 * units, batch), dtype)
    buf[0, h4:] = c0.T
    # hx[s] rows: h_{s-1}, x_s, 1 -- the operand of the step GEMM. hx[T] holds h_T.
    hx = np.empty((steps + 1, hx_rows, batch), dtype)
    hx[0, :units] = h0.T
    hx[:steps, units:-1] = rc.steps_first(x, go_backwards)
    hx[:, -1] = 1
    h_in = None
    if recurrent_mask is not None:
        rmask = np.asarray(recurrent_mask, dtype).T
        h_in = np.empty((hx_rows, batch), dtype)
    tc = np.empty((steps, units, batch), dtype)
    prod = np.empty((2 * units, batch), dtype)
    for s in range(steps):
        z = buf[s, :h4]
        step_in = hx[s]
        if h_in is not None:
            np.multiply(step_in[:units], rmask, out=h_in[:units])
            h_in[units:] = step_in[units:]
            step_in = h_in
        np.matmul(step_kernel, step_in, out=z)
        if fast:
            np.tanh(z, out=z)
            gates = z[:h3]
            gates *= 0.5
            gates += 0.5
        else:
            rec_act(z[:h3])
            act(z[h3:])
        np.multiply(buf[s, units:h3], buf[s, h3:], out=prod)   # i * g, f * c_{s-1}
        c = buf[s + 1, h4:]
        np.add(prod[:units], prod[units:], out=c)
        if fast:
            np.tanh(c, out=tc[s])
        else:
            np.copyto(tc[s], c)
            act(tc[s])
        np.multiply(z[:units], tc[s], out=hx[s + 1, :units])
        if masks is not None:
            skipped = masks[s] == 0
            np.copyto(hx[s + 1, :units], hx[s, :units], where=skipped)
            np.copyto(c, buf[s, h4:], where=skipped)
    weights = None if masks is None else rc.output_weights(masks, zero_output_for_mask)
    states = hx[:, :units]
    out = rc.sequence_output(states, weights, return_sequences)
    residual = (hx, buf, tc, w, u, masks, weights, recurrent_mask)
    return (out, states[-1].T, buf[-1, h4:].T), residual


@lstm_sequence.defvjp
@single_threaded_blas()
def _lstm_sequence_vjp(node, grads):
    g_out, g_h, g_c = grads
    hx, buf, tc, w, u, masks, weights, recurrent_mask = node.residual
    attrs = node.attrs
    _, act_grad = rc.activation(attrs.get("activation", "tanh"))
    _, rec_grad = rc.activation(attrs.get("recurrent_activation", "sigmoid"))
    steps, units, batch = tc.shape
    h2, h3, h4 = 2 * units, 3 * units, 4 * units
    g_steps, g_last = rc.output_gradient(g_out, weights, attrs.get("return_sequences", True),
                                         steps)
    dh = g_h.T.copy()
    if g_last is not None:
        dh += g_last
    dc = g_c.T.copy()
    rmask = None if recurrent_mask is None else np.asarray(recurrent_mask, dh.dtype).T
    dtype = dh.dtype
    inputs = w.shape[0]
    sums = rc.GradientSums(
        steps, batch, inputs, dtype, w if rc.needs(node, 0) else None, slice(None),
        [(slice(None), lambda a, b: (rc.masked_states(hx[a:b], rmask),))]
        if rc.needs(node, 3, 4, 5) else [])
    dz = np.empty((rc.CHUNK, h4, batch), dtype)
    # Scratch: derivative of the o, i, f gates; the factors multiplying dc in
    # dz_i, dz_f, dz_g; the dc contribution of dh.
    d_oif = np.empty((h3, batch), dtype)
    f_ifg = np.empty((3, units, batch), dtype)
    t1 = np.empty((units, batch), dtype)
    for a, b in reversed(rc.chunks(steps)):
        for s in range(b - 1, a - 1, -1):
            gates, dz_s = buf[s], dz[s - a]
            if g_steps is not None:
                dh += g_steps[s]
            if masks is not None:
                keep = masks[s]
                dh_carry, dc_carry = dh * (1 - keep), dc * (1 - keep)
                dh *= keep
                dc *= keep
            # dc += dh * o * activation'(c_s)
            act_grad(tc[s], out=t1)
            t1 *= gates[:units]
            t1 *= dh
            dc += t1
            rec_grad(gates[:h3], out=d_oif)
            # dz_o = dh * activation(c_s) * o'
            np.multiply(d_oif[:units], tc[s], out=t1)
            np.multiply(t1, dh, out=dz_s[:units])
            # dz_i, dz_f = dc * (g, c_{s-1}) * (i', f');  dz_g = dc * i * g'
            np.multiply(d_oif[units:], gates[h3:], out=f_ifg[:2].reshape(h2, batch))
            act_grad(gates[h3:h4], out=f_ifg[2])
            f_ifg[2] *= gates[units:h2]
            np.multiply(f_ifg, dc, out=dz_s[units:].reshape(3, units, batch))
            dc *= gates[h2:h3]
            np.matmul(u, dz_s, out=dh)
            if rmask is not None:
                dh *= rmask
            if masks is not None:
                dh += dh_carry
                dc += dc_carry
        sums.add(a, b, rc.steps_matrix(dz[:b - a]))
    sums.wait()
    dx = sums.input_gradient(attrs.get("go_backwards", False))
    dkernel = drec = dbias = None
    if sums.terms:
        grads = sums.sums[0].T                # rows: recurrent kernel, kernel, bias
        drec = rc.permute_blocks(grads[:units], _INVERSE)
        dkernel = rc.permute_blocks(grads[units:units + inputs], _INVERSE)
        dbias = rc.permute_blocks(grads[-1], _INVERSE) if rc.needs(node, 5) else None
    dh0 = dh.T if rc.needs(node, 1) else None
    dc0 = dc.T if rc.needs(node, 2) else None
    grads = (dx, dh0, dc0, dkernel, drec, dbias, None, None)
    return grads[:len(node.input_refs)]
