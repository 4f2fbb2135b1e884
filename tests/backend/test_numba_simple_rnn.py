"""The numba backend's compiled `simple_rnn_sequence` against the numpy kernel.

Outputs, final state and every gradient are compared with the numpy kernel's
(whose VJP is gradient-checked in `test_ops_recurrent.py`), the float32
gradients with the numpy kernel's float64 ones and with central differences
of the compiled forward; inputs it does not cover must reach the numpy kernel;
the result must not depend on the thread count. Neither backend's VJP may write
into the incoming gradients (numpy's did, for one sample with a mask). The op-test cases of
`test_ops_recurrent.py` run under numba in `test_numba_backend.py`.
"""

import numpy as np
import pytest
from hikeras.backend import GradientTape, Variable, apply

from tests.helpers.backends import installed
from tests.helpers.recurrent_kernels import (
    CASES,
    Node,
    assert_float32_close,
    assert_same_on_one_and_two_threads,
    fixed_grads,
    forward_backward,
    forwards_equal,
    masks,
    on_both_backends,
)

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')

if installed("numba"):
    from hikeras.backend import numba_backend, numpy_backend
    from hikeras.backend.numba_backend import _cblas

OP = "simple_rnn_sequence"


def _inputs(rng, batch, steps, inputs=5, units=6, dtype=np.float32, bias=True):
    def draw(*shape, scale=0.5):
        return (rng.standard_normal(shape) * scale).astype(dtype)

    return [draw(batch, steps, inputs, scale=1.0), draw(batch, units), draw(inputs, units),
            draw(units, units), draw(units) if bias else None]


def _forward_backward(ops, args, attrs, grads):
    return forward_backward(ops, OP, args, attrs, grads, differentiated=5)


@pytest.mark.parametrize("batch", [1, 33, 70])   # one block, a partial block, three blocks
@pytest.mark.parametrize("attrs", CASES)
@pytest.mark.parametrize("change", ["", "mask", "dropout", "mask+dropout", "no bias",
                                    "relu+mask+dropout"])
def test_compiled_simple_rnn_matches_the_numpy_kernel(rng, batch, attrs, change):
    steps, units = 7, 6
    args = _inputs(rng, batch, steps, units=units, bias=change != "no bias")
    args += masks(rng, batch, steps, units, change)
    if "mask" in change:
        attrs = dict(attrs, zero_output_for_mask=batch % 2 == 0)
    if "relu" in change:
        attrs = dict(attrs, activation="relu")
    grads = fixed_grads(rng)
    got, got_grads, residual = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    assert not residual[0].flags.c_contiguous   # the compiled kernel ran (its layout)
    assert_float32_close(list(got) + list(got_grads), list(want) + list(want_grads),
                         atol=2e-5)
    # the numpy VJP reads the compiled kernel's residual as its own
    numpy_grads = numpy_backend.ops[OP].vjp(Node(residual, attrs, 5), grads(got))
    assert_float32_close(numpy_grads, want_grads, atol=2e-5)


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_compiled_float32_gradients_match_float64_ones(rng, activation):
    args = _inputs(rng, 40, steps=12)
    attrs = {"activation": activation}
    grads = fixed_grads(rng)
    got, got_grads, _ = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(
        numpy_backend.ops, [a.astype(np.float64) for a in args], attrs, grads)
    assert_float32_close(list(got) + list(got_grads), list(want) + list(want_grads),
                         rtol=1e-5, atol=1e-5, dtype=np.float64)


@pytest.mark.parametrize("attrs", [{}, {"go_backwards": True, "return_sequences": False}])
def test_compiled_gradients_match_central_differences_of_the_compiled_forward(rng, attrs):
    """Each gradient, contracted with a random direction, against a central
    difference of the compiled forward along it. In float32 a small step
    drowns in rounding and a large one in truncation error, so the differences
    at steps 1e-2 and 5e-3 are extrapolated (Richardson: error O(step**4))."""
    args = _inputs(rng, 35, steps=9) + list(masks(rng, 35, 9, 6, "mask+dropout"))
    op = numba_backend.ops[OP]
    outputs, residual = op.forward(*args, **attrs)
    directions = [rng.standard_normal(o.shape) for o in outputs]
    grads = op.vjp(Node(residual, attrs, 5), [d.astype(np.float32) for d in directions])
    def contracted(i, t, v):
        shifted = list(args)
        shifted[i] = (args[i] + t * v).astype(np.float32)
        outs, _ = op.forward(*shifted, **attrs)
        return sum(float(np.sum(o.astype(np.float64) * d)) for o, d in zip(outs, directions))

    for i, grad in enumerate(grads):
        v = rng.standard_normal(args[i].shape).astype(np.float32)
        coarse, fine = ((contracted(i, h, v) - contracted(i, -h, v)) / (2 * h)
                        for h in (1e-2, 5e-3))
        numeric = (4 * fine - coarse) / 3
        analytic = float(np.sum(grad.astype(np.float64) * v))
        assert abs(numeric - analytic) <= 5e-4 * max(abs(numeric), 1.0), (i, numeric, analytic)


def test_compiled_simple_rnn_trains_through_the_tape_like_numpy(rng):
    args = _inputs(rng, 35, steps=9)

    def train():
        variables = [Variable(a) for a in args]
        with GradientTape() as tape:
            out, h = apply(OP, *variables, None, None)
            loss = apply("add", apply("sum", apply("square", out)), apply("sum", h))
        return [np.asarray(loss)] + tape.gradient(loss, variables)

    results = on_both_backends(train)
    for a, b in zip(results["numba"], results["numpy"]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("change", ["float64", "activation"])
def test_uncovered_inputs_run_the_numpy_kernel(rng, change):
    args = _inputs(rng, 4, 5, dtype=np.float64 if change == "float64" else np.float32)
    attrs = {"activation": "sigmoid"} if change == "activation" else {}
    got, residual, want_residual = forwards_equal(OP, args, attrs)
    assert residual[0].flags.c_contiguous      # numpy's layout: the numpy kernel ran
    # ... and the compiled VJP hands numpy's residual to the numpy VJP
    grads = [np.ones_like(o) for o in got]
    got_grads = numba_backend.ops[OP].vjp(Node(residual, attrs, 5), grads)
    want_grads = numpy_backend.ops[OP].vjp(Node(want_residual, attrs, 5), grads)
    for a, b in zip(got_grads, want_grads):
        np.testing.assert_array_equal(a, b)


def test_compiled_simple_rnn_does_not_depend_on_the_thread_count(rng):
    args = _inputs(rng, 70, steps=6) + list(masks(rng, 70, 6, 6, "mask+dropout"))
    grads = fixed_grads(rng)

    def run():
        got, got_grads, _ = _forward_backward(numba_backend.ops, args, {}, grads)
        return list(got) + list(got_grads)

    assert_same_on_one_and_two_threads(run)


def test_without_openblas_sgemm_the_numpy_kernel_runs(rng, monkeypatch):
    monkeypatch.setattr(_cblas, "AVAILABLE", False)
    args = _inputs(rng, 3, steps=4)
    _, residual, _ = forwards_equal(OP, args)
    assert residual[0].flags.c_contiguous
