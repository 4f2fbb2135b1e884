"""The numba backend: numpy's kernels, with the hot ones compiled by numba.

Select it with `HIKERAS_BACKEND=numba` or `hikeras.backend.set_backend("numba")`
after `pip install "hikeras[numba]"`. Every op it does not override is the
numpy backend's own (same kernel, same VJP); each override keeps the op's
shape rule, saved tensors and VJP, or replaces the VJP too, and falls back to
the numpy kernel for inputs numba cannot compile (see `_jit`).
"""

import importlib
import pkgutil

try:
    from . import _jit  # noqa: F401  (configures numba's cache and threads first)
except ModuleNotFoundError as error:
    if error.name != "numba":
        raise
    raise ImportError(
        "The numba backend needs numba: install it with `pip install \"hikeras[numba]\"`, "
        "or use the default backend (HIKERAS_BACKEND=numpy).") from error

import numpy as xp

from ._registry import ops

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _module.startswith("_"):
        importlib.import_module(f"{__name__}.{_module}")

name = "numba"

__all__ = ["name", "ops", "xp"]
