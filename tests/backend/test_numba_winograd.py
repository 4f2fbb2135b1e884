"""The numba backend's Winograd F(2x2, 3x3) convolution against independent references.

Forward values are compared with the direct nested-loop reference of
`test_ops_conv.py` in float64 and with the numpy backend's im2col kernel;
gradients are checked against finite differences (`check_op`). The channel
threshold is lowered in most tests so that small, fast cases take the
Winograd path; a spy checks that they really do. (A single-channel input
takes the direct kernel of `depthwise_conv` first, so every case has two or more.)
"""

import numpy as np
import pytest

from hikeras import backend
from tests.backend.test_ops_conv import conv_reference
from tests.helpers.backends import installed
from tests.helpers.check_op import check_op

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')

if installed("numba"):
    from hikeras.backend import numba_backend, numpy_backend
    from hikeras.backend.numba_backend import winograd_conv


@pytest.fixture
def winograd(monkeypatch):
    """The numba backend active, every 3x3 stride-1 conv on Winograd; yields a call counter."""
    calls = []
    compute = winograd_conv.winograd_conv

    def spy(*args, **kwargs):
        calls.append(args[0].shape)
        return compute(*args, **kwargs)

    monkeypatch.setattr(winograd_conv, "MIN_CHANNELS", 1)
    monkeypatch.setattr(winograd_conv, "winograd_conv", spy)
    previous = backend.backend()
    backend.set_backend("numba")
    yield calls
    backend.set_backend(previous)


# (batch, height, width, in_channels, filters, padding, activation)
SHAPES = [
    (2, 6, 6, 3, 4, "valid", "relu"),
    (1, 7, 5, 2, 3, "valid", "linear"),     # odd output sizes: cropped tiles
    (3, 5, 6, 4, 2, "same", "tanh"),
    (2, 7, 7, 2, 5, "same", "sigmoid"),
    (1, 3, 3, 2, 2, "valid", "relu"),       # one output
    (2, 4, 9, 3, 3, "same", "linear"),
]


@pytest.mark.parametrize("batch, height, width, channels, filters, padding, activation",
                         SHAPES)
def test_forward_and_gradients(winograd, rng, batch, height, width, channels, filters,
                               padding, activation):
    x = rng.uniform(-1, 1, (batch, height, width, channels))
    kernel = rng.uniform(-1, 1, (3, 3, channels, filters))
    bias = rng.uniform(-1, 1, filters)
    attrs = {"padding": padding, "activation": activation}
    check_op("conv", x, kernel, bias, attrs=attrs,
             reference=lambda *a: conv_reference(*a, **attrs), rtol=1e-5, atol=1e-6)
    assert winograd, "the Winograd kernel did not run"


