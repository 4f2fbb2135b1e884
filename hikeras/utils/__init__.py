"""Utilities users call as `hikeras.utils.*`."""

from .rng import set_random_seed

__all__ = ["set_random_seed"]
