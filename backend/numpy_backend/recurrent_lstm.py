"""`lstm_sequence`: a whole LSTM layer as one op, with backpropagation through time.

Forward, with Keras's gates `i, f, c, o` (kernel columns in that order):

    z_t = x_t @ kernel + h_{t-1} @ recurrent_kernel + bias
    i, f, o = recurrent_activation(z_i, z_f, z_o);  g = activation(z_c)
    c_t = f * c_{t-1} + i * g;  h_t = o * activation(c_t)

The input side of the pre-activations, `[kernel.T | bias] @ [x_t; 1]`, is one
GEMM per chunk of steps, computed on the helper thread of `recurrent_threads`
ahead of the time loop (the first chunk on the calling thread); each step then
adds `recurrent_kernel.T @ h_{t-1}`, one small GEMM, and makes a few
elementwise passes. The operands `[h; x; 1]` of all steps sit in one array,
with which the kernel gradients later contract. The residual keeps the gate
activations, cell states and `activation(c_t)`; the backward pass runs the
loop in reverse with the hand-derived gradients, and the input and kernel
gradients are large GEMMs over chunks of steps (see `recurrent_common`).
Everything in a backward step that does not depend on the incoming gradients
(activation derivatives and their products with the gates) is computed for a
chunk of steps at once (`_chunk_factors`), so each step is four numpy calls:
at about a microsecond of Python overhead per call, on `(units, batch)`
blocks, the call count is what the loop costs.

Internally the gate blocks are ordered `o, i, f, c`: the three
recurrent-activation gates form one block, and `(i, f)` lines up with
`(g, c_{t-1})`, which sit next to each other in the step buffer, so
`i * g` and `f * c_{t-1}` are one multiplication.

With the default activations all four gates come from one `exp`:
`sigmoid(z) = 1 / (1 + exp(-z))` and `tanh(z) = 2 * sigmoid(2 z) - 1`, with the
factors -1 and -2 folded into the kernels' rows. numpy's float32 `exp`
costs about half of its `tanh` (both are scalar loops on machines without
AVX-512), and the gates are the largest elementwise term of a step. Where
`exp(-z)` overflows, `1 / (1 + inf)` is the exact limit 0.
"""

import numpy as np

from . import recurrent_common as rc
from ._registry import define
from .blas_threads import single_threaded_blas
from .recurrent_threads import submit

_ORDER = (3, 0, 1, 2)     # internal block k holds Keras block _ORDER[k]
_INVERSE = (1, 2, 3, 0)   # Keras block j is internal block _INVERSE[j]


def _internal_weights(kernel, recurrent_kernel, bias, fast):
    """`(w, u, state_kernel, input_kernel)`: the kernels in internal gate order,
    and the two halves of a step's pre-activations as GEMM operands.

    `state_kernel` `(4H, H)` is `recurrent_kernel.T`, multiplying `h_{t-1}`;
    `input_kernel` `(4H, D + 1)` is `[kernel.T | bias]`, multiplying
    `[x_t; 1]`. With `fast`, their rows are scaled for the gates' `exp` (by -1
    for the sigmoid gates, -2 for `g`).
    """
    units, inputs = recurrent_kernel.shape[0], kernel.shape[0]
    dtype = np.result_type(kernel, recurrent_kernel)
    w = rc.permute_blocks(kernel, _ORDER)
    u = rc.permute_blocks(recurrent_kernel, _ORDER)
    state_kernel = u.T.astype(dtype)
    input_kernel = np.zeros((4 * units, inputs + 1), dtype)
    input_kernel[:, :inputs] = w.T
    if bias is not None:
        input_kernel[:, -1] = rc.permute_blocks(bias, _ORDER)
    if fast:
        for k in (state_kernel, input_kernel):
            k[:3 * units] *= -1.0
            k[3 * units:] *= -2.0
    return w, u, state_kernel, input_kernel


def _project(input_kernel, xs, hx, out):
    """Copies a chunk's inputs `xs` into their rows of the step operands `hx`,
    then writes `input_kernel @ [x_s; 1]` for each step to `out`."""
    inputs = xs.shape[1]
    hx[:, -inputs - 1:-1] = xs
    np.matmul(input_kernel, hx[:, -inputs - 1:], out=out)


@define("lstm_sequence", shape=rc.sequence_shape(2), num_outputs=3, residual=True)
@single_threaded_blas()
@rc.saturating
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
    w, u, state_kernel, input_kernel = _internal_weights(kernel, recurrent_kernel, bias, fast)
    masks = rc.step_masks(mask, go_backwards, dtype)
    h4, h3 = 4 * units, 3 * units

    # buf[s] rows: pre-activations, then gates o, i, f, g of step s; then c_{s-1}.
    buf = np.empty((steps + 1, 5 * units, batch), dtype)
    buf[0, h4:] = c0.T
    # hx[s] rows: h_{s-1}, x_s, 1 (the kernel gradients contract with them). hx[T] holds h_T.
    hx = np.empty((steps + 1, units + x.shape[-1] + 1, batch), dtype)
    hx[0, :units] = h0.T
    hx[:, -1] = 1
    # The input side of the pre-activations, a GEMM per chunk of steps: the
    # first chunk here, the others on the helper thread ahead of the loop.
    xs = rc.steps_first(x, go_backwards)
    chunks = rc.chunks(steps)
    projected = [None] + [submit(_project, input_kernel, xs[a:b], hx[a:b], buf[a:b, :h4])
                          for a, b in chunks[1:]]
    for a, b in chunks[:1]:
        _project(input_kernel, xs[a:b], hx[a:b], buf[a:b, :h4])
    rmask = None if recurrent_mask is None else np.asarray(recurrent_mask, dtype).T
    h_in = None if rmask is None else np.empty((units, batch), dtype)
    rec = np.empty((h4, batch), dtype)
    tc = np.empty((steps, units, batch), dtype)
    prod = np.empty((2 * units, batch), dtype)
    for (a, b), chunk in zip(chunks, projected):
        if chunk is not None:
            chunk.result()
        for s in range(a, b):
            z = buf[s, :h4]
            h = hx[s, :units]
            if rmask is not None:
                h = np.multiply(h, rmask, out=h_in)
            np.matmul(state_kernel, h, out=rec)
            z += rec                         # the state side
            if fast:
                np.exp(z, out=z)
                z += 1
                np.divide(1.0, z, out=z)     # sigmoid of all four blocks (of 2 z for g)
                g = z[h3:]
                g *= 2
                g -= 1
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


