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
from .initializers import Initializer  # noqa: E402
from .layers import Input, InputLayer, InputSpec, Layer  # noqa: E402
from .layers.node import KerasTensor  # noqa: E402
from .losses import Loss  # noqa: E402
from .metrics import Metric  # noqa: E402
from .models import Model, Sequential  # noqa: E402
from .optimizers import Optimizer  # noqa: E402
from .regularizers import Regularizer  # noqa: E402
from .variables import Variable  # noqa: E402


def version():
    """The hikeras version string (Keras's `keras.version()`)."""
    return __version__


__all__ = [
    "GradientTape", "Initializer", "Input", "InputLayer", "InputSpec", "KerasTensor", "Layer",
    "Loss", "Metric", "Model", "Optimizer", "Regularizer", "Sequential", "Variable",
    "activations", "backend", "callbacks", "data", "datasets", "distribute", "initializers",
    "layers", "losses", "metrics", "models", "ops", "optimizers", "regularizers", "saving",
    "utils", "version",
]
