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

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')

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


class _Node:
    """What a VJP reads of a recorded call."""

    def __init__(self, residual, attrs):
        self.residual, self.attrs = residual, attrs
        self.input_refs = [object()] * 5


def _fixed_grads(rng):
    """Output gradients drawn once, then the same for every call."""
    draws = []

    def grads(outputs):
        if not draws:
            draws.extend(rng.standard_normal(o.shape) for o in outputs)
        return [g.astype(o.dtype) for g, o in zip(draws, outputs)]

    return grads


def _forward_backward(ops, args, attrs, grads):
    op = ops["gru_sequence"]
    outputs, residual = op.forward(*args, **attrs)
    incoming = grads(outputs)
    before = [g.copy() for g in incoming]
    input_grads = op.vjp(_Node(residual, attrs), incoming)
    for g, copy in zip(incoming, before, strict=True):   # the incoming gradients are left alone
        np.testing.assert_array_equal(g, copy)
    return outputs, input_grads, residual


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


def _masks(rng, batch, steps, units, change):
    """`(mask, recurrent_mask)` for a case, with every column masked somewhere."""
    mask = recurrent_mask = None
    if "mask" in change:
        mask = rng.random((batch, steps)) > 0.4
        mask[:, 0] = False      # outputs before the first unmasked step
    if "dropout" in change:
        recurrent_mask = (rng.random((batch, units)) > 0.3).astype(np.float32) / 0.7
    return mask, recurrent_mask


def _assert_close(got, want, rtol, atol):
    """Equal to float32 rounding; `atol` scales with an array's largest value, since the
    bias gradients are sums over all steps and rows, whose rounding follows their terms."""
    for a, b in zip(got, want, strict=True):
        if b is None:
            assert a is None
            continue
        assert a.dtype == np.float32 and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol * max(1.0, np.abs(b).max()))


CASES = [
    {},
    {"go_backwards": True},
    {"return_sequences": False},
    {"go_backwards": True, "return_sequences": False},
]


@pytest.mark.parametrize("batch", [1, 33, 70])   # one block, a partial block, three blocks
@pytest.mark.parametrize("attrs", CASES)
@pytest.mark.parametrize("change", ["", "mask", "dropout", "mask+dropout", "no bias"])
@pytest.mark.parametrize("reset_after", [True, False])
def test_compiled_gru_matches_the_numpy_kernel(rng, compiled_calls, batch, attrs, change,
                                               reset_after):
    steps, units = 7, 6
    args = _gru_inputs(rng, batch, steps, units=units, bias=change != "no bias",
                       reset_after=reset_after)
    args += _masks(rng, batch, steps, units, change)
    attrs = dict(attrs, reset_after=reset_after)
    if "mask" in change:
        attrs["zero_output_for_mask"] = batch % 2 == 0
    grads = _fixed_grads(rng)
    got, got_grads, residual = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    assert compiled_calls == {"forward": 1, "backward": 1}
    _assert_close(list(got) + list(got_grads), list(want) + list(want_grads), 2e-5, 2e-6)
    # both kernels keep the same residual: either VJP reads the other's
    numpy_grads = numpy_backend.ops["gru_sequence"].vjp(_Node(residual, attrs), grads(got))
    _assert_close(numpy_grads, want_grads, 2e-5, 2e-6)
    _, numpy_residual = numpy_backend.ops["gru_sequence"].forward(*args, **attrs)
    compiled_grads = numba_backend.ops["gru_sequence"].vjp(_Node(numpy_residual, attrs),
                                                           grads(got))
    assert compiled_calls == {"forward": 1, "backward": 2}
    _assert_close(compiled_grads, want_grads, 2e-5, 2e-6)


@pytest.mark.parametrize("reset_after", [True, False])
def test_compiled_gru_float32_gradients_match_float64_ones(rng, compiled_calls, reset_after):
    args = _gru_inputs(rng, 40, steps=12, reset_after=reset_after)
    args += _masks(rng, 40, 12, 6, "mask+dropout")
    attrs = {"reset_after": reset_after}
    grads = _fixed_grads(rng)
    got, got_grads, _ = _forward_backward(numba_backend.ops, args, attrs, grads)
    args64 = [a if a is None or a.dtype == bool else a.astype(np.float64) for a in args]
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args64, attrs, grads)
    assert compiled_calls == {"forward": 1, "backward": 1}
    for a, b in zip(list(got) + list(got_grads), list(want) + list(want_grads), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_compiled_gru_computes_only_the_gradients_asked_for(rng):
    args = _gru_inputs(rng, 9, steps=4)
    grads = _fixed_grads(rng)
    outputs, residual = numba_backend.ops["gru_sequence"].forward(*args)
    full = numba_backend.ops["gru_sequence"].vjp(_Node(residual, {}), grads(outputs))
    node = _Node(residual, {})
    node.input_refs = [None, None, object(), None, object()]
    partial = numba_backend.ops["gru_sequence"].vjp(node, grads(outputs))
    assert [g is None for g in partial] == [True, True, False, True, False]
    np.testing.assert_array_equal(partial[2], full[2])
    np.testing.assert_array_equal(partial[4], full[4])


def test_compiled_gru_trains_through_the_tape_like_numpy(rng):
    from hikeras import backend

    args = _gru_inputs(rng, 35, steps=9)
    results = {}
    for name in ("numba", "numpy"):
        previous = backend.backend()
        backend.set_backend(name)
        try:
            variables = [Variable(a) for a in args]
            with GradientTape() as tape:
                out, h = apply("gru_sequence", *variables, None, None)
                loss = apply("add", apply("sum", apply("square", out)), apply("sum", h))
            results[name] = [np.asarray(loss)] + tape.gradient(loss, variables)
        finally:
            backend.set_backend(previous)
    for a, b in zip(results["numba"], results["numpy"], strict=True):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("change", ["float64", "activation"])
def test_uncovered_inputs_run_the_numpy_kernel(rng, compiled_calls, change):
    dtype = np.float64 if change == "float64" else np.float32
    args = _gru_inputs(rng, 4, 5, dtype=dtype)
    attrs = {"recurrent_activation": "hard_sigmoid"} if change == "activation" else {}
    grads = _fixed_grads(rng)
    got, got_grads, _ = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    assert compiled_calls == {"forward": 0, "backward": 0}
    for a, b in zip(list(got) + list(got_grads), list(want) + list(want_grads), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("reset_after", [True, False])
def test_compiled_gru_does_not_depend_on_the_thread_count(rng, reset_after):
    from hikeras import config

    args = _gru_inputs(rng, 70, steps=6, reset_after=reset_after)
    args += _masks(rng, 70, 6, 6, "mask+dropout")
    grads = _fixed_grads(rng)
    runs = []
    try:
        for threads in (1, 2):
            config.set_num_threads(threads)
            got, got_grads, _ = _forward_backward(numba_backend.ops, args,
                                                  {"reset_after": reset_after}, grads)
            runs.append(list(got) + list(got_grads))
    finally:
        config.set_num_threads(None)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_without_openblas_sgemm_the_numpy_kernel_runs(rng, monkeypatch, compiled_calls):
    monkeypatch.setattr(_cblas, "AVAILABLE", False)
    args = _gru_inputs(rng, 3, steps=4)
    got, _ = numba_backend.ops["gru_sequence"].forward(*args)
    want, _ = numpy_backend.ops["gru_sequence"].forward(*args)
    assert compiled_calls["forward"] == 0
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)
