"""Shared pieces of the fused recurrent sequence ops (`lstm_sequence`, ...).

Layout. Inside the ops every per-step array is *feature-major*: the state of
step `s` is an `(units, batch)` block, the gates an `(n * units, batch)`
block. Each gate is then a contiguous run of rows, so the elementwise work of
a step runs on contiguous memory, and the recurrent product is one GEMM,
`recurrent_kernel.T @ h`. Arrays over the whole sequence are stacked along a
leading step axis in processing order (reversed input for `go_backwards`).

The input and kernel gradients are large GEMMs over chunks of `CHUNK` steps,
interleaved with the backward time loop so that each chunk's arrays are still
in cache (and run on a helper thread when a core is free, see
`recurrent_threads`): a chunk's gate gradients flattened to `(rows, k * B)`
times its inputs/states flattened to `(k * B, features)`, summed over chunks.
In the forward pass, SimpleRNN folds the input projection into each step's
GEMM; GRU, whose candidate gate keeps input and recurrent parts apart,
projects a chunk of inputs before running its steps; LSTM projects its
chunks on the helper thread ahead of the time loop.

Masks follow Keras: a masked step leaves the states unchanged; its output is
the previous step's output (zeros before any unmasked step), or zeros with
`zero_output_for_mask`. Because masked steps carry the state, the output of
step `s` is simply `state_s * w_s`, with `w_s` 1 once some step `<= s` was
unmasked (or, with `zero_output_for_mask`, 1 exactly on unmasked steps).
"""

import functools
import threading

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from .recurrent_threads import submit

# Steps per chunk of the input projection (GRU) and of the gradient GEMMs.
CHUNK = 10


def _tanh(z):
    np.tanh(z, out=z)


def _sigmoid(z):  # exp costs half of tanh; exp(-z) = inf gives the limit 0 (see `saturating`)
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1
    np.divide(1.0, z, out=z)


def _hard_sigmoid(z):  # Keras 3: relu6(z + 3) / 6
    z *= 1.0 / 6.0
    z += 0.5
    np.clip(z, 0.0, 1.0, out=z)


def _relu(z):
    np.maximum(z, 0, out=z)


def _linear(z):
    pass


def _tanh_grad(y, out):
    np.multiply(y, y, out=out)
    np.subtract(1, out, out=out)


def _sigmoid_grad(y, out):
    np.subtract(1, y, out=out)
    out *= y


def _hard_sigmoid_grad(y, out):
    out[...] = (y > 0) & (y < 1)
    out *= 1.0 / 6.0


def _relu_grad(y, out):
    np.greater(y, 0, out=out)


def _linear_grad(y, out):
    out.fill(1)


# name -> (activate in place, write the derivative (from the output) into `out`)
ACTIVATIONS = {
    "tanh": (_tanh, _tanh_grad),
    "sigmoid": (_sigmoid, _sigmoid_grad),
    "hard_sigmoid": (_hard_sigmoid, _hard_sigmoid_grad),
    "relu": (_relu, _relu_grad),
    "linear": (_linear, _linear_grad),
}


def saturating(kernel):
    """Decorator running a forward kernel with numpy's overflow and underflow warnings off.

    The gates come from `exp(-z)`, which overflows to inf (or underflows to 0)
    for saturated pre-activations; `1 / (1 + inf)` is then exactly the limit,
    so the warnings would only report gates working as intended.
    """

    @functools.wraps(kernel)
    def run(*args, **kwargs):
        with np.errstate(over="ignore", under="ignore"):
            return kernel(*args, **kwargs)

    return run


def activation(name):
    """`(activate(z), derivative(y, out))` for a supported activation (both in place)."""
    try:
        return ACTIVATIONS[name]
    except KeyError:
        raise ValueError(
            f"The fused recurrent ops support the activations {sorted(ACTIVATIONS)}. "
            f"Received: activation={name!r}"
        ) from None