def _chunk_factors(buf, tc, keep, act_grad, rec_grad):
    """The factors of a chunk's backward steps that do not depend on the gradients.

    For steps `[a, b)`, from `buf[a:b]` (rows `o, i, f, g, c_{s-1}`) and
    `tc[a:b]`, returns `(dh_factors, dc_factors)`, `(k, 2, H, B)` and `(k, 4, H, B)`:

        dh * dh_factors = [dh's part of dc, dz_o]
        dc * dc_factors = [dz_i, dz_f, dz_g, dc_{s-1}]

    With `keep` (the chunk's `(k, 1, B)` mask factors), a masked step gets
    zero gate gradients and passes `dc` through unchanged. Computing these for
    ten steps at once leaves the time loop four numpy calls per step.
    """
    steps, rows, batch = buf.shape
    units = rows // 5
    h2, h3 = 2 * units, 3 * units
    dh_factors = np.empty((steps, h2, batch), buf.dtype)
    dc_factors = np.empty((steps, 4 * units, batch), buf.dtype)
    act_grad(tc, out=dh_factors[:, :units])
    dh_factors[:, :units] *= buf[:, :units]                           # o * activation'(c)
    rec_grad(buf[:, :units], out=dh_factors[:, units:])
    dh_factors[:, units:] *= tc                                       # o' * activation(c)
    rec_grad(buf[:, units:h3], out=dc_factors[:, :h2])
    dc_factors[:, :h2] *= buf[:, h3:]                                 # i' * g, f' * c
    act_grad(buf[:, h3:4 * units], out=dc_factors[:, h2:h3])
    dc_factors[:, h2:h3] *= buf[:, units:h2]                          # i * g'
    dc_factors[:, h3:] = buf[:, h2:h3]                                # f
    if keep is not None:
        dh_factors *= keep
        dc_factors *= keep
        dc_factors[:, h3:] += 1 - keep
    return (dh_factors.reshape(steps, 2, units, batch),
            dc_factors.reshape(steps, 4, units, batch))


@lstm_sequence.defvjp
@single_threaded_blas()
def _lstm_sequence_vjp(node, grads):
    g_out, g_h, g_c = grads
    hx, buf, tc, w, u, masks, weights, recurrent_mask = node.residual
    attrs = node.attrs
    _, act_grad = rc.activation(attrs.get("activation", "tanh"))
    _, rec_grad = rc.activation(attrs.get("recurrent_activation", "sigmoid"))
    steps, units, batch = tc.shape
    h2, h5 = 2 * units, 5 * units
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
    # grad[k] rows: dc of step k (carried in plus dh's part), the gate gradients
    # dz_o, dz_i, dz_f, dz_g, then dc of the step before. The middle 4H rows
    # are the operand of the recurrent product and of the kernel gradients.
    grad = np.empty((rc.CHUNK, 6 * units, batch), dtype)
    dh_carry = None if masks is None else np.empty_like(dh)
    for a, b in reversed(rc.chunks(steps)):
        dh_factors, dc_factors = _chunk_factors(
            buf[a:b], tc[a:b], None if masks is None else masks[a:b], act_grad, rec_grad)
        for s in range(b - 1, a - 1, -1):
            k = s - a
            if g_steps is not None:
                dh += g_steps[s]
            g = grad[k]
            np.multiply(dh_factors[k], dh, out=g[:h2].reshape(2, units, batch))
            g[:units] += dc
            np.multiply(dc_factors[k], g[:units], out=g[h2:].reshape(4, units, batch))
            if masks is not None:    # a masked step passes dh through
                np.multiply(dh, 1 - masks[s], out=dh_carry)
            np.matmul(u, g[units:h5], out=dh)
            if rmask is not None:
                dh *= rmask
            if masks is not None:
                dh += dh_carry
            dc = g[h5:]
        sums.add(a, b, rc.steps_matrix(grad[:b - a, units:h5]))
    sums.wait()
    dx = sums.input_gradient(attrs.get("go_backwards", False))
    dkernel = drec = dbias = None
    if sums.terms:
        grads = sums.sums[0].T                # rows: recurrent kernel, kernel, bias
        drec = rc.permute_blocks(grads[:units], _INVERSE)
        dkernel = rc.permute_blocks(grads[units:units + inputs], _INVERSE)
        dbias = rc.permute_blocks(grads[-1], _INVERSE) if rc.needs(node, 5) else None
    dh0 = dh.T if rc.needs(node, 1) else None
    dc0 = dc.T.copy() if rc.needs(node, 2) else None
    grads = (dx, dh0, dc0, dkernel, drec, dbias, None, None)
    return grads[:len(node.input_refs)]
