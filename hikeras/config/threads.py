"""How many threads hikeras computes with: one setting for kernels and BLAS.

`set_num_threads(n)` fixes the count for the batch-parallel numpy kernels,
the numba backend's compiled loops and numpy's BLAS together, so they never
add up to more threads than asked for; the environment variable
`HIKERAS_NUM_THREADS` does the same for a whole run. Neither set, hikeras
follows BLAS's own count (and the numba backend drops to one thread while
the machine is busy). See docs/backends.md.
"""

from hikeras.backend import num_threads, set_num_threads


def get_num_threads():
    """The thread count in force: `set_num_threads`, `HIKERAS_NUM_THREADS`, else BLAS's.

    >>> import hikeras
    >>> hikeras.config.set_num_threads(1)
    >>> hikeras.config.get_num_threads()
    1
    >>> hikeras.config.set_num_threads(None)   # back to the default
    """
    return num_threads()


__all__ = ["get_num_threads", "set_num_threads"]
