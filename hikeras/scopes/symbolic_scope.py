"""`SymbolicScope`: marks code that only computes output specs (Keras 3's).

hikeras enters one while it traces a layer's or an operation's `call` on
symbolic tensors (`compute_output_spec`); code that wants to skip work that
has no meaning without data (logging, assertions on values) asks
`in_symbolic_scope()`.
"""

import threading

_local = threading.local()


def in_symbolic_scope():
    """Whether the calling code runs inside a `SymbolicScope`."""
    return getattr(_local, "depth", 0) > 0


class SymbolicScope:
    """A context in which `in_symbolic_scope()` is true.

    >>> import hikeras
    >>> from hikeras.scopes import in_symbolic_scope
    >>> with hikeras.SymbolicScope():
    ...     in_symbolic_scope()
    True
    >>> in_symbolic_scope()
    False
    """

    def __enter__(self):
        _local.depth = getattr(_local, "depth", 0) + 1
        return self

    def __exit__(self, *exc):
        _local.depth -= 1
        return False
