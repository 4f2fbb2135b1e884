"""Models: `Model` (functional or subclassed) and `Sequential`."""

from .functional import Functional
from .model import Model
from .sequential import Sequential

MODEL_CLASSES = {"Model": Functional, "Functional": Functional, "Sequential": Sequential}

__all__ = ["Functional", "Model", "Sequential"]
