"""The process-wide random state that makes whole runs reproducible.

Initialisers without a seed, dropout layers without a seed and `fit`'s
shuffling all draw from generators derived from one global
`numpy.random.Generator`. `set_random_seed(s)` resets it, so building and
training the same model after the same call gives bit-identical results.
"""

import random

import numpy as np

_global = np.random.default_rng()


def set_random_seed(seed):
    """Seeds hikeras' global generator, Python's `random` and `numpy.random`.

    >>> set_random_seed(0)
    >>> a = global_generator().random()
    >>> set_random_seed(0)
    >>> a == global_generator().random()
    True
    """
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(
            f"seed must be a non-negative integer. Received: seed={seed!r}"
        )
    global _global
    _global = np.random.default_rng(int(seed))
    random.seed(int(seed))
    np.random.seed(int(seed) % 2**32)


def global_generator():
    """The global `numpy.random.Generator`."""
    return _global


def make_generator(seed=None):
    """A new generator: from `seed` when given, else spawned from the global one."""
    if seed is None:
        return np.random.default_rng(_global.integers(0, 2**63 - 1))
    return np.random.default_rng(int(seed))
