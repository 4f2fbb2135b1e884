"""hikeras: Keras-style deep learning on numpy.

>>> import hikeras
>>> from hikeras import layers
>>> model = hikeras.Sequential([hikeras.Input(shape=(4,)), layers.Dense(2)])
>>> model.output_shape
(None, 2)
"""

from .version import __version__


def _load_backend_from_source_checkout():
    """Imports `hikeras.backend` from `../backend` when no installation maps it.

    The backend is its own directory, installed as `hikeras.backend` (see
    pyproject.toml); run from a source checkout that was never `pip install`ed,
    `import hikeras` would otherwise fail with a puzzling circular-import error.
    """
    import importlib.util
    import os
    import sys

    if importlib.util.find_spec(f"{__name__}.backend") is not None:
        return
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "backend")
    init = os.path.join(root, "__init__.py")
    if not os.path.isfile(init):
        raise ImportError("hikeras.backend is missing: install hikeras with `pip install .` "
                          f"(looked for a source checkout's backend in {root})")
    spec = importlib.util.spec_from_file_location(f"{__name__}.backend", init,
                                                  submodule_search_locations=[root])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)


_load_backend_from_source_checkout()

from . import (  # noqa: E402
    activations,
    applications,
    backend,
    callbacks,
    config,
    data,
    datasets,
    distillation,
    distribute,
    export,
    dtype_policies,
    initializers,
    io,
    layers,
    losses,
    metrics,
    mixed_precision,
    models,
    ops,
    optimizers,
    preprocessing,
    random,
    regularizers,
    saving,
    tree,
    utils,
    visualization,
)
from .backend import GradientTape  # noqa: E402
from .dtype_policies import DTypePolicy, FloatDTypePolicy  # noqa: E402
from .initializers import Initializer  # noqa: E402
from .layers import Input, InputLayer, InputSpec, Layer  # noqa: E402
from .layers.node import KerasTensor  # noqa: E402
from .losses import Loss  # noqa: E402
from .metrics import Metric  # noqa: E402
from .models import Model, Sequential  # noqa: E402
from .ops.function import Function  # noqa: E402
from .ops.operation import Operation  # noqa: E402
from .optimizers import Optimizer  # noqa: E402
from .regularizers import Regularizer  # noqa: E402
from .scopes import StatelessScope, SymbolicScope, name_scope  # noqa: E402
from .variables import Variable  # noqa: E402


def version():
    """The hikeras version string (Keras's `keras.version()`)."""
    return __version__


__all__ = [
    "DTypePolicy", "FloatDTypePolicy", "Function", "GradientTape", "Initializer", "Input",
    "InputLayer", "InputSpec", "KerasTensor", "Layer", "Loss", "Metric", "Model", "Operation",
    "Optimizer", "Regularizer", "Sequential", "StatelessScope", "SymbolicScope", "Variable",
    "activations", "backend", "callbacks", "config", "data", "datasets", "distillation",
    "distribute",
    "dtype_policies", "export", "initializers", "io", "layers", "losses", "metrics",
    "mixed_precision", "models", "ops", "optimizers", "preprocessing", "random", "regularizers", "saving", "tree",
    "name_scope", "utils", "version", "visualization",
]
