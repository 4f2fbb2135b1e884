"""The numba backend's compiled recurrent ops and the float32 gates they are built on
(their `exp` is tested in test_numba_vector_math.py).

The compiled `lstm_sequence` is compared with the numpy kernel (outputs, final
states and every gradient, the numpy VJP being gradient-checked in
`test_ops_recurrent.py`), and its float32 gradients with the numpy kernel's
float64 ones; inputs it does not cover must reach the numpy kernel; the
result must not depend on the thread count. The op-test cases of
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

OP = "lstm_sequence"

if installed("numba"):
    from hikeras.backend import numba_backend, numpy_backend
    from hikeras.backend.numba_backend import _cblas
    from hikeras.backend.numba_backend._jit import jit
    from hikeras.backend.numba_backend._vector_math import (
        sigmoid_of_negated32,
        tanh32,
    )

    @jit()
    def _map(f_id, x, out):
        for k in range(x.shape[0]):
            if f_id == 1:
                out[k] = sigmoid_of_negated32(x[k])
            else:
                out[k] = tanh32(x[k])


def _apply(f_id, x):
    x = np.asarray(x, np.float32)
    out = np.empty_like(x)
    _map(f_id, x, out)
    return out


def test_sigmoid_and_tanh_saturate_exactly_without_nan():
    z = np.array([-np.inf, -1e30, -200, -90, 90, 200, 1e30, np.inf], np.float32)
    assert _apply(1, -z).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]   # sigmoid(z) = f(-z)
    assert _apply(2, z).tolist() == [-1, -1, -1, -1, 1, 1, 1, 1]


def test_sigmoid_and_tanh_match_numpy_to_float32_rounding():
    z = np.linspace(-30, 30, 200_001, dtype=np.float32)
    np.testing.assert_allclose(_apply(1, -z), 1 / (1 + np.exp(-z.astype(np.float64))),
                               rtol=3e-7, atol=1e-7)
    np.testing.assert_allclose(_apply(2, z), np.tanh(z.astype(np.float64)), rtol=0, atol=3e-7)


def _lstm_inputs(rng, batch, steps, inputs=5, units=6, dtype=np.float32, bias=True):
    def draw(*shape, scale=0.5):
        return (rng.standard_normal(shape) * scale).astype(dtype)

    return [draw(batch, steps, inputs, scale=1.0), draw(batch, units), draw(batch, units),
            draw(inputs, 4 * units), draw(units, 4 * units), draw(4 * units) if bias else None]


def _forward_backward(ops, args, attrs, grads):
    return forward_backward(ops, OP, args, attrs, grads, differentiated=6)


@pytest.mark.parametrize("batch", [1, 33, 70])   # one block, a partial block, three blocks
@pytest.mark.parametrize("attrs", CASES)
@pytest.mark.parametrize("change", ["", "mask", "dropout", "mask+dropout", "no bias"])
def test_compiled_lstm_matches_the_numpy_kernel(rng, batch, attrs, change):
    steps, units = 11, 6    # two chunks of steps (`_CHUNK` 8), the second partial
    args = _lstm_inputs(rng, batch, steps, units=units, bias=change != "no bias")
    args += masks(rng, batch, steps, units, change)
    if "mask" in change:
        attrs = dict(attrs, zero_output_for_mask=batch % 2 == 0)
    grads = fixed_grads(rng)
    got, got_grads, residual = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    assert not residual[0].flags.c_contiguous   # the compiled kernel ran (its layout)
    assert_float32_close(list(got) + list(got_grads), list(want) + list(want_grads))
    # the numpy VJP reads the compiled kernel's residual once completed (its fallback)
    node = Node(residual, attrs, 6)
    numba_backend.recurrent_lstm._numpy_residual(node)
    numpy_grads = numpy_backend.ops[OP].vjp(node, grads(got))
    assert_float32_close(numpy_grads, want_grads)


def test_compiled_lstm_float32_gradients_match_float64_ones(rng):
    args = _lstm_inputs(rng, 40, steps=12)
    attrs = {"return_sequences": True}
    grads = fixed_grads(rng)
    got, got_grads, _ = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(
        numpy_backend.ops, [a.astype(np.float64) for a in args], attrs, grads)
    assert_float32_close(list(got) + list(got_grads), list(want) + list(want_grads),
                         rtol=1e-4, atol=1e-5, dtype=np.float64)


def test_compiled_lstm_trains_through_the_tape_like_numpy(rng):
    args = _lstm_inputs(rng, 35, steps=9)

    def train():
        variables = [Variable(a) for a in args]
        with GradientTape() as tape:
            out, _h, c = apply(OP, *variables, None, None)
            loss = apply("add", apply("sum", apply("square", out)), apply("sum", c))
        return [np.asarray(loss)] + tape.gradient(loss, variables)

    results = on_both_backends(train)
    for a, b in zip(results["numba"], results["numpy"]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("change", ["float64", "activation"])
def test_uncovered_inputs_run_the_numpy_kernel(rng, change):
    args = _lstm_inputs(rng, 4, 5, dtype=np.float64 if change == "float64" else np.float32)
    attrs = {"recurrent_activation": "hard_sigmoid"} if change == "activation" else {}
    _, residual, _ = forwards_equal(OP, args, attrs)
    assert residual[0].flags.c_contiguous      # numpy's layout: the numpy kernel ran


def test_compiled_lstm_does_not_depend_on_the_thread_count(rng):
    args = _lstm_inputs(rng, 70, steps=11) + list(masks(rng, 70, 11, 6, "mask+dropout"))
    grads = fixed_grads(rng)

    def run():
        got, got_grads, _ = _forward_backward(numba_backend.ops, args, {}, grads)
        return list(got) + list(got_grads)

    assert_same_on_one_and_two_threads(run)


def test_without_openblas_sgemm_the_numpy_kernel_runs(rng, monkeypatch):
    monkeypatch.setattr(_cblas, "AVAILABLE", False)
    args = _lstm_inputs(rng, 3, steps=4)
    _, residual, _ = forwards_equal(OP, args)
    assert residual[0].flags.c_contiguous


@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("failure", ["float64 gradients", "no compiled VJP"])
def test_compiled_lstm_vjp_falls_back_to_numpy_on_its_residual(rng, monkeypatch, go_backwards,
                                                               failure):
    """The compiled forward leaves the inputs and `tanh(c)` out of its residual; the
    numpy VJP, where it runs instead of the compiled one (gradients the compiled one
    does not cover, a VJP numba cannot compile: at the failure and on every later
    call), gets the residual completed."""
    from hikeras.backend.numba_backend import _jit
    from numba.core.errors import NumbaError

    args = _lstm_inputs(rng, 33, steps=10)
    attrs = {"go_backwards": go_backwards}
    grads = fixed_grads(rng)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    incoming = grads(want)
    monkeypatch.setattr(_jit, "_failed", set())
    if failure == "float64 gradients":
        incoming = [g.astype(np.float64) for g in incoming]
    else:
        def cannot_compile(*_args):
            raise NumbaError("not compiled in this test")

        monkeypatch.setattr(numba_backend.recurrent_lstm, "_backward", cannot_compile)
    for _call in range(2):
        _, residual = numba_backend.ops[OP].forward(*args, **attrs)
        assert not residual[0].flags.c_contiguous   # the compiled kernel ran
        got_grads = numba_backend.ops[OP].vjp(Node(residual, attrs, 6), incoming)
        # (float64 gradients give float64 results in numpy's VJP)
        assert_float32_close([g if g is None else g.astype(np.float32) for g in got_grads],
                             want_grads)
    recorded = {name for name, _ in _jit._failed}
    assert recorded == ({OP + ".vjp"} if failure == "no compiled VJP" else set())
