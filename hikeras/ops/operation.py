"""`Operation`: the base of a computation that runs on data and on symbolic tensors.

A subclass writes `call` (with `hikeras.ops`) and, where tracing `call` on
specs cannot work, `compute_output_spec`. Calling the operation

- on arrays or tensors runs `call`;
- on plain `SymbolicTensor`s (inside another trace) returns
  `compute_output_spec`, inside a `SymbolicScope`;
- on the `KerasTensor`s of a functional graph records a node of the graph,
  so the operation can sit in a functional `Model` or a `Function` like a
  layer. The graph is made of layer calls (nodes, naming, configs and masks
  are layer machinery), so `hikeras.layers` installs the recorder: it wraps
  the operation in a layer that calls it (`layers/operation_layer.py`).

`Layer` derives from `Operation`, as in Keras 3, and replaces `__call__` with
its own (building, masks, training flags).
"""

import re

from ..backend import SymbolicTensor
from ..scopes import SymbolicScope
from ..utils import tree
from .core import tracing_layer_call

_graph_recorder = None


def set_graph_recorder(fn):
    """Installs `fn(operation, args, kwargs)`, which records a call on graph tensors."""
    global _graph_recorder
    _graph_recorder = fn


def _snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def _symbolic_kind(args, kwargs):
    """"graph" for graph tensors among the arguments, "spec" for plain specs, else None."""
    kind = None
    for t in tree.flatten([list(args), dict(kwargs)]):
        if getattr(t, "_keras_history", None) is not None:
            return "graph"
        # Plain specs only: a tracer's subclass (the ONNX exporter's) wants `call` to run.
        if type(t) is SymbolicTensor:
            kind = "spec"
    return kind


class Operation:
    """A computation callable on data and on symbolic tensors, as `keras.Operation`.

    Args:
        name: the operation's name; default the snake-case class name.

    >>> import numpy as np, hikeras
    >>> from hikeras import ops
    >>> class Scale(hikeras.Operation):
    ...     def call(self, x):
    ...         return ops.multiply(x, 2.0)
    >>> Scale()(np.array([1.0, 2.0])).tolist()
    [2.0, 4.0]
    >>> Scale()(hikeras.Input((3,))).shape
    (None, 3)
    """

    def __init__(self, name=None, **kwargs):
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                            f"{sorted(kwargs)}. Received: kwargs={kwargs}")
        if name is not None and (not isinstance(name, str) or not name or "/" in name):
            raise ValueError("An operation's name must be a non-empty string without '/'. "
                             f"Received: name={name!r}")
        self._name = name

    @property
    def name(self):
        return self._name or _snake_case(type(self).__name__)

    def __call__(self, *args, **kwargs):
        kind = _symbolic_kind(args, kwargs)
        if kind == "graph":
            return _graph_recorder(self, args, kwargs)
        if kind == "spec":
            return self.compute_output_spec(*args, **kwargs)
        return self.call(*args, **kwargs)

    def call(self, *args, **kwargs):
        """The computation; subclasses override it."""
        raise NotImplementedError(f"{type(self).__name__} must implement `call`.")

    def compute_output_spec(self, *args, **kwargs):
        """Output specs (`SymbolicTensor`s) for symbolic arguments.

        By default `call` is traced on the specs: every op applies its shape
        rule, so an operation written with `hikeras.ops` needs nothing more.
        """
        with SymbolicScope(), tracing_layer_call():
            return self.call(*args, **kwargs)

    def symbolic_call(self, *args, **kwargs):
        """The call on symbolic arguments (graph tensors record a node)."""
        return self(*args, **kwargs)

    def get_config(self):
        """`{"name": ...}`; subclasses with constructor arguments add them."""
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"
