"""Models: `Model` (functional or subclassed) and `Sequential`."""

from .cloning import clone_model
from .functional import Functional
from .model import Model
from .sequential import Sequential

MODEL_CLASSES = {"Model": Functional, "Functional": Functional, "Sequential": Sequential}


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Loads a model saved by hikeras or Keras; see `hikeras.saving.load_model`."""
    from ..saving.saving_api import load_model as _load_model

    return _load_model(filepath, custom_objects=custom_objects, compile=compile,
                       safe_mode=safe_mode)


def save_model(model, filepath, overwrite=True, include_optimizer=True):
    """Saves a whole model to `.keras` or `.h5`; see `hikeras.saving.save_model`."""
    from ..saving.saving_api import save_model as _save_model

    _save_model(model, filepath, overwrite=overwrite, include_optimizer=include_optimizer)


def model_from_json(json_string, custom_objects=None):
    """A model from `to_json()` output (Keras 2 or Keras 3); weights are fresh."""
    from ..saving.model_config import model_from_json as _model_from_json

    return _model_from_json(json_string, custom_objects=custom_objects)


__all__ = ["Functional", "Model", "Sequential", "clone_model", "load_model", "model_from_json",
           "save_model"]
