"""Models: `Model` (functional or subclassed) and `Sequential`.

`load_model`, `save_model` and `model_from_json` are Keras's aliases of the
`hikeras.saving` functions. The file formats sit above this package (they
rebuild models), so each alias imports its function when it is called. With
`SavingMixin`'s methods, these are the only imports from `models/` up to
`saving/`: Keras's tie between models and their saving.
"""

from ..layers.layer_table import register_layer_classes
from .cloning import clone_model
from .functional import Functional
from .model import Model
from .sequential import Sequential

# Models are layers too: configs name them ("Model" is how Keras 2 writes a functional
# model), and `hikeras.layers.deserialize` rebuilds them from this entry in its table.
MODEL_CLASSES = {"Model": Functional, "Functional": Functional, "Sequential": Sequential}
register_layer_classes(MODEL_CLASSES)


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
