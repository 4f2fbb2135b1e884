"""Threads in the pipeline: ordering, error propagation with the worker's traceback,
no thread left behind, and prefetching that really runs ahead of the consumer."""

import threading
import traceback

import numpy as np
import pytest

from hikeras.data import Dataset
from hikeras.data.parallel import THREAD_NAME_PREFIX, ordered_map, prefetch


def data_threads():
    return [t for t in threading.enumerate() if t.name.startswith(THREAD_NAME_PREFIX)]


def failing_transform(value):
    if value == 5:
        raise KeyError("element five is broken")
    return value


def test_ordered_map_preserves_order_and_joins_its_threads():
    out = list(ordered_map(lambda v: v * v, range(40), num_workers=4))
    assert out == [v * v for v in range(40)]
    assert data_threads() == []


def test_ordered_map_abandoned_early_joins_its_threads():
    it = ordered_map(lambda v: v, range(1000), num_workers=3)
    assert [next(it) for _ in range(5)] == [0, 1, 2, 3, 4]
    assert data_threads()
    it.close()
    assert data_threads() == []


def test_worker_error_surfaces_with_the_worker_traceback():
    ds = Dataset.range(20).map(failing_transform, num_parallel_calls=3).prefetch(2)
    with pytest.raises(KeyError, match="element five") as info:
        list(ds)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert any(f.name == "failing_transform" for f in frames)
    assert data_threads() == []


def test_prefetch_error_and_exhaustion_leave_no_thread():
    assert [int(v) for v in Dataset.range(5).prefetch(2)] == [0, 1, 2, 3, 4]
    assert data_threads() == []
    it = iter(Dataset.range(100).prefetch(3))
    next(it)
    it.close()
    assert data_threads() == []


def test_prefetch_produces_ahead_of_the_consumer():
    produced = [threading.Event() for _ in range(4)]

    def source():
        for i in range(4):
            produced[i].set()
            yield i

    it = prefetch(source(), buffer_size=2)
    assert next(it) == 0
    # Nothing more is requested, yet the background thread fills its buffer.
    assert produced[2].wait(timeout=30)
    assert list(it) == [1, 2, 3]
    assert data_threads() == []


def test_parallel_map_runs_calls_concurrently():
    # Four calls that each wait for all four to have started can only finish
    # if they run at the same time.
    barrier = threading.Barrier(4, timeout=30)

    def meet(v):
        barrier.wait()
        return v

    out = [int(v) for v in Dataset.range(8).map(meet, num_parallel_calls=4)]
    assert out == list(range(8))


def test_fit_style_loop_abandoning_a_pipeline_mid_pass():
    ds = Dataset.from_tensor_slices(np.arange(100)).map(
        lambda v: v + 1, num_parallel_calls=2).batch(10).prefetch(2)
    for i, _ in enumerate(ds):
        if i == 2:
            break
    assert data_threads() == []
