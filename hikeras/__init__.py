"""hikeras: Keras-style deep learning on numpy.

>>> import hikeras
>>> from hikeras import layers
>>> model = hikeras.Sequential([hikeras.Input(shape=(4,)), layers.Dense(2)])
>>> model.output_shape
(None, 2)
"""

__version__ = "0.1.0"

from . import (  # noqa: E402
    activations,
    backend,
    callbacks,
    data,
    datasets,
    distribute,
    initializers,
    layers,
    losses,
    metrics,
    models,
    ops,
    optimizers,
    regularizers,
    saving,
    utils,
)
from .backend import GradientTape  # noqa: E402
from .layers import Input, InputLayer, Layer  # noqa: E402
from .models import Model, Sequential  # noqa: E402

__all__ = [
    "GradientTape", "Input", "InputLayer", "Layer", "Model", "Sequential", "activations",
    "backend", "callbacks", "data", "datasets", "distribute", "initializers", "layers", "losses",
    "metrics", "models", "ops", "optimizers", "regularizers", "saving", "utils",
]
