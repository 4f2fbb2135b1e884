"""New arrays: copies, identity and triangle matrices, ranges, window functions.

These build plain numpy arrays from Python values (shape arguments are never
symbolic), like Keras's array creators; `copy` and `array` of a tensor go
through ops so that gradients and symbolic shapes carry through.

>>> linspace(0.0, 1.0, 3).tolist()
[0.0, 0.5, 1.0]
"""

import numpy as np

from ... import backend
from ..core import convert_to_tensor, tensor_operand


def _floatx(dtype):
    return np.dtype(backend.floatx() if dtype is None else dtype)


def array(x, dtype=None):
    """`x` as a tensor (Python floats become floatx, ints int32)."""
    return convert_to_tensor(x, dtype=dtype)


def copy(x):
    """A copy of `x` (an op on tensors, so gradients pass)."""
    x = tensor_operand(x)
    if isinstance(x, np.ndarray):
        return x.copy()
    return backend.apply("add", x, np.zeros((), np.dtype(x.dtype)))


def empty(shape, dtype=None):
    """A new array of `shape` (zeros in hikeras)."""
    return np.zeros(shape, _floatx(dtype))


def empty_like(x, dtype=None):
    """A new array shaped like `x` (zeros in hikeras)."""
    x = tensor_operand(x)
    return backend.apply("zeros_like", x, dtype=dtype)


def identity(n, dtype=None):
    """The `n` x `n` identity matrix."""
    return np.eye(int(n), dtype=_floatx(dtype))


def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the `k`-th diagonal of an `N` x `M` matrix."""
    return np.tri(int(N), None if M is None else int(M), int(k), dtype=_floatx(dtype))


def _range_dtype(dtype, *values):
    if dtype is not None:
        return np.dtype(dtype)
    found = [np.dtype(v.dtype) for v in values if hasattr(v, "dtype")]
    floats = [d for d in found if np.issubdtype(d, np.inexact)]
    return floats[0] if floats else np.dtype(backend.floatx())


def _values(x):
    x = x.value if isinstance(x, backend.Tensor) else x
    if isinstance(x, backend.SymbolicTensor):
        raise TypeError(f"Range bounds must be concrete values. Received: {x!r}")
    return np.asarray(x)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (inclusive when `endpoint`)."""
    if int(num) < 0:
        raise ValueError(f"linspace: num must be non-negative. Received: num={num}")
    out_dtype = _range_dtype(dtype, start, stop)
    values, step = np.linspace(_values(start), _values(stop), int(num), endpoint=endpoint,
                               retstep=True, axis=axis)
    values = values.astype(out_dtype)
    return (values, np.asarray(step, out_dtype)) if retstep else values


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """`base ** linspace(start, stop, num)`."""
    out_dtype = _range_dtype(dtype, start, stop)
    return np.logspace(_values(start), _values(stop), int(num), endpoint=endpoint,
                       base=base, axis=axis).astype(out_dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values from `start` to `stop`, evenly spaced on a log scale."""
    out_dtype = _range_dtype(dtype, start, stop)
    return np.geomspace(_values(start), _values(stop), int(num), endpoint=endpoint,
                        axis=axis).astype(out_dtype)


def _window(fn, name):
    def window(x):
        n = int(_values(x))
        return fn(n).astype(backend.floatx())

    window.__name__ = window.__qualname__ = name
    window.__doc__ = f"The {name} window of `x` points (floatx)."
    return window


bartlett = _window(np.bartlett, "bartlett")
blackman = _window(np.blackman, "blackman")
hamming = _window(np.hamming, "hamming")
hanning = _window(np.hanning, "hanning")


def kaiser(x, beta):
    """The Kaiser window of `x` points with shape parameter `beta` (floatx)."""
    return np.kaiser(int(_values(x)), float(beta)).astype(backend.floatx())


def view(x, dtype=None):
    """The same bytes reinterpreted as `dtype` (concrete values; no gradient)."""
    x = tensor_operand(x)
    if dtype is None:
        return x
    if isinstance(x, backend.SymbolicTensor):
        raise TypeError(f"view needs concrete values. Received: x={x!r}")
    value = x.value if isinstance(x, backend.Tensor) else x
    return np.ascontiguousarray(value).view(np.dtype(dtype))


def vectorize(pyfunc, *, excluded=None, signature=None):
    """`pyfunc` applied to each entry (or each core slice, per `signature`) of its
    tensor arguments, by numpy's `vectorize` on concrete values."""
    vectorized = np.vectorize(pyfunc, excluded=excluded or set(), signature=signature)

    def call(*args, **kwargs):
        args = [a.value if isinstance(a, backend.Tensor) else a for a in args]
        return np.asarray(vectorized(*args, **kwargs))

    return call


