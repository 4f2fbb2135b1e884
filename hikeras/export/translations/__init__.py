"""ONNX translations of the backend's ops, one module per family.

Importing the package fills `TRANSLATIONS` (`registry.py`); an op missing from
it cannot be exported, and the exporter says so naming the op and its layer.
"""

from . import (  # noqa: F401  (each module registers its translations)
    attention,
    convolution,
    elementwise,
    linear,
    normalization,
    recurrent,
    reductions,
    resizing,
    shapes,
)
from .registry import TRANSLATIONS, UNTRANSLATED

__all__ = ["TRANSLATIONS", "UNTRANSLATED"]