@pytest.mark.parametrize("channels, filters", [(2, 1), (8, 16), (32, 64), (64, 32)])
@pytest.mark.parametrize("padding, size", [("valid", 10), ("same", 9)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matches_float64_reference_and_numpy_kernel(winograd, rng, channels, filters, padding,
                                                     size, dtype):
    x = rng.standard_normal((3, size, size + 1, channels))
    kernel = rng.standard_normal((3, 3, channels, filters)) / np.sqrt(9 * channels)
    bias = rng.standard_normal(filters)
    exact = conv_reference(x, kernel, bias, padding=padding)
    args = [a.astype(dtype) for a in (x, kernel, bias)]
    ours = numba_backend.ops["conv"](*args, padding=padding)
    theirs = numpy_backend.ops["conv"](*args, padding=padding)
    assert ours.dtype == dtype and winograd
    scale = np.abs(exact).max()
    # F(2x2, 3x3) rounds about as im2col does: within a few float32 epsilons
    tol = 2e-6 if dtype == np.float32 else 1e-14
    assert np.abs(ours - exact).max() / scale < tol
    assert np.abs(ours - theirs).max() / scale < 2 * tol


def test_default_threshold(monkeypatch, rng):
    """The benchmark CNN's second layer (32 -> 64 channels) runs on Winograd by default."""
    calls = []
    compute = winograd_conv.winograd_conv
    monkeypatch.setattr(winograd_conv, "winograd_conv",
                        lambda *a, **k: calls.append(1) or compute(*a, **k))
    x = rng.standard_normal((2, 26, 26, 32)).astype(np.float32)
    kernel = rng.standard_normal((3, 3, 32, 64)).astype(np.float32)
    numba_backend.ops["conv"](x, kernel)
    assert calls
    calls.clear()
    numba_backend.ops["conv"](x, kernel[..., :1])             # one filter: im2col
    numba_backend.ops["conv"](x, kernel, strides=2)           # strided: im2col
    assert not calls


def test_declined_convolutions_reach_the_depthwise_kernels(monkeypatch, rng):
    """Winograd is chained before the depthwise kernels, which still get their convolutions."""
    from hikeras.backend.numba_backend import depthwise_conv

    # `override` returns the op it registers: the depthwise kernels are what Winograd declines to
    assert winograd_conv._previous is depthwise_conv.conv
    calls = []
    compute = winograd_conv.winograd_conv
    monkeypatch.setattr(winograd_conv, "winograd_conv",
                        lambda *a, **k: calls.append(1) or compute(*a, **k))
    x = rng.standard_normal((2, 8, 8, 4)).astype(np.float32)
    for inputs in ((x, rng.standard_normal((3, 3, 1, 4)).astype(np.float32)),        # depthwise
                   (x[..., :1], rng.standard_normal((3, 3, 1, 2)).astype(np.float32))):  # 1 channel
        np.testing.assert_allclose(numba_backend.ops["conv"](*inputs),
                                   numpy_backend.ops["conv"](*inputs), rtol=1e-5, atol=1e-5)
    assert not calls


def _conv_and_gradients(x, kernel, bias, g, **attrs):
    xv, kv, bv = backend.Variable(x), backend.Variable(kernel), backend.Variable(bias)
    with backend.GradientTape() as tape:
        out = backend.apply("conv", xv, kv, bv, **attrs)
    return [np.asarray(out)] + list(tape.gradient(out, [xv, kv, bv], output_gradients=g))


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_thread_count_and_chunks_do_not_change_results(winograd, monkeypatch, rng, padding):
    x = rng.uniform(-1, 1, (7, 9, 8, 5)).astype(np.float32)
    kernel = rng.uniform(-1, 1, (3, 3, 5, 6)).astype(np.float32)
    bias = rng.uniform(-1, 1, 6).astype(np.float32)
    out_shape = numba_backend.ops["conv"](x, kernel, padding=padding).shape
    g = rng.uniform(-1, 1, out_shape).astype(np.float32)
    whole = _conv_and_gradients(x, kernel, bias, g, padding=padding, activation="relu")
    monkeypatch.setattr(winograd_conv, "CHUNK_BYTES", 1)   # one image per chunk
    runs = []
    for threads in ("1", "3"):
        monkeypatch.setenv("HIKERAS_NUM_THREADS", threads)
        runs.append(_conv_and_gradients(x, kernel, bias, g, padding=padding,
                                        activation="relu"))
    for a, b, c in zip(*runs, whole):
        np.testing.assert_array_equal(a, b)
        # other chunks sum the kernel gradient in another order: float32 rounding
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-5 * np.abs(c).max())


def test_one_chunk_shares_its_products_among_threads_alike(winograd, monkeypatch, rng):
    """A batch of one chunk cuts large products into fixed blocks: the same on any thread count."""
    from hikeras.backend.numpy_backend import threaded_matmul

    monkeypatch.setattr(threaded_matmul, "MIN_SHARED_LATENCY_WORK", 0)
    x = rng.uniform(-1, 1, (1, 9, 10, 6)).astype(np.float32)
    kernel = rng.uniform(-1, 1, (3, 3, 6, 5)).astype(np.float32)
    bias = rng.uniform(-1, 1, 5).astype(np.float32)
    g = rng.uniform(-1, 1, (1, 9, 10, 5)).astype(np.float32)
    runs = []
    for threads in ("1", "3"):
        monkeypatch.setenv("HIKERAS_NUM_THREADS", threads)
        runs.append(_conv_and_gradients(x, kernel, bias, g, padding="same"))
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    want = conv_reference(x.astype(float), kernel.astype(float), bias.astype(float),
                          padding="same")
    np.testing.assert_allclose(runs[0][0], want, rtol=1e-5, atol=1e-5)


def test_first_layer_skips_input_gradient(winograd, rng):
    kernel = backend.Variable(rng.uniform(-1, 1, (3, 3, 2, 3)).astype(np.float32))
    x = rng.uniform(-1, 1, (2, 5, 5, 2)).astype(np.float32)
    with backend.GradientTape() as tape:
        out = backend.apply("conv", x, kernel)
    (dk,) = tape.gradient(out, [kernel])
    assert dk.shape == kernel.shape
    assert len(winograd) == 1   # the forward only: no input gradient was computed


def test_frequency_rows_avoid_4k_aliasing():
    rows = winograd_conv._frequency_rows(576, 128)   # 4 images of 26x26x32, float32
    stride = rows * 128 % 4096
    assert rows >= 576
    assert all(min(k * stride % 4096, -k * stride % 4096) >= 64 for k in range(1, 16))


@pytest.mark.parametrize("transposed", [False, True])
def test_stacked_products_equal_one_product_per_frequency(rng, transposed):
    """The 16 products in one stacked call give what 16 separate BLAS calls give, bit for bit."""
    from hikeras.backend.numpy_backend.blas_threads import single_threaded_blas

    tiling = winograd_conv._tiling((1, 26, 26, 32), ((0, 0), (0, 0)), (24, 24), 64, 4)
    # padded rows, as the workspace lays them out
    v = rng.uniform(-1, 1, (16, tiling.v_rows, 32)).astype(np.float32)[:, :144]
    if transposed:   # the kernel gradient's V^T @ P
        a, b = v.transpose(0, 2, 1), rng.uniform(-1, 1, (16, 144, 64)).astype(np.float32)
    else:
        a, b = v, rng.uniform(-1, 1, (16, 32, 64)).astype(np.float32)
    got = np.empty((16, a.shape[1], 64), np.float32)
    tiling.multiply(a, b, got)
    with single_threaded_blas():
        want = np.stack([a[f] @ b[f] for f in range(16)])
    np.testing.assert_array_equal(got, want)
