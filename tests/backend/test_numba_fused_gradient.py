"""The numba backend's one-pass activation and bias gradients of fused conv ops.

`gz` must equal numpy's formulas bit for bit (NaN and signed zeros
included); the bias gradient is checked against a float64 sum and must not
depend on the thread count.
"""

import numpy as np
import pytest

from hikeras import backend
from tests.helpers.backends import installed
from tests.helpers.check_op import check_op
from tests.helpers.recurrent_kernels import assert_same_on_one_and_two_threads

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')

if installed("numba"):
    from hikeras.backend.numba_backend import _fused_gradient
    from hikeras.backend.numpy_backend.linalg import _FUSED_ACTIVATIONS

ACTIVATIONS = ["linear", "relu", "sigmoid", "tanh"]


def _case(rng, dtype, activation, shape=(3, 7, 5, 600)):
    out = rng.uniform(-1, 1, shape).astype(dtype)
    if activation == "sigmoid":
        out = np.abs(out)
    g = rng.standard_normal(shape).astype(dtype)
    g.flat[::97] = np.nan
    g.flat[::89] = -0.0
    out.flat[::83] = 0.0
    return out, g


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_gradients_equal_numpy_formulas(rng, dtype, activation):
    out, g = _case(rng, dtype, activation)
    gz, bias = _fused_gradient.activation_and_bias_gradients(activation, out, g, dtype)
    want = np.ascontiguousarray(_FUSED_ACTIVATIONS[activation][1](out, g), dtype=dtype)
    assert gz.dtype == dtype and gz.shape == out.shape
    bits = np.uint32 if dtype == np.float32 else np.uint64
    np.testing.assert_array_equal(gz.view(bits), want.view(bits))
    exact = want.reshape(-1, out.shape[-1]).astype(np.float64).sum(axis=0)
    finite = np.isfinite(exact)
    assert np.array_equal(np.isnan(bias), np.isnan(exact))
    np.testing.assert_allclose(bias[finite], exact[finite],
                               rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-4)


def test_bias_gradient_does_not_depend_on_the_thread_count(rng):
    out, g = _case(rng, np.float32, "relu", shape=(64, 24, 24, 16))
    g[np.isnan(g)] = 1

    def run():
        return _fused_gradient.activation_and_bias_gradients("relu", out, g, np.float32)
    assert_same_on_one_and_two_threads(run)


@pytest.mark.parametrize("activation, dtype", [("relu", np.float16), ("softplus", np.float32)])
def test_uncovered_cases_are_declined(rng, activation, dtype):
    out, g = _case(rng, dtype, "relu", shape=(2, 3))
    assert _fused_gradient.activation_and_bias_gradients(activation, out, g, dtype) is None


@pytest.mark.parametrize("channels, activation", [(1, "tanh"), (3, "sigmoid"), (2, "linear")])
def test_conv_gradients_through_the_fused_pass(rng, channels, activation):
    """Depthwise-path (one channel) and Winograd-path convolutions, finite differences."""
    previous = backend.backend()
    backend.set_backend("numba")
    try:
        x = rng.uniform(-1, 1, (2, 5, 6, channels))
        kernel = rng.uniform(-1, 1, (3, 3, channels, 4))
        bias = rng.uniform(-1, 1, 4)
        check_op("conv", x, kernel, bias, attrs={"activation": activation})
    finally:
        backend.set_backend(previous)
