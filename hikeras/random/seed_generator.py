"""`SeedGenerator`: a seed whose state advances with every draw, as in Keras 3.

The state is a non-trainable `Variable` of two uint32 numbers, `[seed,
counter]`; each `next()` returns a numpy generator seeded from the current
state and advances the counter. Two generators built with the same seed give
the same sequence of draws, and restoring the state (`BackupAndRestore`
does) replays the draws from that point.
"""

import numpy as np

from ..backend import Variable
from ..utils.rng import global_generator


class SeedGenerator:
    """Seed state for random ops (`hikeras.random.normal(..., seed=generator)`).

    Args:
        seed: an int, or None to draw one from hikeras' global generator (so
            `hikeras.utils.set_random_seed` makes it reproducible).
        name: the name of the generator and of its state variable's owner.

    >>> from hikeras import random
    >>> a, b = random.SeedGenerator(3), random.SeedGenerator(3)
    >>> bool((random.uniform((2,), seed=a) == random.uniform((2,), seed=b)).all())
    True
    """

    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise TypeError(f"Unexpected keyword arguments. Received: {sorted(kwargs)}")
        if seed is None:
            seed = int(global_generator().integers(0, 2**31 - 1))
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"SeedGenerator needs a non-negative integer seed or None. "
                             f"Received: seed={seed!r}")
        self._initial_seed = int(seed)
        self.name = name or "seed_generator"
        self.state = Variable(np.array([int(seed) % 2**32, 0], np.uint32),
                              name="seed_generator_state", trainable=False,
                              path=f"{self.name}/seed_generator_state")

    def next(self, ordered=True):
        """A numpy `Generator` for one draw; advances the state."""
        seed, counter = (int(v) for v in self.state.value)
        self.state.value[1] = (counter + 1) % 2**32
        return np.random.default_rng([seed, counter])

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<SeedGenerator name={self.name} state={self.state.value.tolist()}>"
