"""`keras.random`: seeded random tensors and `SeedGenerator`.

>>> from hikeras import random
>>> bool((random.normal((3,), seed=7) == random.normal((3,), seed=7)).all())
True
"""

from .samplers import (
    beta,
    binomial,
    categorical,
    dropout,
    gamma,
    normal,
    randint,
    shuffle,
    truncated_normal,
    uniform,
)
from .seed_generator import SeedGenerator

__all__ = [
    "SeedGenerator", "beta", "binomial", "categorical", "dropout", "gamma", "normal",
    "randint", "shuffle", "truncated_normal", "uniform",
]
