"""The numba backend's row and elementwise kernels against numpy's, gradients included.

`test_numba_backend.py` runs the op test cases (references, finite
differences) under numba and compares forward results; here, on shapes
large enough for the threaded kernels, forward *and* gradients of the
compiled softmax cross-entropies, normalisations and activations are
compared with the numpy backend's on the same inputs, including the edge
values (infinite and NaN logits) and the inputs they decline.

Tolerances: 1e-5 relative in float32, 1e-11 in float64, plus an absolute
1e-6 (float32) of the largest value: the compiled sums add in a different
(vectorised, chunked) order than numpy's pairwise sums, and
`_vector_math.exp` is within 2 ulp of numpy's; nothing else differs. A
per-feature gradient summed over 10**4 rows in float32 is off by ~1e-6 of
its size in numpy's result as much as in ours (both measured against
float64).
"""

import numpy as np
import pytest

from hikeras import backend
from tests.helpers.backends import installed

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')


def _run(name, op, inputs, attrs, wrt, weights):
    """`(outputs, gradients)` of `sum(weights * op(...)[0])` under backend `name`."""
    previous = backend.backend()
    backend.set_backend(name)
    try:
        values = [backend.Variable(x) if i in wrt else x for i, x in enumerate(inputs)]
        with backend.GradientTape() as tape:
            out = backend.apply(op, *values, **attrs)
            outs = out if isinstance(out, tuple) else (out,)
            loss = backend.apply("sum", backend.apply("multiply", outs[0], weights))
        grads = tape.gradient(loss, [values[i] for i in wrt])
        return [np.asarray(o) for o in outs], grads
    finally:
        backend.set_backend(previous)


def _tolerance(dtype, reference):
    size = max(1.0, float(np.nanmax(np.abs(reference), initial=0.0)))
    if dtype == np.float32:
        return {"rtol": 1e-5, "atol": 1e-6 * size}
    return {"rtol": 1e-11, "atol": 1e-13 * size}


def _compare(op, inputs, attrs, wrt, rng):
    dtype = inputs[0].dtype
    outs, _ = _run("numpy", op, inputs, attrs, (), 1.0)
    weights = rng.standard_normal(outs[0].shape).astype(dtype)
    want = _run("numpy", op, inputs, attrs, wrt, weights)
    got = _run("numba", op, inputs, attrs, wrt, weights)
    for a, b in zip(got[0] + got[1], want[0] + want[1]):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, **_tolerance(dtype, b))
    return got


def _data(rng, dtype, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


DTYPES = [np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(7, 10), (300, 257), (2, 3, 600)])
def test_softmax_cross_entropies(rng, dtype, shape):
    logits = _data(rng, dtype, *shape, scale=3.0)
    labels = rng.integers(0, shape[-1], shape[:-1])
    probabilities = rng.random(shape).astype(dtype)
    probabilities /= probabilities.sum(-1, keepdims=True)
    _compare("sparse_softmax_cross_entropy", (logits, labels), {}, (0,), rng)
    _compare("softmax_cross_entropy", (logits, probabilities), {}, (0, 1), rng)


@pytest.mark.parametrize("op", ["softmax_cross_entropy", "sparse_softmax_cross_entropy"])
def test_softmax_cross_entropy_edge_values_as_numpy(rng, op):
    logits = _data(rng, np.float32, 6, 5)
    logits[0] = -np.inf                       # NaN, as numpy's kernel gives
    logits[1, 2] = np.inf
    logits[2, 3] = np.nan
    logits[3] = [1000.0, -1000.0, 0.0, 999.0, 1.0]   # far beyond exp's range: shifted
    logits[4, 1] = -np.inf                    # one impossible class: fine
    labels = np.array([1, 2, 0, 3, 0, 4])
    if op == "softmax_cross_entropy":
        labels = np.eye(5, dtype=np.float32)[labels]
    with np.errstate(all="ignore"):
        want = backend.numpy_backend.ops[op].forward(logits, labels)
        got = backend.numba_backend.ops[op].forward(logits, labels)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)   # NaNs in the same places


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 5, 5, 3), (300, 70), (8, 40, 40, 32)])
def test_batch_norm(rng, dtype, shape):
    x = _data(rng, dtype, *shape, scale=2.0) + 1.5
    gamma, beta = _data(rng, dtype, shape[-1]), _data(rng, dtype, shape[-1])
    _compare("batch_norm", (x, gamma, beta), {"epsilon": 1e-3}, (0, 1, 2), rng)
    _compare("batch_norm", (x, None, None), {"axis": len(shape) - 1}, (0,), rng)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis,gamma_shape", [
    ((300, 257), -1, (257,)),
    ((4, 50, 768), 2, (1, 1, 768)),
    ((64, 6, 20), (1, 2), (6, 20)),           # two trailing axes
    ((64, 6, 20), (1, 2), (1, 20)),           # scale broadcast over one of them
])
def test_layer_norm(rng, dtype, shape, axis, gamma_shape):
    x = _data(rng, dtype, *shape, scale=2.0) - 0.5
    gamma, beta = _data(rng, dtype, *gamma_shape), _data(rng, dtype, *gamma_shape)
    _compare("layer_norm", (x, gamma, beta), {"axis": axis}, (0, 1, 2), rng)
    _compare("layer_norm", (x, None, beta), {"axis": axis}, (0, 2), rng)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,attrs", [("sigmoid", {}), ("silu", {}),
                                      ("gelu", {"approximate": True}), ("gelu", {}),
                                      ("softplus", {}),
                                      ("elu", {"alpha": 0.7}), ("selu", {}),
                                      ("softmax", {}), ("log_softmax", {"axis": 1})])
