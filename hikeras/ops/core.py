"""Core ops: conversion between arrays and tensors, shapes, casts.

On the numpy backend the native tensor type is `numpy.ndarray`: outside a
`GradientTape` every op returns plain arrays. Inside one, ops on tracked
values return `hikeras.backend.Tensor`s, and symbolic inputs
(`SymbolicTensor`, from `hikeras.Input`) give symbolic outputs.
"""

import contextlib
import functools
import threading

import numpy as np

from .. import backend
from ..backend import (
    SymbolicDim,
    SymbolicTensor,
    Tensor,
    any_scope_open,
    autocast_operand,
)

_PYTHON_SCALARS = (bool, int, float)
_trace = threading.local()


@contextlib.contextmanager
def tracing_layer_call():
    """Marks the enclosed code as a layer's `call` traced on symbolic tensors.

    `Layer.compute_output_spec` wraps its trace in it, so `shape` gives
    `SymbolicDim`s there, and only there: elsewhere (ops called directly on
    specs, graph tensors) an unknown dimension stays `None`.
    """
    _trace.depth = getattr(_trace, "depth", 0) + 1
    try:
        yield
    finally:
        _trace.depth -= 1


def _standard_dtype(value, array):
    """Keras's dtype for data given as Python scalars or lists (floatx, int32)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return array.dtype
    if array.dtype == np.float64:
        return np.dtype(backend.floatx())
    if array.dtype == np.int64:
        return np.dtype("int32")
    return array.dtype


def as_array(value, dtype=None):
    """`value` (array-like, not a tensor) as a numpy array with Keras's default dtypes."""
    array = np.asarray(value)
    dtype = _standard_dtype(value, array) if dtype is None else np.dtype(dtype)
    return array if array.dtype == dtype else array.astype(dtype)


def operand(x):
    """Prepares an op input: tensors and arrays pass through, Python scalars stay
    "weak" (so `float32 + 1.0` stays float32), and lists become arrays."""
    if isinstance(x, Tensor) and any_scope_open():  # mixed precision: see backend.autocast
        return autocast_operand(x)
    if isinstance(x, (Tensor, SymbolicTensor, np.ndarray, np.generic)) or isinstance(
            x, _PYTHON_SCALARS):
        return x
    if isinstance(x, (list, tuple)):
        return as_array(x)
    raise TypeError(
        "Expected a tensor, a numpy array, a Python number or a list. "
        f"Received: x of type {type(x).__name__}"
    )


def tensor_operand(x):
    """Like `operand`, but a lone Python scalar becomes an array of Keras's dtype."""
    x = operand(x)
    return as_array(x) if isinstance(x, _PYTHON_SCALARS) else x


