"""What the tests of the numba backend's compiled recurrent ops share.

Each compiled recurrent op (`lstm_sequence`, `gru_sequence`,
`simple_rnn_sequence`) is run next to the numpy kernel on the same inputs:
these helpers draw the masks and output gradients, run an op's forward and
VJP as the tape would, and make the checks every such comparison makes.
"""

import sys

import numpy as np

# the attributes every compiled recurrent op is compared under
CASES = [
    {},
    {"go_backwards": True},
    {"return_sequences": False},
    {"go_backwards": True, "return_sequences": False},
]


class Node:
    """What a VJP reads of a recorded call: residual, attributes, differentiated inputs."""

    def __init__(self, residual, attrs, differentiated):
        self.residual, self.attrs = residual, attrs
        self.input_refs = [object()] * differentiated


def fixed_grads(rng):
    """`grads(outputs)`: output gradients drawn once, then the same for every call,
    in the outputs' dtypes."""
    draws = []

    def grads(outputs):
        if not draws:
            draws.extend(rng.standard_normal(o.shape) for o in outputs)
        return [g.astype(o.dtype) for g, o in zip(draws, outputs, strict=True)]

    return grads


def forward_backward(ops, name, args, attrs, grads, differentiated):
    """`(outputs, input gradients, residual)` of op `name` in the table `ops`.

    Also checks that the VJP left the incoming gradients alone, and that numba
    compiled the op's kernels: one it could not compile would have been
    replaced by numpy's without a trace.
    """
    op = ops[name]
    outputs, residual = op.forward(*args, **attrs)
    incoming = grads(outputs)
    before = [g.copy() for g in incoming]
    input_grads = op.vjp(Node(residual, attrs, differentiated), incoming)
    for g, copy in zip(incoming, before, strict=True):
        np.testing.assert_array_equal(g, copy)
    jit = sys.modules.get("hikeras.backend.numba_backend._jit")
    assert jit is None or not any(failed.startswith(name) for failed, _ in jit._failed)
    return outputs, input_grads, residual


def masks(rng, batch, steps, units, change):
    """`(mask, recurrent_mask)` for a case named by `change` ("mask", "dropout", both),
    with every column masked somewhere."""
    mask = recurrent_mask = None
    if "mask" in change:
        mask = rng.random((batch, steps)) > 0.4
        mask[:, 0] = False      # outputs before the first unmasked step
    if "dropout" in change:
        recurrent_mask = (rng.random((batch, units)) > 0.3).astype(np.float32) / 0.7
    return mask, recurrent_mask


def assert_float32_close(got, want, rtol=2e-5, atol=2e-6, dtype=np.float32):
    """float32 arrays `got` equal to `want` (of `dtype`) to float32 rounding; None pairs.

    `atol` scales with each array's largest element: the kernels sum the weight
    and bias gradients over all steps and rows in different orders, and where
    terms cancel, an element carries the rounding of the large terms.
    """
    for a, b in zip(got, want, strict=True):
        if b is None:
            assert a is None
            continue
        assert a.dtype == np.float32 and b.dtype == dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol * max(1.0, np.abs(b).max()))


def assert_same_on_one_and_two_threads(run):
    """`run()`'s arrays are identical with hikeras set to one thread and to two."""
    from hikeras import config

    runs = []
    try:
        for threads in (1, 2):
            config.set_num_threads(threads)
            runs.append(run())
    finally:
        config.set_num_threads(None)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def on_both_backends(run):
    """`{"numba": run(), "numpy": run()}`, each with that backend selected."""
    from hikeras import backend

    results = {}
    previous = backend.backend()
    try:
        for name in ("numba", "numpy"):
            backend.set_backend(name)
            results[name] = run()
    finally:
        backend.set_backend(previous)
    return results


def forwards_equal(name, args, attrs=None):
    """Runs op `name`'s numba and numpy forward kernels on `args`; asserts equal outputs
    (where the numba table ran numpy's kernel); returns the outputs and both residuals."""
    from hikeras.backend import numba_backend, numpy_backend

    got, residual = numba_backend.ops[name].forward(*args, **(attrs or {}))
    want, want_residual = numpy_backend.ops[name].forward(*args, **(attrs or {}))
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)
    return got, residual, want_residual