def test_activations(rng, dtype, op, attrs):
    x = _data(rng, dtype, 300, 301, scale=4.0)
    x[0, :6] = [0.0, -0.0, 200.0, -200.0, 1e-30, -1e-30]   # tails and zeros
    _compare(op, (x,), attrs, (0,), rng)


def test_activation_special_values_as_numpy():
    x = np.array([np.nan, np.inf, -np.inf, 1e4, -1e4, 0.0], np.float32)
    for op in ("sigmoid", "silu", "softplus", "elu", "selu", "gelu"):
        with np.errstate(all="ignore"):
            want = backend.numpy_backend.ops[op](x)
            got = backend.numba_backend.ops[op](x)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op,inputs,attrs", [
    ("sigmoid", (np.linspace(-3, 3, 12).astype(np.float16),), {}),
    ("layer_norm", (np.arange(12.0).reshape(3, 4), None, None), {"axis": 0}),
    ("batch_norm", (np.arange(24.0).reshape(2, 3, 4), None, None), {"axis": 1}),
    ("softmax", (np.arange(12.0).reshape(3, 4),), {"axis": 0}),
    ("sparse_softmax_cross_entropy", (np.zeros((2, 3)), np.array([0, 2], np.uint8)), {}),
])
def test_declined_inputs_give_numpy_results(op, inputs, attrs):
    got = backend.numba_backend.ops[op](*inputs, **attrs)
    want = backend.numpy_backend.ops[op](*inputs, **attrs)
    for a, b in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_out_of_range_class_reports_as_numpy():
    with pytest.raises(IndexError):
        backend.numba_backend.ops["sparse_softmax_cross_entropy"](
            np.zeros((2, 3), np.float32), np.array([0, 3]))


def test_batch_norm_statistics_gradients_take_numpy_vjp(rng):
    x = _data(rng, np.float32, 20, 3)
    grads = []
    for name in ("numpy", "numba"):
        previous = backend.backend()
        backend.set_backend(name)
        try:
            xv = backend.Variable(x)
            with backend.GradientTape() as tape:
                y, mean, var = backend.apply("batch_norm", xv, None, None)
                loss = backend.apply("add", backend.apply("sum", y),
                                     backend.apply("sum", backend.apply("multiply", var, mean)))
            grads.append(tape.gradient(loss, [xv])[0])
        finally:
            backend.set_backend(previous)
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op,make,attrs,wrt", [
    ("batch_norm", lambda r: (r.standard_normal((16, 30, 30, 8)).astype(np.float32),
                              r.standard_normal(8).astype(np.float32), None), {}, (0, 1)),
    ("layer_norm", lambda r: (r.standard_normal((200, 700)).astype(np.float32),
                              r.standard_normal(700).astype(np.float32), None), {}, (0, 1)),
    ("sparse_softmax_cross_entropy", lambda r: (
        r.standard_normal((300, 300)).astype(np.float32), r.integers(0, 300, 300)), {}, (0,)),
    ("softmax_cross_entropy", lambda r: (
        r.standard_normal((300, 300)).astype(np.float32),
        r.random((300, 300)).astype(np.float32)), {}, (0, 1)),
    ("silu", lambda r: (r.standard_normal(200_000).astype(np.float32),), {}, (0,)),
    ("gelu", lambda r: (r.standard_normal(200_000).astype(np.float32),), {}, (0,)),
    ("softmax", lambda r: (r.standard_normal((300, 300)),), {}, (0,)),
])
def test_results_do_not_depend_on_the_thread_count(rng, op, make, attrs, wrt):
    from hikeras.backend.numpy_backend.batch_threads import set_num_threads

    inputs = make(rng)
    weights = rng.standard_normal(inputs[0].shape[:-1] if "cross" in op else inputs[0].shape)
    weights = weights.astype(inputs[0].dtype)
    results = []
    try:
        for threads in (1, 2):
            set_num_threads(threads)
            outs, grads = _run("numba", op, inputs, attrs, wrt, weights)
            results.append(outs + grads)
    finally:
        set_num_threads(None)
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