def sequence_shape(num_states):
    """Shape rule of an op `(x, *states, kernel, recurrent_kernel, ...)`.

    Outputs: the output sequence `(B, T, units)` (or the last output
    `(B, units)` unless `return_sequences`), then `num_states` final states.
    """

    def rule(x, *rest, return_sequences=True, **_):
        recurrent_kernel = rest[num_states + 1]
        batch, steps, _ = rules.shape_of(x)
        units = rules.shape_of(recurrent_kernel)[0]
        dtype = rules.result_dtype(x, recurrent_kernel)
        out = (batch, steps, units) if return_sequences else (batch, units)
        states = [SymbolicTensor((batch, units), dtype) for _ in range(num_states)]
        return (SymbolicTensor(out, dtype), *states)

    return rule


def permute_blocks(a, order):
    """`a` with its last axis cut into `len(order)` equal blocks, reordered."""
    n = len(order)
    shape = a.shape[:-1]
    blocks = a.reshape(shape + (n, a.shape[-1] // n))
    return blocks[..., list(order), :].reshape(a.shape)


def steps_first(x, go_backwards):
    """`(B, T, D)` inputs as a `(T, D, B)` view in processing order."""
    xs = x.transpose(1, 2, 0)
    return xs[::-1] if go_backwards else xs


def step_masks(mask, go_backwards, dtype):
    """A `(B, T)` boolean mask as `(T, 1, B)` 0/1 factors in processing order."""
    if mask is None:
        return None
    m = np.asarray(mask).T.astype(dtype)[:, None, :]
    return m[::-1] if go_backwards else m


def output_weights(masks, zero_output_for_mask):
    """Per step, 1 where the output equals the state and 0 where it is zero."""
    if zero_output_for_mask:
        return masks
    return np.maximum.accumulate(masks, axis=0)


def sequence_output(states, weights, return_sequences):
    """The op's first output from the stacked states `(T + 1, H, B)`."""
    if return_sequences:
        seq = states[1:] if weights is None else states[1:] * weights
        return seq.transpose(2, 0, 1)
    last = states[-1] if weights is None else states[-1] * weights[-1]
    return last.T


def output_gradient(g, weights, return_sequences, steps):
    """The first output's gradient per step, `(T, H, B)`, or None for zeros.

    For the last output only, returns `(None, g_last)`; otherwise
    `(g_steps, None)`. Mask weights are applied.
    """
    if not return_sequences:
        last = g.T.copy()
        if weights is not None:
            last *= weights[-1]
        return None, last
    # a copy even where the transpose is contiguous (batch 1): the weights are applied in place
    g_steps = g.transpose(1, 2, 0).copy()
    if weights is not None:
        g_steps *= weights
    return g_steps, None


def steps_matrix(a):
    """`(T, K, B)` per-step blocks as one `(K, T * B)` matrix, always a copy.

    The helper thread reads it while the caller refills `a`'s buffer; for a
    single step numpy's reshape would return a view, so that case is copied.
    """
    matrix = a.transpose(1, 0, 2).reshape(a.shape[1], -1)
    return matrix.copy() if np.may_share_memory(matrix, a) else matrix


def contract_steps(dz, *blocks):
    """Sum over steps and batch of `dz[s] @ block[s].T`, as one GEMM.

    Args:
        dz: step gradients flattened by `steps_matrix`, `(K, T * B)`.
        *blocks: `(T, R_i, B)` per-step inputs or states, concatenated along
            their features.

    Returns:
        `(K, sum(R_i))`.
    """
    steps, _, batch = blocks[0].shape
    widths = [b.shape[1] for b in blocks]
    samples = np.empty((steps, batch, sum(widths)), dz.dtype)
    start = 0
    for block, width in zip(blocks, widths):
        samples[:, :, start:start + width] = block.transpose(0, 2, 1)
        start += width
    return np.matmul(dz, samples.reshape(steps * batch, -1))


def chunks(steps, size=CHUNK):
    """`(start, stop)` ranges of at most `size` steps covering `range(steps)`."""
    return [(a, min(a + size, steps)) for a in range(0, steps, size)]


class GradientSums:
    """The input gradient and kernel-gradient sums of an op, added chunk by chunk.

    Each chunk's GEMMs run on the helper thread of `recurrent_threads` while
    the caller's time loop goes on. When the loop is done, `wait()` has the
    caller compute the chunks the helper has not started yet, newest first,
    so neither thread idles while the other finishes the backlog. A chunk's
    partial sums are added to the totals in the order the chunks were added
    (a chunk finished early waits for its predecessors), so which thread
    computed a chunk never changes the result. A chunk's arrays are released
    as soon as they have been used: memory a step gives back is reused by the
    next allocation, while fresh pages cost a page fault each (about 3 us on
    a virtual machine; holding every chunk's arrays cost 3,000 faults a step).
    `input_gradient()` and `sums` are ready once `wait()` has returned.

    Args:
        steps, batch, inputs, dtype: sizes of the `(T, B, D)` input gradient.
        dx_kernel: the internal-order kernel `(D, K)` that maps the input-side
            step gradients back to the inputs; None if `dL/dx` is not needed.
        x_rows: the step-gradient rows of the input side.
        terms: `(rows, blocks)` pairs; `blocks(a, b)` returns the `(k, R_i, B)`
            per-step arrays whose contraction with `dz[rows]` is summed.
    """

    def __init__(self, steps, batch, inputs, dtype, dx_kernel, x_rows, terms):
        self.dx = None if dx_kernel is None else np.empty((steps, batch, inputs), dtype)
        self.dx_kernel, self.x_rows, self.terms = dx_kernel, x_rows, terms
        self.sums = [None] * len(terms)
        self._chunks = {}      # index -> (a, b, dz) of the chunks not yet started
        self._parts = {}       # index -> partial sums waiting for their predecessors
        self._added = 0        # chunks whose partial sums are in `sums`
        self._count = 0
        self._lock = threading.Lock()
        self._pending = []     # (index, future) not yet waited for

    def add(self, a, b, dz):
        """Adds the steps `[a, b)`; `dz` `(rows, k * B)` must not change afterwards."""
        if self.dx is not None or self.terms:
            index = self._count
            self._count += 1
            self._chunks[index] = (a, b, dz)
            self._pending.append((index, submit(self._run, index)))

    def _run(self, index):
        a, b, dz = self._chunks.pop(index)
        if self.dx is not None:
            out = self.dx[a:b]
            np.matmul(dz[self.x_rows].T, self.dx_kernel.T, out=out.reshape(-1, out.shape[-1]))
        parts = [contract_steps(dz[rows], *blocks(a, b)) for rows, blocks in self.terms]
        with self._lock:
            self._parts[index] = parts
            while self._added in self._parts:
                for i, part in enumerate(self._parts.pop(self._added)):
                    total = self.sums[i]
                    self.sums[i] = part if total is None else np.add(total, part, out=total)
                self._added += 1

    def wait(self):
        """Finishes the chunks added so far (re-raising their errors)."""
        started = []
        for index, future in reversed(self._pending):
            if future.cancel():      # not started by the helper: compute it here
                self._run(index)
            else:
                started.append(future)
        for future in started:
            future.result()
        self._pending = []

    def input_gradient(self, go_backwards):
        """`dL/dx` as `(B, T, D)`, or None if it was not needed."""
        self.wait()
        if self.dx is None:
            return None
        return (self.dx[::-1] if go_backwards else self.dx).transpose(1, 0, 2)


def masked_states(states, rmask):
    """Per-step `(k, R, B)` operands whose first `H` rows (the states) are multiplied
    by the recurrent dropout factors `rmask` `(H, B)`."""
    if rmask is None:
        return states
    states = states.copy()
    states[:, :rmask.shape[0]] *= rmask
    return states


def needs(node, *indices):
    """Whether any of the node's inputs at `indices` is differentiated."""
    return any(node.input_refs[i] is not None for i in indices)
