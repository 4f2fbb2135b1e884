"""A helper thread for the recurrent ops: kernel-gradient GEMMs overlap the time loop.

The backward pass of a sequence op is a loop over time steps (small GEMMs and
elementwise passes, inherently sequential) plus large GEMMs for the kernel
and input gradients, which need each chunk of steps only once the loop has
passed it. Those GEMMs run on one helper thread while the loop continues;
numpy releases the GIL inside BLAS calls and copies, so on a machine with a
free core the two proceed in parallel.

On an oversubscribed machine a second thread does not help: measured on a
shared 2-core host with a load average of 8, training the LSTM benchmark was
8-14% slower with the helper (the loop stalls whenever a thread holding the
GIL is descheduled). At ordinary load it helps: with a load average of 1-1.5
on 2 cores (the training process itself counts for about 1), the helper made
the benchmark 15-25% faster. So the helper is used unless the 1-minute load
average is at least twice the number of cores; then the work runs inline,
in the same order.

`submit` returns a future; callers wait for all their futures before they
return, so no work outlives the op that started it.
"""

import os
from concurrent.futures import Future, ThreadPoolExecutor

_pool = None
_pool_pid = None


def _executor():
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():   # a forked child needs its own thread
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hikeras-rnn")
        _pool_pid = os.getpid()
    return _pool


_CORES = os.cpu_count() or 1   # read once: a call reads sysfs (20 us, per chunk of steps)


def _helper_pays():
    cores = _CORES
    if cores < 2:
        return False
    try:
        return os.getloadavg()[0] < 2 * cores
    except (AttributeError, OSError):   # no load average on this platform
        return True


def submit(fn, *args):
    """Runs `fn(*args)` on the helper thread unless the machine is oversubscribed."""
    if not _helper_pays():
        done = Future()
        done.set_result(fn(*args))
        return done
    return _executor().submit(fn, *args)
