"""Products on the batch threads: same numbers as one product, whatever the thread count."""

import numpy as np
import pytest

from hikeras.backend import apply
from hikeras.backend.numpy_backend import batch_threads, conv_gemm, ops, threaded_matmul
from hikeras.backend.numpy_backend.blas_threads import single_threaded_blas
from hikeras.backend.numpy_backend.threaded_matmul import product_2d

SHAPES = [((96, 300), (300, 160)),   # rows split
          ((40, 200), (200, 900)),   # columns split (more columns than rows)
          ((3, 50), (50, 40))]       # too small to share: one product


@pytest.fixture
def shared(monkeypatch):
    """Products as in a process where the batch-parallel kernels have run."""
    monkeypatch.setattr(batch_threads, "_batch_kernels_seen", True)
    monkeypatch.setattr(threaded_matmul, "MIN_SHARED_WORK", 1000)


@pytest.mark.parametrize("sa, sb", SHAPES)
def test_shared_products_equal_one_single_threaded_product_for_any_thread_count(
        shared, monkeypatch, sa, sb, rng):
    a = rng.standard_normal(sa).astype("float32")
    b = rng.standard_normal(sb).astype("float32")
    with single_threaded_blas():
        expected = np.matmul(a, b)
    for threads in ("1", "2", "3"):
        monkeypatch.setenv("HIKERAS_NUM_THREADS", threads)
        np.testing.assert_allclose(product_2d(a, b), expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(product_2d(a, b), product_2d(a, b))
        # Transposed operands (the gradients' case) and an epilogue per block.
        np.testing.assert_allclose(product_2d(np.asfortranarray(a), b), expected,
                                   rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(product_2d(a, b, epilogue=lambda z: np.maximum(z, 0, out=z)),
                                   np.maximum(expected, 0), rtol=1e-5, atol=1e-5)


def test_results_do_not_depend_on_the_thread_count(shared, monkeypatch, rng):
    a = rng.standard_normal((128, 784)).astype("float32")
    b = rng.standard_normal((784, 512)).astype("float32")
    results = []
    for threads in ("2", "3", "4"):
        monkeypatch.setenv("HIKERAS_NUM_THREADS", threads)
        results.append(product_2d(a, b))
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_blocks_run_on_several_threads_once_batch_kernels_are_in_use(shared, monkeypatch):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
    calls = []
    original = batch_threads.run_chunks
    monkeypatch.setattr(threaded_matmul, "run_chunks",
                        lambda task, size, step: calls.append((size, step))
                        or original(task, size, step))
    product_2d(np.ones((64, 64)), np.ones((64, 8)))
    assert calls == [(64, 16)]
    monkeypatch.setattr(batch_threads, "_batch_kernels_seen", False)
    product_2d(np.ones((64, 64)), np.ones((64, 8)))
    assert len(calls) == 1  # before any parallel kernel ran: one BLAS call


def test_dense_and_matmul_ops_use_it_and_agree_with_numpy(shared, monkeypatch, rng):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
    x = rng.standard_normal((4, 16, 30)).astype("float32")   # 3-D input: rows are 4 * 16
    k = rng.standard_normal((30, 20)).astype("float32")
    b = rng.standard_normal(20).astype("float32")
    np.testing.assert_allclose(apply("matmul", x, k), x @ k, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(apply("dense", x, k, b, activation="relu"),
                               np.maximum(x @ k + b, 0), rtol=1e-5, atol=1e-5)
    view = x.transpose(1, 0, 2)   # not contiguous: multiplied without reshaping
    np.testing.assert_allclose(apply("matmul", view, k), view @ k, rtol=1e-5, atol=1e-5)


def test_building_a_model_with_a_convolution_counts_as_use(monkeypatch):
    from hikeras.backend import SymbolicTensor

    monkeypatch.setattr(batch_threads, "_batch_kernels_seen", False)
    apply("dense", SymbolicTensor((None, 4)), SymbolicTensor((4, 3)))
    assert not batch_threads.batch_kernels_seen()
    apply("conv", SymbolicTensor((None, 8, 8, 1)), SymbolicTensor((3, 3, 1, 2)))
    assert batch_threads.batch_kernels_seen()



def test_one_chunk_products_stay_on_one_thread_unless_large(monkeypatch, rng):
    """A one-sample convolution's product runs as one single-threaded call; only a
    product of `MIN_SHARED_LATENCY_WORK` or more goes to the batch threads, in fixed
    blocks, so that its result is the same for any thread count."""
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
    calls = []
    original = batch_threads.run_chunks
    monkeypatch.setattr(threaded_matmul, "run_chunks",
                        lambda task, size, step: calls.append((size, step))
                        or original(task, size, step))
    a = rng.standard_normal((576, 288)).astype("float32")   # the benchmark CNN's conv2
    b = rng.standard_normal((288, 64)).astype("float32")
    out = np.empty((576, 64), "float32")
    threaded_matmul.matmul_shared(a, b, out)
    assert calls == []
    with single_threaded_blas():
        np.testing.assert_array_equal(out, np.matmul(a, b))
    monkeypatch.setattr(threaded_matmul, "MIN_SHARED_LATENCY_WORK", 1000)
    results = []
    for threads in ("1", "2", "3"):
        monkeypatch.setenv("HIKERAS_NUM_THREADS", threads)
        threaded_matmul.matmul_shared(a, b, out)
        results.append(out.copy())
    assert calls[0] == (576, 144)
    for r in results:
        np.testing.assert_array_equal(r, results[0])
    np.testing.assert_allclose(results[0], a @ b, rtol=1e-5, atol=1e-4)


def test_a_one_sample_convolution_uses_the_one_chunk_product(monkeypatch, rng):
    used = []
    original = threaded_matmul.matmul_shared
    monkeypatch.setattr(conv_gemm, "matmul_shared",
                        lambda a, b, out: used.append(a.shape) or original(a, b, out))
    x = rng.standard_normal((1, 12, 12, 3)).astype("float32")
    k = rng.standard_normal((3, 3, 3, 4)).astype("float32")
    y = ops["conv"].forward(x, k)   # numpy's kernel (numba's takes this one to Winograd)
    assert used == [(100, 27)]
    windows = np.lib.stride_tricks.sliding_window_view(x[0], (3, 3), axis=(0, 1))
    expected = np.einsum("hwcij,ijcf->hwf", windows, k)
    np.testing.assert_allclose(y[0], expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("sa, sb, held", [
    ((1, 128), (128, 10), False),     # a one-sample call of a small layer: BLAS stays serial
    ((2, 64), (64, 64), False),       # 8,192 multiply-adds
    ((1, 128), (128, 128), True),     # a matrix-vector product OpenBLAS would thread
    ((64, 80), (80, 64), True),       # 327,680 multiply-adds: OpenBLAS would thread
])
def test_small_products_skip_holding_blas_to_one_thread(shared, monkeypatch, rng, sa, sb, held):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "1")
    monkeypatch.setattr(threaded_matmul, "MIN_SHARED_WORK", 1 << 22)
    holds = []
    monkeypatch.setattr(threaded_matmul, "single_threaded_blas",
                        lambda: holds.append(1) or single_threaded_blas())
    a = rng.standard_normal(sa).astype("float32")
    b = rng.standard_normal(sb).astype("float32")
    np.testing.assert_allclose(product_2d(a, b), a @ b, rtol=1e-5, atol=1e-5)
    assert holds == ([1] if held else [])
