"""The one thread setting: `hikeras.config.set_num_threads` and `HIKERAS_NUM_THREADS`."""

import os
import subprocess
import sys

import pytest
from hikeras.backend.numpy_backend import batch_threads, blas_threads

import hikeras


@pytest.fixture
def restore_threads():
    before = blas_threads.blas_thread_count()
    yield
    hikeras.config.set_num_threads(None)
    if before is not None:
        blas_threads.set_blas_thread_count(before)


def test_set_num_threads_governs_batch_kernels_and_blas(monkeypatch, restore_threads):
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "3")
    hikeras.config.set_num_threads(1)
    assert hikeras.config.get_num_threads() == 1 == batch_threads.num_threads()
    if blas_threads.blas_thread_count() is not None:
        assert blas_threads.blas_thread_count() == 1
    assert batch_threads.thread_count_chosen()
    hikeras.config.set_num_threads(None)
    assert hikeras.config.get_num_threads() == 3   # back to the environment variable


def test_listeners_hear_every_change(restore_threads):
    heard = []
    batch_threads.on_thread_count_change(heard.append)
    try:
        hikeras.config.set_num_threads(2)
        hikeras.config.set_num_threads(1)
    finally:
        batch_threads._listeners.remove(heard.append)
    assert heard[1:] == [2, 1]


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True])
def test_bad_thread_counts_are_rejected(bad):
    with pytest.raises(ValueError, match=rf"Received: n={bad!r}"):
        hikeras.config.set_num_threads(bad)


def test_environment_variable_sets_blas_threads_at_import():
    if blas_threads.blas_thread_count() is None:
        pytest.skip("numpy's BLAS exposes no thread control here")
    script = ("import hikeras\n"
              "from hikeras.backend.numpy_backend import blas_threads\n"
              "print(blas_threads.blas_thread_count(), hikeras.config.get_num_threads())\n")
    env = dict(os.environ, HIKERAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.split() == ["1", "1"]
