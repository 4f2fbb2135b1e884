"""hikeras.backend: arrays, ops, graphs and gradients.

This package never imports the rest of `hikeras`; everything numeric the
front end does goes through the names exported here.
"""

from .config import (
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from .dispatch import apply, get_op, set_symbolic_interceptor
from .executor import kahn_order
from .numpy_backend.batch_threads import num_threads, set_num_threads
from .numpy_backend.linalg import FUSED_DENSE_ACTIVATIONS
from .registry import Op, OpRegistry
from .selection import (
    REQUIRED_ATTRIBUTES,
    available_backends,
    backend,
    get_backend,
    register_backend,
    set_backend,
)
from .tape import GradientTape
from .tensor import SymbolicDim, SymbolicTensor, Tensor, Variable, is_unknown_dim


def clear_session():
    """Kept for Keras compatibility: hikeras has no global graph or name counters."""


__all__ = [
    "FUSED_DENSE_ACTIVATIONS", "GradientTape", "Op", "OpRegistry", "REQUIRED_ATTRIBUTES",
    "SymbolicDim", "SymbolicTensor", "Tensor", "Variable", "apply", "available_backends",
    "backend", "clear_session", "epsilon", "floatx", "get_backend", "get_op",
    "image_data_format", "is_unknown_dim", "kahn_order", "num_threads", "register_backend",
    "set_backend", "set_epsilon", "set_floatx", "set_image_data_format", "set_num_threads",
    "set_symbolic_interceptor",
]
