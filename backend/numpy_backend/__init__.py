"""The numpy backend: numpy as the array namespace plus its registered kernels."""

import numpy as xp

from . import (  # noqa: F401  (importing registers the kernels)
    activations, arithmetic, comparison, indexing, joining, linalg, losses, math,
    random_ops, rectifiers, reductions, shape_ops,
)
from ._registry import ops

name = "numpy"

__all__ = ["name", "ops", "xp"]