def operands(*xs):
    """Prepares several inputs; when all are Python scalars they become arrays."""
    xs = [operand(x) for x in xs]
    if all(isinstance(x, _PYTHON_SCALARS) for x in xs):
        xs = [as_array(x) for x in xs]
    return xs


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Converts `x` to a tensor: a numpy array, or a `Tensor`/`SymbolicTensor` as is.

    Python floats (and lists of them) become `floatx()`, Python ints int32.
    A tensor whose dtype differs from `dtype` is cast (differentiably).

    >>> convert_to_tensor([1.0, 2.0]).dtype
    dtype('float32')
    """
    if sparse:
        raise ValueError(f"Sparse tensors are not supported. Received: sparse={sparse}")
    if ragged:
        raise ValueError(f"Ragged tensors are not supported. Received: ragged={ragged}")
    if isinstance(x, (Tensor, SymbolicTensor)):
        if dtype is not None and x.dtype != np.dtype(dtype):
            return cast(x, dtype)
        return x
    return as_array(x, dtype)


def convert_to_numpy(x):
    """The numpy array holding the values of `x` (a tensor, array or list)."""
    if isinstance(x, SymbolicTensor):
        raise TypeError(
            "A symbolic tensor has no values to convert; call the model on data instead. "
            f"Received: x={x!r}"
        )
    if isinstance(x, Tensor):
        return x.value
    return np.asarray(x)


def is_tensor(x):
    """Whether `x` is a tensor of this backend (an array, `Tensor` or `SymbolicTensor`)."""
    return isinstance(x, (np.ndarray, Tensor, SymbolicTensor))


def shape(x):
    """The shape of `x` as a tuple of ints.

    On symbolic tensors an unknown dimension is `None`, as in Keras (on a
    functional model's `Input`s, say). While a layer's `call` is traced
    symbolically it is a `SymbolicDim` instead, a stand-in that ops and Python
    arithmetic accept, so `ops.reshape(x, (ops.shape(x)[0], -1, d))` builds a
    model; when the model runs on data the entries are plain ints again.
    """
    if isinstance(x, Tensor):
        return tuple(x.shape)
    if isinstance(x, SymbolicTensor):
        if not getattr(_trace, "depth", 0):
            return tuple(x.shape)
        return tuple(SymbolicDim() if d is None else d for d in x.shape)
    return np.shape(x)


def spec_if_unknown(shape, dtype):
    """A `SymbolicTensor` for an array of `shape` if an entry is unknown, else None.

    Creation ops (`zeros`, `ones`, `full`) called in a traced layer with a
    size from `ops.shape` (a `SymbolicDim`) answer with a spec, as ops on
    symbolic tensors do.
    """
    entries = (shape,) if isinstance(shape, (int, np.integer, SymbolicTensor)) else shape
    if any(backend.is_unknown_dim(d) for d in entries):
        return SymbolicTensor([None if backend.is_unknown_dim(d) else d for d in entries], dtype)
    return None


def dtype(x):
    """The dtype name of `x`, e.g. `"float32"`."""
    found = getattr(x, "dtype", None)
    return np.dtype(as_array(x).dtype if found is None else found).name


def cast(x, dtype):
    """Casts `x` to `dtype`; float-to-float casts pass gradients back."""
    return backend.apply("cast", tensor_operand(x), dtype=np.dtype(dtype))


def stop_gradient(variable):
    """`variable`'s values, excluded from gradient computation."""
    return backend.apply("stop_gradient", tensor_operand(variable))


def saturate_cast(x, dtype):
    """Casts `x` to `dtype`, first clipping it to the range `dtype` can hold.

    >>> saturate_cast(np.array([-1.0, 300.0]), "uint8").tolist()
    [0, 255]
    """
    x = tensor_operand(x)
    target = np.dtype(dtype)
    if np.issubdtype(target, np.integer) or np.issubdtype(target, np.floating):
        info = np.iinfo(target) if np.issubdtype(target, np.integer) else np.finfo(target)
        source = np.dtype(x.dtype)
        low, high = info.min, info.max
        if np.issubdtype(source, np.integer):
            source_info = np.iinfo(source)
            low, high = max(low, source_info.min), min(high, source_info.max)
        if np.issubdtype(source, np.floating) and np.issubdtype(target, np.integer):
            # the largest float of the source type not above the integer maximum
            as_float = source.type(high)
            if int(as_float) > high:
                high = np.nextafter(as_float, source.type(0))
        x = backend.apply("clip", x, x_min=low, x_max=high)
    return cast(x, target)


def custom_gradient(f):
    """Decorates `f(*args, **kwargs) -> (output, grad_fn)` so that gradients of its
    output are `grad_fn(upstream)`, one per positional argument, instead of those
    of the ops inside `f`.

    >>> @custom_gradient
    ... def clipped_identity(x):
    ...     return x, lambda upstream: np.clip(upstream, -1.0, 1.0)
    >>> from hikeras.backend import GradientTape
    >>> x = np.array([2.0])
    >>> with GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = clipped_identity(x) * 5.0
    >>> tape.gradient(y, x).tolist()
    [1.0]
    """
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        fn = functools.partial(f, **kwargs) if kwargs else f
        return backend.apply("custom_gradient", *[tensor_operand(a) for a in args], fn=fn)

    return wrapper
