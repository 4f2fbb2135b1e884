"""Products on the batch threads: same numbers as one product, whatever the thread count."""

import numpy as np
import pytest

from hikeras.backend import apply
from hikeras.backend.numpy_backend import batch_threads, threaded_matmul
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

