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

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')

if installed("numba"):
    from hikeras.backend import numba_backend, numpy_backend
    from hikeras.backend.numba_backend import _cblas, _jit
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


class _Node:
    """What a VJP reads of a recorded call."""

    def __init__(self, residual, attrs, differentiated=6):
        self.residual, self.attrs = residual, attrs
        self.input_refs = [object()] * differentiated


def _forward_backward(ops, args, attrs, rng_grads):
    op = ops["lstm_sequence"]
    outputs, residual = op.forward(*args, **attrs)
    grads = [g.astype(outputs[0].dtype) for g in rng_grads(outputs)]
    result = outputs, op.vjp(_Node(residual, attrs), grads), residual
    # a kernel numba could not compile would have been replaced by numpy's silently
    assert not any(name.startswith("lstm_sequence") for name, _ in _jit._failed)
    return result


def _grads_for(rng):
    draws = {}

    def make(outputs):
        if not draws:
            draws["g"] = [rng.standard_normal(o.shape) for o in outputs]
        return draws["g"]

    return make


CASES = [
    {},
    {"go_backwards": True},
    {"return_sequences": False},
    {"go_backwards": True, "return_sequences": False},
]


def _masks(rng, batch, steps, units, change):
    """`(mask, recurrent_mask)` for a case, with every column masked somewhere."""
    mask = recurrent_mask = None
    if "mask" in change:
        mask = rng.random((batch, steps)) > 0.4
        mask[:, 0] = False      # outputs before the first unmasked step
    if "dropout" in change:
        recurrent_mask = (rng.random((batch, units)) > 0.3).astype(np.float32) / 0.7
    return mask, recurrent_mask


@pytest.mark.parametrize("batch", [1, 33, 70])   # one block, a partial block, three blocks
@pytest.mark.parametrize("attrs", CASES)
@pytest.mark.parametrize("change", ["", "mask", "dropout", "mask+dropout", "no bias"])
def test_compiled_lstm_matches_the_numpy_kernel(rng, batch, attrs, change):
    steps, units = 11, 6    # two chunks of steps (`_CHUNK` 8), the second partial
    args = _lstm_inputs(rng, batch, steps, units=units, bias=change != "no bias")
    args += _masks(rng, batch, steps, units, change)
    if "mask" in change:
        attrs = dict(attrs, zero_output_for_mask=batch % 2 == 0)
    grads = _grads_for(rng)
    got, got_grads, residual = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    assert not residual[0].flags.c_contiguous   # the compiled kernel ran (its layout)
    for a, b in zip(got + got_grads, want + want_grads):
        if b is None:
            assert a is None
            continue
        assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
        _assert_float32_close(a, b)
    # the numpy VJP reads the compiled kernel's residual once completed (its fallback)
    node = _Node(residual, attrs)
    numba_backend.recurrent_lstm._numpy_residual(node)
    numpy_grads = numpy_backend.ops["lstm_sequence"].vjp(node, grads(None))
    for a, b in zip(numpy_grads, want_grads):
        if b is not None:
            _assert_float32_close(a, b)


def _assert_float32_close(a, b):
    """Equal to float32 rounding. The kernels sum the weight and bias gradients over
    `T * B` terms in different orders: where terms cancel, an element's rounding error
    is relative to the array's scale (a few 1e-6 of its largest element), not its own."""
    np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6 * max(1.0, float(np.abs(b).max())))


