"""The numba backend's compiled `gru_sequence` (`backend/numba_backend/recurrent_gru.py`).

It is compared with the numpy kernel (outputs, final state and every
gradient; the numpy VJP is gradient-checked in `test_ops_recurrent.py`), and
its float32 gradients with the numpy kernel's float64 ones; inputs it does
not cover must reach the numpy kernel; the result must not depend on the
thread count; neither VJP may write into the incoming gradients. The op-test
cases of `test_ops_recurrent.py` run under numba in `test_numba_backend.py`.
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

OP = "gru_sequence"

if installed("numba"):
    from hikeras.backend import numba_backend, numpy_backend
    from hikeras.backend.numba_backend import _cblas


def _gru_inputs(rng, batch, steps, inputs=5, units=6, dtype=np.float32, bias=True,
                reset_after=True):
    def draw(*shape, scale=0.5):
        return (rng.standard_normal(shape) * scale).astype(dtype)

    bias_shape = (2, 3 * units) if reset_after else (3 * units,)
    return [draw(batch, steps, inputs, scale=1.0), draw(batch, units), draw(inputs, 3 * units),
            draw(units, 3 * units), draw(*bias_shape) if bias else None]


def _forward_backward(ops, args, attrs, grads):
    return forward_backward(ops, OP, args, attrs, grads, differentiated=5)


@pytest.fixture
def compiled_calls(monkeypatch):
    """Counts the calls of the compiled forward and backward loops (either `reset_after`)."""
    from hikeras.backend.numba_backend import _gru_reset_after, _gru_reset_before

    calls = {"forward": 0, "backward": 0}

    def counted(module, name):
        kernel = getattr(module, name)

        def run(*args):
            calls[name] += 1
            return kernel(*args)
        return run

    for module in (_gru_reset_after, _gru_reset_before):
        for name in calls:
            monkeypatch.setattr(module, name, counted(module, name))
    return calls


@pytest.mark.parametrize("batch", [1, 33, 70])   # one block, a partial block, three blocks
@pytest.mark.parametrize("attrs", CASES)
@pytest.mark.parametrize("change", ["", "mask", "dropout", "mask+dropout", "no bias"])
@pytest.mark.parametrize("reset_after", [True, False])
def test_compiled_gru_matches_the_numpy_kernel(rng, compiled_calls, batch, attrs, change,
                                               reset_after):
    steps, units = 7, 6
    args = _gru_inputs(rng, batch, steps, units=units, bias=change != "no bias",
                       reset_after=reset_after)
    args += masks(rng, batch, steps, units, change)
    attrs = dict(attrs, reset_after=reset_after)
    if "mask" in change:
        attrs["zero_output_for_mask"] = batch % 2 == 0
    grads = fixed_grads(rng)
    got, got_grads, residual = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    assert compiled_calls == {"forward": 1, "backward": 1}
    assert_float32_close(list(got) + list(got_grads), list(want) + list(want_grads))
    # both kernels keep the same residual: either VJP reads the other's
    numpy_grads = numpy_backend.ops[OP].vjp(Node(residual, attrs, 5), grads(got))
    assert_float32_close(numpy_grads, want_grads)
    _, numpy_residual = numpy_backend.ops[OP].forward(*args, **attrs)
    compiled_grads = numba_backend.ops[OP].vjp(Node(numpy_residual, attrs, 5),
                                                           grads(got))
    assert compiled_calls == {"forward": 1, "backward": 2}
    assert_float32_close(compiled_grads, want_grads)


@pytest.mark.parametrize("reset_after", [True, False])
def test_compiled_gru_float32_gradients_match_float64_ones(rng, compiled_calls, reset_after):
    args = _gru_inputs(rng, 40, steps=12, reset_after=reset_after)
    args += masks(rng, 40, 12, 6, "mask+dropout")
    attrs = {"reset_after": reset_after}
    grads = fixed_grads(rng)
    got, got_grads, _ = _forward_backward(numba_backend.ops, args, attrs, grads)
    args64 = [a if a is None or a.dtype == bool else a.astype(np.float64) for a in args]
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args64, attrs, grads)
    assert compiled_calls == {"forward": 1, "backward": 1}
    for a, b in zip(list(got) + list(got_grads), list(want) + list(want_grads), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_compiled_gru_computes_only_the_gradients_asked_for(rng):
    args = _gru_inputs(rng, 9, steps=4)
    grads = fixed_grads(rng)
    outputs, residual = numba_backend.ops[OP].forward(*args)
    full = numba_backend.ops[OP].vjp(Node(residual, {}, 5), grads(outputs))
    node = Node(residual, {}, 5)
    node.input_refs = [None, None, object(), None, object()]
    partial = numba_backend.ops[OP].vjp(node, grads(outputs))
    assert [g is None for g in partial] == [True, True, False, True, False]
    np.testing.assert_array_equal(partial[2], full[2])
    np.testing.assert_array_equal(partial[4], full[4])


def test_compiled_gru_trains_through_the_tape_like_numpy(rng):
    args = _gru_inputs(rng, 35, steps=9)

    def train():
        variables = [Variable(a) for a in args]
        with GradientTape() as tape:
            out, h = apply(OP, *variables, None, None)
            loss = apply("add", apply("sum", apply("square", out)), apply("sum", h))
        return [np.asarray(loss)] + tape.gradient(loss, variables)

    results = on_both_backends(train)
    for a, b in zip(results["numba"], results["numpy"], strict=True):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("change", ["float64", "activation"])
def test_uncovered_inputs_run_the_numpy_kernel(rng, compiled_calls, change):
    dtype = np.float64 if change == "float64" else np.float32
    args = _gru_inputs(rng, 4, 5, dtype=dtype)
    attrs = {"recurrent_activation": "hard_sigmoid"} if change == "activation" else {}
    grads = fixed_grads(rng)
    got, got_grads, _ = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    assert compiled_calls == {"forward": 0, "backward": 0}
    for a, b in zip(list(got) + list(got_grads), list(want) + list(want_grads), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("reset_after", [True, False])
def test_compiled_gru_does_not_depend_on_the_thread_count(rng, reset_after):
    args = _gru_inputs(rng, 70, steps=6, reset_after=reset_after)
    args += masks(rng, 70, 6, 6, "mask+dropout")
    grads = fixed_grads(rng)

    def run():
        got, got_grads, _ = _forward_backward(numba_backend.ops, args,
                                              {"reset_after": reset_after}, grads)
        return list(got) + list(got_grads)

    assert_same_on_one_and_two_threads(run)


def test_without_openblas_sgemm_the_numpy_kernel_runs(rng, monkeypatch, compiled_calls):
    monkeypatch.setattr(_cblas, "AVAILABLE", False)
    args = _gru_inputs(rng, 3, steps=4)
    forwards_equal(OP, args)
    assert compiled_calls["forward"] == 0
