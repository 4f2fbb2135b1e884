"""`name_scope`: a prefix for the paths of variables created inside it (Keras 3's).

`with hikeras.name_scope("encoder"):` makes a variable created inside have the
path `"encoder/<name>"`, and a layer built inside it `"encoder/<layer>/<name>"`;
scopes nest (`"outer/inner/..."`). Only paths change: names of layers and
variables stay as they are, so files and `get_layer` are unaffected.
"""

import threading

_local = threading.local()


def _stack():
    if not hasattr(_local, "names"):
        _local.names = []
    return _local.names


def current_path():
    """The enclosing scopes' names joined by `/` (`""` outside every scope)."""
    return "/".join(_stack())


class name_scope:  # Keras's public name, lowercase
    """Prefixes the paths of variables created inside with `name`.

    Args:
        name: the scope's name, a non-empty string without `/`.
        **kwargs: Keras's backend-specific options (`caller`,
            `deduplicate`, `override_parent`), accepted and ignored.

    >>> import hikeras
    >>> with hikeras.name_scope("outer"):
    ...     with hikeras.name_scope("inner"):
    ...         v = hikeras.Variable([1.0, 2.0], name="v")
    >>> v.path
    'outer/inner/v'
    """

    def __init__(self, name, **kwargs):
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError("Argument `name` must be a non-empty string and cannot contain "
                             f"character `/`. Received: name={name!r}")
        self.name = name
        self._entered = False

    def __enter__(self):
        _stack().append(self.name)
        self._entered = True
        return self

    def __exit__(self, *exc):
        if self._entered:
            _stack().pop()
            self._entered = False
        return False
