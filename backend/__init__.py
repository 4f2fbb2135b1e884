"""hikeras.backend: arrays, ops, graphs and gradients.

This package never imports the rest of `hikeras`; everything numeric the
front end does goes through the names exported here.
"""

from .autocast import AutocastScope, any_scope_open, autocast_dtype
from .config import (
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from .dispatch import apply, autocast_operand, get_op, set_symbolic_interceptor
from .dtypes import (
    bfloat16_dtype,
    get_uid,
    is_float_dtype,
    is_int_dtype,
    reset_uids,
    result_type,
    standardize_dtype,
)
from .executor import kahn_order
from .heap import retained_heap
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


def clear_session(free_memory=True):
    """Resets `get_uid`'s counters; hikeras has no global graph to clear.

    `free_memory` is accepted for Keras compatibility.
    """
    reset_uids()


def is_keras_tensor(x):
    """Whether `x` is a symbolic tensor (what `Input` and layers called on it return)."""
    return isinstance(x, SymbolicTensor)


__all__ = [
    "FUSED_DENSE_ACTIVATIONS",
    "REQUIRED_ATTRIBUTES",
    "AutocastScope",
    "GradientTape",
    "Op",
    "OpRegistry",
    "SymbolicDim",
    "SymbolicTensor",
    "Tensor",
    "Variable",
    "any_scope_open",
    "apply",
    "autocast_dtype",
    "autocast_operand",
    "available_backends",
    "backend",
    "bfloat16_dtype",
    "clear_session",
    "epsilon",
    "floatx",
    "get_backend",
    "get_op",
    "get_uid",
    "image_data_format",
    "is_float_dtype",
    "is_int_dtype",
    "is_keras_tensor",
    "is_unknown_dim",
    "kahn_order",
    "num_threads",
    "register_backend",
    "reset_uids",
    "result_type",
    "retained_heap",
    "set_backend",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "set_num_threads",
    "set_symbolic_interceptor",
    "standardize_dtype",
]
