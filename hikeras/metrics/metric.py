"""The `Metric` base class: state variables, `update_state`, `result`.

A metric accumulates statistics over many batches in non-trainable
`Variable`s and turns them into a value on demand, so an epoch's accuracy is
exact however the data was batched. Metrics are never differentiated: their
updates run on plain arrays, outside any gradient recording. The built-in
metrics accumulate through the backend's update ops (`hikeras.ops.updates`), so a
backend that overrides those speeds up their per-batch work.
"""

import numpy as np

from .. import initializers
from ..backend import Tensor
from ..losses.loss import to_snake_case
from ..utils.dtype_utils import standardize_dtype
from ..variables import Variable

# The built-in metrics by name ("mae", "AUC", "f1_score", ...), the table behind
# `hikeras.metrics.get`. `hikeras.metrics` fills it once every module defining a metric
# has loaded (they all import this one); `MeanMetricWrapper.from_config` resolves a saved
# function name through it.
ALL_OBJECTS_DICT = {}


def as_array(x, dtype=None):
    """`x` as a plain numpy array (unwrapping tensors), so nothing is recorded."""
    if isinstance(x, Tensor):
        x = x.value
    return np.asarray(x, dtype=dtype)


class Metric:
    """Base class of metrics.

    Subclasses create their state in `__init__` with `add_variable`, and
    implement `update_state(...)` (accumulate one batch) and `result()`.

    Args:
        name: name of the metric, used as its key in training logs; defaults
            to the class name in snake_case.
        dtype: dtype of the state and result; `None` means `floatx()`.

    >>> import numpy as np
    >>> class CountPositives(Metric):
    ...     def __init__(self, name="count_positives", dtype=None):
    ...         super().__init__(name=name, dtype=dtype)
    ...         self.count = self.add_variable(shape=(), name="count")
    ...     def update_state(self, values):
    ...         self.count.assign_add(np.sum(as_array(values) > 0))
    ...     def result(self):
    ...         return self.count.value.copy()
    >>> m = CountPositives()
    >>> m.update_state([1.0, -2.0, 3.0])
    >>> float(m.result())
    2.0
    >>> m.reset_state()
    >>> float(m.result())
    0.0
    """

    def __init__(self, name=None, dtype=None):
        self.name = name or to_snake_case(type(self).__name__)
        self._dtype = standardize_dtype(dtype)
        self._variables = []

    @property
    def dtype(self):
        """Name of the dtype of the metric's state and result."""
        return self._dtype

    def add_variable(self, shape, initializer="zeros", dtype=None, name=None):
        """Creates a non-trainable state `Variable` tracked in `self.variables`.

        Args:
            shape: the variable's shape, e.g. `()` for a running total.
            initializer: an initializer identifier (`"zeros"`, `"ones"`, an
                `Initializer`, or a callable `(shape, dtype) -> array`).
            dtype: defaults to the metric's dtype.
            name: short name of the variable, e.g. `"total"`.
        """
        if not hasattr(self, "_variables"):
            raise RuntimeError(
                f"{type(self).__name__}.__init__ must call `super().__init__()` before "
                "`add_variable`."
            )

        dtype = np.dtype(dtype or self._dtype)
        shape = tuple(int(d) for d in shape) if not isinstance(shape, int) else (shape,)
        value = np.asarray(initializers.get(initializer)(shape, dtype=dtype), dtype=dtype)
        name = name or f"variable_{len(self._variables)}"
        variable = Variable(value, name=name, trainable=False, path=f"{self.name}/{name}")
        self._variables.append(variable)
        return variable

    def add_weight(self, shape=(), initializer="zeros", dtype=None, name=None):
        """Alias of `add_variable` (Keras 2's name)."""
        return self.add_variable(shape=shape, initializer=initializer, dtype=dtype, name=name)

    @property
    def variables(self):
        """The metric's state variables, including those of nested metrics."""
        variables = list(self._variables)
        for value in vars(self).values():
            if isinstance(value, Metric) and value is not self:
                variables.extend(value.variables)
        return variables

    def reset_state(self):
        """Sets every state variable to zero (called at the start of each epoch)."""
        for variable in self.variables:
            variable.value[...] = 0

    def update_state(self, *args, **kwargs):
        """Accumulates statistics from one batch; implemented by subclasses."""
        raise NotImplementedError(
            f"Metric subclass {type(self).__name__} must implement `update_state`."
        )

    def result(self):
        """The metric's current value; implemented by subclasses."""
        raise NotImplementedError(f"Metric subclass {type(self).__name__} must implement `result`.")

    def __call__(self, *args, **kwargs):
        """Updates the state with one batch and returns the new result."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        """The constructor arguments, as a JSON-able dict."""
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        """Rebuilds a metric from the output of `get_config`."""
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"
