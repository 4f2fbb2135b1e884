"""The abort hook and the BLAS-thread rule, with a stand-in communicator (no MPI needed)."""

import sys
import threading

import pytest

from hikeras.distribute import mpi_runtime


class RecordingComm:
    def __init__(self):
        self.aborted = []

    def Get_rank(self):
        return 1

    def Get_size(self):
        return 2

    def Abort(self, code):
        self.aborted.append(code)


@pytest.fixture
def comm(monkeypatch):
    # The hooks are process-wide: monkeypatch puts the originals back afterwards.
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    monkeypatch.setattr(threading, "excepthook", threading.__excepthook__)
    comm = RecordingComm()
    mpi_runtime.install_abort_hook(comm)
    return comm


def test_an_uncaught_exception_prints_the_rank_and_aborts(comm, capsys):
    try:
        raise ValueError("this rank failed")
    except ValueError as err:
        sys.excepthook(type(err), err, err.__traceback__)
    assert comm.aborted == [1]
    err = capsys.readouterr().err
    assert "rank 1 of 2 raised an uncaught exception; aborting the MPI job" in err
    assert "ValueError: this rank failed" in err


def test_an_uncaught_exception_in_a_thread_aborts_too(comm, capsys):
    def fail():
        raise RuntimeError("worker thread failed")

    thread = threading.Thread(target=fail)
    thread.start()
    thread.join()
    assert comm.aborted == [1]
    assert "RuntimeError: worker thread failed" in capsys.readouterr().err


def test_the_hook_is_installed_once(comm):
    hook = sys.excepthook
    mpi_runtime.install_abort_hook(RecordingComm())
    assert sys.excepthook is hook


@pytest.mark.parametrize("variable", mpi_runtime.THREAD_VARIABLES)
def test_a_thread_count_chosen_by_the_user_is_respected(monkeypatch, variable):
    monkeypatch.setenv(variable, "3")
    assert mpi_runtime.limit_blas_threads(ranks_on_node=2) is None