def test_compiled_lstm_float32_gradients_match_float64_ones(rng):
    args = _lstm_inputs(rng, 40, steps=12)
    attrs = {"return_sequences": True}
    grads = _grads_for(rng)
    got, got_grads, _ = _forward_backward(numba_backend.ops, args, attrs, grads)
    want, want_grads, _ = _forward_backward(
        numpy_backend.ops, [a.astype(np.float64) for a in args], attrs, grads)
    for a, b in zip(got + got_grads, want + want_grads):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_compiled_lstm_trains_through_the_tape_like_numpy(rng):
    args = _lstm_inputs(rng, 35, steps=9)
    results = {}
    for name in ("numba", "numpy"):
        from hikeras import backend
        previous = backend.backend()
        backend.set_backend(name)
        try:
            variables = [Variable(a) for a in args]
            with GradientTape() as tape:
                out, _h, c = apply("lstm_sequence", *variables, None, None)
                loss = apply("add", apply("sum", apply("square", out)), apply("sum", c))
            results[name] = [np.asarray(loss)] + tape.gradient(loss, variables)
        finally:
            backend.set_backend(previous)
    for a, b in zip(results["numba"], results["numpy"]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("change", ["float64", "activation"])
def test_uncovered_inputs_run_the_numpy_kernel(rng, change):
    args = _lstm_inputs(rng, 4, 5, dtype=np.float64 if change == "float64" else np.float32)
    attrs = {"recurrent_activation": "hard_sigmoid"} if change == "activation" else {}
    got, residual = numba_backend.ops["lstm_sequence"].forward(*args, **attrs)
    want, _ = numpy_backend.ops["lstm_sequence"].forward(*args, **attrs)
    assert residual[0].flags.c_contiguous      # numpy's layout: the numpy kernel ran
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)


def test_compiled_lstm_does_not_depend_on_the_thread_count(rng):
    from hikeras import config

    args = _lstm_inputs(rng, 70, steps=11) + list(_masks(rng, 70, 11, 6, "mask+dropout"))
    grads = _grads_for(rng)
    runs = []
    try:
        for threads in (1, 2):
            config.set_num_threads(threads)
            got, got_grads, _ = _forward_backward(numba_backend.ops, args, {}, grads)
            runs.append(list(got) + list(got_grads))
    finally:
        config.set_num_threads(None)
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


def test_without_openblas_sgemm_the_numpy_kernel_runs(rng, monkeypatch):
    monkeypatch.setattr(_cblas, "AVAILABLE", False)
    args = _lstm_inputs(rng, 3, steps=4)
    got, residual = numba_backend.ops["lstm_sequence"].forward(*args)
    want, _ = numpy_backend.ops["lstm_sequence"].forward(*args)
    assert residual[0].flags.c_contiguous
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("failure", ["float64 gradients", "no compiled VJP"])
def test_compiled_lstm_vjp_falls_back_to_numpy_on_its_residual(rng, monkeypatch, go_backwards,
                                                               failure):
    """The compiled forward leaves the inputs and `tanh(c)` out of its residual; the
    numpy VJP, where it runs instead of the compiled one (gradients the compiled one
    does not cover, a VJP numba cannot compile: at the failure and on every later
    call), gets the residual completed."""
    from numba.core.errors import NumbaError

    args = _lstm_inputs(rng, 33, steps=10)
    attrs = {"go_backwards": go_backwards}
    grads = _grads_for(rng)
    _, want_grads, _ = _forward_backward(numpy_backend.ops, args, attrs, grads)
    g = [a.astype(np.float32) for a in grads(None)]
    if failure == "float64 gradients":
        g = [a.astype(np.float64) for a in g]
    else:
        def cannot_compile(*_args):
            raise NumbaError("not compiled in this test")

        monkeypatch.setattr(numba_backend.recurrent_lstm, "_backward", cannot_compile)
        monkeypatch.setattr(_jit, "_failed", set())
    for _call in range(2):
        _, residual = numba_backend.ops["lstm_sequence"].forward(*args, **attrs)
        assert not residual[0].flags.c_contiguous   # the compiled kernel ran
        got_grads = numba_backend.ops["lstm_sequence"].vjp(_Node(residual, attrs), g)
        for a, b in zip(got_grads, want_grads):
            np.testing.assert_allclose(a, b, rtol=2e-5,
                                       atol=2e-6 * max(1.0, float(np.abs(b).max())))
    assert bool(_jit._failed) == (failure == "no compiled VJP")
