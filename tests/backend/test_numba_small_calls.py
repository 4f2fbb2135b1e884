"""The numba backend's small calls: run on the calling thread, with the same numbers.

Convolution and pooling calls below a work threshold (one-sample inference)
run their compiled loops serially instead of waking numba's threads, and
their geometry is remembered per shape. Computing a batch in one parallel
call or sample by sample in serial calls must give the same numbers bit for
bit (each output is summed in the same order either way), and both must
agree with the numpy kernel.
"""

import numpy as np
import pytest

from tests.helpers.backends import installed

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')

if installed("numba"):
    from hikeras.backend import numba_backend, numpy_backend
    from hikeras.backend.numba_backend import depthwise_conv, pooling

# name: (op, input shape, kernel shape or None, attributes)
CASES = {
    "single-channel conv": ("conv", (48, 28, 28, 1), (3, 3, 1, 32),
                            {"activation": "relu"}),
    "depthwise conv, same padding, stride 2": (
        "conv", (32, 17, 18, 64), (3, 3, 1, 64),
        {"activation": "tanh", "padding": "same", "strides": 2}),
    "depthwise conv with a channel multiplier": ("conv", (32, 20, 20, 8), (3, 3, 1, 16),
                                                 {"activation": "sigmoid"}),
    "max pool": ("max_pool", (64, 24, 24, 64), None, {"pool_size": 2}),
    "max pool, same padding, overlapping": (
        "max_pool", (64, 25, 23, 32), None, {"pool_size": 3, "strides": 2, "padding": "same"}),
}


def _inputs(rng, x_shape, k_shape):
    x = rng.standard_normal(x_shape).astype(np.float32)
    if k_shape is None:
        return (x,)
    return (x, rng.standard_normal(k_shape).astype(np.float32),
            rng.standard_normal(k_shape[-1]).astype(np.float32))


def _work(name, out, inputs, attrs):
    """The work measure the kernel compares with its `SERIAL_WORK`."""
    if name == "max_pool":
        return out.size * attrs["pool_size"] ** 2, pooling.SERIAL_WORK
    return out.size * inputs[1].shape[0] * inputs[1].shape[1], depthwise_conv.SERIAL_WORK


@pytest.mark.parametrize("case", sorted(CASES))
def test_batch_in_parallel_equals_samples_one_by_one(rng, case):
    name, x_shape, k_shape, attrs = CASES[case]
    inputs = _inputs(rng, x_shape, k_shape)
    op = numba_backend.ops[name].forward
    whole = op(*inputs, **attrs)
    work, threshold = _work(name, whole, inputs, attrs)
    assert work >= threshold   # the whole batch takes the parallel loop ...
    for i in range(x_shape[0]):
        one = op(inputs[0][i:i + 1], *inputs[1:], **attrs)
        assert _work(name, one, inputs, attrs)[0] < threshold   # ... and one sample the serial one
        np.testing.assert_array_equal(one, whole[i:i + 1])
    reference = numpy_backend.ops[name].forward(*inputs, **attrs)
    np.testing.assert_allclose(whole, reference, rtol=2e-5, atol=2e-5)


def test_geometry_is_remembered_and_errors_are_not(rng):
    x = rng.standard_normal((1, 5, 5, 2)).astype(np.float32)
    pool = numba_backend.ops["max_pool"].forward
    first = pool(x, pool_size=2)
    np.testing.assert_array_equal(pool(x, pool_size=[2, 2]), first)   # unhashable attributes
    for _ in range(2):   # an invalid call raises every time, never answers from the cache
        with pytest.raises(ValueError, match="pool_size"):
            pool(x, pool_size=0)
    np.testing.assert_array_equal(pool(x, pool_size=2), first)


@pytest.mark.parametrize("rows", [1, 3, 8])
@pytest.mark.parametrize("activation", ["linear", "relu", "sigmoid", "tanh"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dense_for_a_few_rows_matches_numpy(rng, rows, activation, dtype):
    depth, units = 515, 130   # a depth that is not a multiple of the loop's 4 rows
    assert depth * units >= numba_backend.dense.MIN_KERNEL_SIZE
    x = rng.standard_normal((rows, depth)).astype(dtype)
    kernel = (rng.standard_normal((depth, units)) / np.sqrt(depth)).astype(dtype)
    bias = rng.standard_normal(units).astype(dtype)
    for args in ((x, kernel, bias), (x, kernel)):
        got = numba_backend.ops["dense"].forward(*args, activation=activation)
        want = numpy_backend.ops["dense"].forward(*args, activation=activation)
        assert got.dtype == dtype and got.shape == (rows, units)
        tolerance = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)


def test_dense_leaves_batches_and_small_kernels_to_numpy(rng, monkeypatch):
    from hikeras.backend.numba_backend import dense

    calls = []
    monkeypatch.setattr(dense, "_product", lambda *args: calls.append(args))
    x = rng.standard_normal((dense.MAX_ROWS + 1, 300)).astype(np.float32)
    kernel = rng.standard_normal((300, 300)).astype(np.float32)
    small = rng.standard_normal((300, 10)).astype(np.float32)
    for args in ((x, kernel), (x[:1], small), (x[:1], kernel.T)):   # batch, small, a view
        np.testing.assert_array_equal(numba_backend.ops["dense"].forward(*args),
                                      numpy_backend.ops["dense"].forward(*args))
    assert calls == []
    numba_backend.ops["dense"].forward(x[:1], kernel)
    assert len(calls) == 1
