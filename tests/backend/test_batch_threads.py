"""The batch-parallel chunk runner and the single-threaded BLAS switch it relies on."""

import threading
import time

import pytest

from hikeras.backend.numpy_backend import batch_threads, blas_threads
from hikeras.backend.numpy_backend.batch_threads import batch_step, num_threads, run_chunks


def test_num_threads_follows_the_environment(monkeypatch):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "3")
    assert num_threads() == 3
    monkeypatch.delenv("HIKERAS_NUM_THREADS")
    assert num_threads() >= 1


@pytest.mark.skipif(blas_threads._CONTROLS is None, reason="numpy's BLAS is not OpenBLAS")
def test_num_threads_defaults_to_the_blas_setting(monkeypatch):
    monkeypatch.delenv("HIKERAS_NUM_THREADS", raising=False)
    get, put = blas_threads._CONTROLS
    before = get()
    try:
        for threads in (1, 3):
            put(threads)
            assert num_threads() == threads
    finally:
        put(before)


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_bad_num_threads(monkeypatch, value):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", value)
    with pytest.raises(ValueError, match="HIKERAS_NUM_THREADS must be a positive integer"):
        num_threads()


@pytest.mark.parametrize("threads", ["1", "2", "5"])
def test_every_chunk_runs_once_and_results_keep_chunk_order(monkeypatch, threads):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", threads)
    seen = []
    results = run_chunks(lambda start, stop: seen.append((start, stop)) or (start, stop), 23, 4)
    expected = [(start, min(start + 4, 23)) for start in range(0, 23, 4)]
    assert results == expected and sorted(seen) == expected


def test_one_thread_runs_inline(monkeypatch):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "1")
    callers = set(run_chunks(lambda start, stop: threading.get_ident(), 10, 1))
    assert callers == {threading.get_ident()}


def test_several_threads_share_the_chunks(monkeypatch):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
    arrived = threading.Barrier(2, timeout=30)

    def task(start, stop):
        arrived.wait()  # both chunks must be running at once to get past this
        return threading.get_ident()

    assert len(set(run_chunks(task, 2, 1))) == 2


def test_a_failing_chunk_raises_once_the_running_ones_finish(monkeypatch):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
    started, finished = [], []

    def task(start, stop):
        started.append(start)
        if start == 1:
            raise RuntimeError("chunk 1 failed")
        time.sleep(0.01)
        finished.append(start)

    with pytest.raises(RuntimeError, match="chunk 1 failed"):
        run_chunks(task, 100, 1)
    assert 0 in finished  # the chunk running beside the failure was waited for
    assert sorted(finished) == sorted(s for s in started if s != 1)
    assert len(started) < 100  # the chunks not yet started were skipped


def test_empty_batch_runs_nothing():
    assert run_chunks(lambda start, stop: 1 / 0, 0, 4) == []


@pytest.mark.parametrize("batch, item_bytes, expected", [
    (128, 1 << 10, 16),  # tiny items: at least 8 chunks, when each stays above the minimum
    (128, 1 << 20, 4),  # large items: as many as fit the chunk size
    (128, 64 << 20, 1),  # one item above the chunk size: one per chunk
    (4, 1 << 10, 4),  # a small batch stays whole rather than make tiny chunks
])
def test_batch_step(batch, item_bytes, expected):
    assert batch_step(batch, item_bytes, chunk_bytes=4 << 20, min_chunk_bytes=1 << 12) == \
        expected


@pytest.mark.skipif(blas_threads._CONTROLS is None, reason="numpy's BLAS is not OpenBLAS")
def test_chunks_run_with_single_threaded_blas(monkeypatch):
    get, put = blas_threads._CONTROLS
    before = get()
    put(2)
    try:
        monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
        assert set(run_chunks(lambda start, stop: get(), 4, 1)) == {1}
        assert get() == 2
    finally:
        put(before)


def test_helper_pool_follows_the_thread_count(monkeypatch):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "3")
    run_chunks(lambda start, stop: None, 6, 1)
    assert batch_threads._pool._max_workers == 2
