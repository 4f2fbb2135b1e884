"""Starting small MPI jobs from tests: finding `mpiexec`, running a job without hanging."""

import os
import shutil
import signal
import subprocess
import sys
from importlib.util import find_spec

import pytest

from hikeras.distribute.mpi_runtime import THREAD_VARIABLES

JOB_TIMEOUT = 180  # a guard against a hung job, not a speed requirement

requires_mpi4py = pytest.mark.skipif(
    find_spec("mpi4py") is None,
    reason='mpi4py is not installed; `pip install "hikeras[mpi]"` to run the MPI tests')


def mpiexec():
    """The `mpiexec` installed beside this Python (the `mpich` wheel's), else the one on PATH."""
    beside_python = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    found = beside_python if os.path.exists(beside_python) else shutil.which("mpiexec")
    if found is None:
        pytest.fail('mpi4py is installed but no `mpiexec` was found; install an MPI with '
                    '`pip install "hikeras[mpi]"`')
    return found


def run_job(args, timeout=JOB_TIMEOUT):
    """Runs `args` in its own process group; returns `(exit code, stdout + stderr)`.

    The BLAS thread variables are removed so that `MPIStrategy` picks the
    thread count itself. A job still running after `timeout` seconds is
    killed whole (mpiexec and every rank) and the test fails as hung.
    """
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"the job {args} was still running after {timeout} s: it hung")
    return process.returncode, stdout + stderr


def run_ranks(n, script, *script_args, module_launch=True):
    """`mpiexec -n N python [-m mpi4py] script args...`; see `run_job`."""
    launch = ["-m", "mpi4py"] if module_launch else []
    return run_job([mpiexec(), "-n", str(n), sys.executable, *launch, script, *script_args])
