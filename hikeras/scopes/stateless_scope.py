"""`StatelessScope`: run code against given variable values, collecting its writes.

Inside the scope a variable in `state_mapping` reads as its mapped value, and
an assignment to any variable (`assign`, `assign_add`, `assign_sub`) goes
into the scope instead of the variable: later reads inside the scope see it,
`get_current_value` returns it, and on exit every variable has the value it
had before. This is Keras 3's mechanism behind `Layer.stateless_call`.

How: a variable's array is swapped for a scope-owned copy on entry (mapped
variables) or on its first write (the others), and swapped back on exit. So
kernels that write into a mapped variable's array in place (a metric's
accumulation, an optimizer's fused update) write into the scope too; only a
variable that is neither mapped nor assigned through its methods is written
directly by such a kernel.
"""

import threading

import numpy as np

from .. import backend

_local = threading.local()


def _stack():
    if not hasattr(_local, "scopes"):
        _local.scopes = []
    return _local.scopes


def get_stateless_scope():
    """The innermost active `StatelessScope`, or None."""
    scopes = _stack()
    return scopes[-1] if scopes else None


def in_stateless_scope():
    """Whether the calling code runs inside a `StatelessScope`."""
    return bool(_stack())


class StatelessScope:
    """Reads variables from `state_mapping` and collects assignments, as Keras's.

    Args:
        state_mapping: `(variable, value)` pairs (a list, or a dict's
            `items()`); each value must have its variable's shape.
        collect_losses: also collect the losses layers add (`add_loss`)
            inside the scope into `scope.losses`.
        initialize_variables: accepted for Keras compatibility; hikeras
            variables always hold their initial value from creation.

    >>> import numpy as np, hikeras
    >>> v = hikeras.Variable(np.array([1.0, 2.0]), name="v")
    >>> with hikeras.StatelessScope(state_mapping=[(v, np.array([10.0, 20.0]))]) as scope:
    ...     _ = v.assign(v.numpy() + 1.0)
    ...     inside = v.numpy().tolist()
    >>> inside, v.numpy().tolist(), scope.get_current_value(v).tolist()
    ([11.0, 21.0], [1.0, 2.0], [11.0, 21.0])
    """

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        self.collect_losses = bool(collect_losses)
        self.initialize_variables = initialize_variables
        self.losses = []
        self.state_mapping = {}  # id(variable) -> (variable, array)
        for variable, value in (state_mapping or ()):
            self._check_pair(variable, value)
            array = np.array(value.value if isinstance(value, backend.Tensor) else value,
                             dtype=variable.value.dtype)
            self.state_mapping[id(variable)] = (variable, array)
        self._originals = {}  # id(variable) -> (variable, the array it had before)
        self._active = False

    @staticmethod
    def _check_pair(variable, value):
        if not isinstance(variable, backend.Variable):
            raise ValueError(  # noqa: TRY004 - Keras raises a ValueError here
                "Invalid reference variable in StatelessScope: all keys in argument "
                f"`state_mapping` must be Variable instances. Received: {variable!r}")
        shape = tuple(np.shape(value.value if isinstance(value, backend.Tensor) else value))
        if shape != tuple(variable.shape):
            raise ValueError(
                "Invalid variable value in StatelessScope: each value in argument "
                "`state_mapping` must have its variable's shape. For variable "
                f"'{variable.path}' of shape {tuple(variable.shape)}, received a value of "
                f"shape {shape}. Received: value.shape={shape}")

    def __enter__(self):
        if self._active:
            raise RuntimeError("This StatelessScope is already active; make a new one.")
        for key, (variable, array) in self.state_mapping.items():
            self._originals[key] = (variable, variable.value)
            variable.value = array
        _stack().append(self)
        self._active = True
        return self

    def __exit__(self, *exc):
        _stack().remove(self)
        for key, (variable, original) in self._originals.items():
            self.state_mapping[key] = (variable, variable.value)
            variable.value = original
        self._originals = {}
        self._active = False
        return False

    def claim(self, variable):
        """Gives `variable` a scope-owned copy of its array before a write (once)."""
        if self._active and id(variable) not in self._originals:
            self._originals[id(variable)] = (variable, variable.value)
            variable.value = np.array(variable.value)

    def add_update(self, update):
        """Records `(variable, value)` as the variable's value within this scope."""
        variable, value = update
        self._check_pair(variable, value)
        self.claim(variable)
        variable.value[...] = value.value if isinstance(value, backend.Tensor) else value

    def add_loss(self, loss):
        """Collects a loss added by a layer inside the scope."""
        self.losses.append(loss)

    def get_current_value(self, variable):
        """The value `variable` has in this scope (mapped or assigned), else None."""
        key = id(variable)
        if key in self._originals:
            return self._originals[key][0].value
        entry = self.state_mapping.get(key)
        return None if entry is None else entry[1]
