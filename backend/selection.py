"""Backend selection: which array namespace and kernel table ops run on.

A backend is a module (or any object) providing the names in
`REQUIRED_ATTRIBUTES`. numpy is the default; `HIKERAS_BACKEND` picks another
registered backend at import time and `set_backend(name)` switches later.
"""

import importlib
import os

from . import dispatch
from .registry import OpRegistry

REQUIRED_ATTRIBUTES = {
    "name": "the backend's name, a string",
    "xp": "the array namespace (numpy-compatible module)",
    "ops": "an OpRegistry with every op of the numpy backend",
}

_BACKENDS = {"numpy": "hikeras.backend.numpy_backend",
             "numba": "hikeras.backend.numba_backend"}
_loaded = {}
_active = None


def register_backend(name, module):
    """Registers `module` (an object or an importable module path) as backend `name`.

    Raises:
        ValueError: if it lacks a required attribute or misses an op that the
            numpy backend provides.
    """
    if isinstance(module, str):
        _BACKENDS[name] = module
        return
    _validate(name, module)
    _BACKENDS[name] = module
    _loaded[name] = module


def available_backends():
    """Names of the registered backends."""
    return sorted(_BACKENDS)


def _validate(name, module):
    missing = [a for a in REQUIRED_ATTRIBUTES if not hasattr(module, a)]
    if missing:
        details = "; ".join(f"{a}: {REQUIRED_ATTRIBUTES[a]}" for a in missing)
        raise ValueError(f"Backend '{name}' lacks required attributes ({details}).")
    if not isinstance(module.ops, OpRegistry):
        raise ValueError(f"Backend '{name}': `ops` must be an OpRegistry.")
    if name != "numpy":
        reference = set(_load("numpy").ops.names())
        absent = sorted(reference - set(module.ops.names()))
        if absent:
            raise ValueError(f"Backend '{name}' does not implement ops {absent}.")
    without_vjp = module.ops.missing_vjps()
    if without_vjp:
        raise ValueError(f"Backend '{name}' has differentiable ops without a VJP: {without_vjp}.")


def _load(name):
    if name not in _loaded:
        if name not in _BACKENDS:
            raise ValueError(
                f"Unknown backend; available backends are {available_backends()}. "
                f"Received: name={name!r}"
            )
        module = _BACKENDS[name]
        if isinstance(module, str):
            module = importlib.import_module(module)
        _loaded[name] = module
        _validate(name, module)
    return _loaded[name]


def set_backend(name):
    """Makes backend `name` the one all ops run on."""
    global _active
    module = _load(name)
    dispatch.set_op_table(module.ops._ops)
    _active = module
    return module


def get_backend():
    """The active backend module."""
    return _active


def backend():
    """The active backend's name (Keras's `keras.backend.backend()`)."""
    return _active.name


set_backend(os.environ.get("HIKERAS_BACKEND", "numpy"))
