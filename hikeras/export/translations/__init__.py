"""ONNX translations of the backend's ops, one module per family.

Importing the package fills `TRANSLATIONS` (`registry.py`); an op missing from
it cannot be exported, and the exporter says so naming the op and its layer.
"""

from . import (  # noqa: F401  (each module registers its translations)
    attention,
    binary_math,
    bitwise,
    convolution,
    custom_gradient,
    decompositions,
    determinants,
    elementwise,
    error_function,
    fourier,
    framing,
    linear,
    linear_solve,
    normalization,
    ordering,
    ranking,
    rearranging,
    recurrent,
    reductions,
    resampling,
    resizing,
    sampling,
    scatter,
    segments,
    shapes,
    sparsemax,
    special_functions,
    trig,
)
from .registry import TRANSLATIONS, UNTRANSLATED, translate

__all__ = ["TRANSLATIONS", "UNTRANSLATED", "translate"]
