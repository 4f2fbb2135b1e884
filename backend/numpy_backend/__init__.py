"""The numpy backend: numpy as the array namespace plus its registered kernels."""

import numpy as xp

from . import arithmetic, linalg  # noqa: F401  (importing registers the kernels)
from ._registry import ops

name = "numpy"

__all__ = ["name", "ops", "xp"]
