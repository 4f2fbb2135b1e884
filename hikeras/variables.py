"""`hikeras.Variable`: Keras 3's `keras.Variable` constructor on the backend's variable.

Every variable hikeras creates (layer weights, metric and optimizer state)
is one of these, so `isinstance(layer.kernel, hikeras.Variable)` holds as in
Keras. The backend's `Variable` keeps the array and the tape bookkeeping;
this subclass only adds Keras's way of making one: an initial value, or an
initializer (name, object or `fn(shape, dtype)`) with a `shape`.
"""

import numpy as np

from . import backend, initializers
from .scopes.name_scope import current_path
from .scopes.stateless_scope import get_stateless_scope
from .utils.dtype_utils import standardize_dtype

# Keras 3 arguments that concern distributed or mixed-precision backends.
_IGNORED = ("autocast", "aggregation", "synchronization")


def _is_initializer(value):
    return isinstance(value, str) or (callable(value) and not isinstance(value, np.ndarray))


class Variable(backend.Variable):
    """A named, mutable tensor, as `keras.Variable`.

    Args:
        initializer: the initial value (array-like), or an initializer: a
            name such as `"glorot_uniform"`, an `Initializer`, or a callable
            `fn(shape, dtype)`; an initializer needs `shape`.
        shape: the variable's shape (checked against an initial value).
        dtype: defaults to the value's dtype, or floatx for an initializer.
        trainable: whether optimizers update it (and tapes track it).
        name: the short name, e.g. `"kernel"`.
        path: the name qualified by its owner; defaults to `name`, under the
            enclosing `name_scope`s (`"outer/inner/name"`).
        constraint: a projection optimizers apply after each update.

    `autocast`, `aggregation` and `synchronization` are accepted and ignored.
    Inside a `StatelessScope`, assignments go into the scope (see there).

    >>> import hikeras
    >>> v = hikeras.Variable("ones", shape=(2,), name="scale")
    >>> v.numpy().tolist(), v.trainable, v.path
    ([1.0, 1.0], True, 'scale')
    """

    __slots__ = ()

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, name=None,
                 path=None, constraint=None, **kwargs):
        unknown = sorted(set(kwargs) - set(_IGNORED))
        if unknown:
            raise TypeError(f"Variable got unexpected arguments {unknown}.")
        name = name or "variable"
        if _is_initializer(initializer):
            if shape is None:
                raise ValueError(
                    f"Variable '{name}': an initializer needs a `shape`. "
                    f"Received: initializer={initializer!r}, shape=None")
            dtype = standardize_dtype(dtype)
            value = initializers.get(initializer)(tuple(shape), dtype=dtype)
        else:
            value = initializer.value if isinstance(initializer, backend.Tensor) else initializer
            value = np.asarray(value, dtype=None if dtype is None else standardize_dtype(dtype))
            if shape is not None and value.shape != tuple(shape):
                raise ValueError(
                    f"Variable '{name}': the initial value has shape {value.shape}, not the "
                    f"declared {tuple(shape)}.")
        if path is None and current_path():
            path = f"{current_path()}/{name}"
        super().__init__(value, name=name, trainable=trainable, path=path,
                         constraint=constraint)

    def assign(self, value):
        _claim_in_stateless_scope(self)
        return super().assign(value)

    def assign_add(self, delta):
        _claim_in_stateless_scope(self)
        return super().assign_add(delta)

    def assign_sub(self, delta):
        _claim_in_stateless_scope(self)
        return super().assign_sub(delta)


def _claim_in_stateless_scope(variable):
    """Inside a `StatelessScope`, moves the write about to happen into the scope."""
    scope = get_stateless_scope()
    if scope is not None:
        scope.claim(variable)
