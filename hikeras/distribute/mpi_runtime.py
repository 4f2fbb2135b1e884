"""Process-level setup for MPI runs: importing mpi4py, the abort hook, BLAS threads.

* `import_mpi` turns a missing mpi4py (or MPI library) into an error that
  names the install command.
* `install_abort_hook`: a rank whose script raises must not leave the other
  ranks blocked forever in their next collective. The hook prints the
  rank's traceback, then calls `MPI_Abort`, which ends the whole job (what
  `python -m mpi4py` would do, without relying on the user launching so).
* `limit_blas_threads`: each rank's BLAS would otherwise start one thread per
  core, so N ranks on a node would run N x cores threads fighting for the
  cores. Unless the user chose (`OMP_NUM_THREADS`, `OPENBLAS_NUM_THREADS`,
  `MKL_NUM_THREADS`), each rank gets `cores // ranks on this node` threads
  (at least 1).
"""

import os
import sys
import threading
import time
import warnings

INSTALL_COMMAND = 'pip install "hikeras[mpi]"'
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# `MPI_Abort` makes the process manager kill every rank at once; output the
# aborting rank has flushed but the manager has not yet forwarded (likely on a
# busy machine) would be lost with it, and the user would see no reason.
ABORT_GRACE_SECONDS = 1.0


def import_mpi():
    """`mpi4py.MPI`, initialising MPI; raises ImportError naming the install command."""
    try:
        from mpi4py import MPI
    except (ImportError, RuntimeError) as err:  # RuntimeError: no MPI library found
        raise ImportError(
            "MPIStrategy needs mpi4py and an MPI library. Install both with: "
            f"{INSTALL_COMMAND} (on a cluster that has its own MPI, install only "
            f"`mpi4py`, built against it). Received: {type(err).__name__}: {err}"
        ) from err
    return MPI


def install_abort_hook(comm):
    """Makes an uncaught exception in any thread print its traceback and abort the job."""
    if getattr(sys.excepthook, "_hikeras_mpi_abort", False):
        return
    header = (f"hikeras.distribute: rank {comm.Get_rank()} of {comm.Get_size()} raised an "
              "uncaught exception; aborting the MPI job.\n")
    previous = sys.excepthook
    previous_thread_hook = threading.excepthook

    def abort():
        sys.stdout.flush()
        sys.stderr.flush()
        time.sleep(ABORT_GRACE_SECONDS)
        comm.Abort(1)

    def excepthook(exc_type, exc, tb):
        sys.stderr.write(header)
        previous(exc_type, exc, tb)
        abort()

    def thread_excepthook(args):
        previous_thread_hook(args)
        if args.exc_type is not SystemExit:
            sys.stderr.write(header)
            abort()

    excepthook._hikeras_mpi_abort = True
    sys.excepthook = excepthook
    threading.excepthook = thread_excepthook


def limit_blas_threads(ranks_on_node):
    """Caps BLAS threads at `cores // ranks_on_node`; returns the cap, or None if untouched."""
    if any(os.environ.get(name) for name in THREAD_VARIABLES):
        return None
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        warnings.warn(
            f"{ranks_on_node} MPI ranks share this node, but threadpoolctl is not installed, so "
            "each rank's BLAS may start one thread per core. Install it with "
            f"{INSTALL_COMMAND}, or set OMP_NUM_THREADS for the job.", stacklevel=3)
        return None
    cores = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count() or 1)
    threads = max(1, cores // max(1, ranks_on_node))
    threadpool_limits(limits=threads, user_api="blas")
    return threads
