"""The numpy backend: numpy as the array namespace plus its registered kernels.

Every public module of this package is a family of kernels; importing it
registers them, so a new family only needs a new module here.
"""

import importlib
import pkgutil

import numpy as xp

from ._registry import ops

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _module.startswith("_"):
        importlib.import_module(f"{__name__}.{_module}")

name = "numpy"

__all__ = ["name", "ops", "xp"]
