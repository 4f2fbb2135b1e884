"""The name -> object registry behind `custom_objects` and `register_keras_serializable`.

Deserialisation resolves a class or function name in this order: the
`custom_objects` argument, the active `custom_object_scope`s, objects
registered with `register_keras_serializable`, then the built-in objects of
the family being deserialised (layers, losses, ...). Nothing is ever imported
or executed by name: a name that is in none of these is an error.
"""

import threading

_GLOBAL_CUSTOM_OBJECTS = {}
_GLOBAL_CUSTOM_NAMES = {}
_scopes = threading.local()


def register_keras_serializable(package="Custom", name=None):
    """Decorator registering a class or function for deserialisation by name.

    The object is stored as `"package>name"` (Keras's key) and also under its
    bare name, so files written by Keras with either key resolve.

    >>> @register_keras_serializable(package="demo")
    ... def double(x):
    ...     return 2 * x
    >>> get_registered_name(double)
    'demo>double'
    """

    def decorator(obj):
        key = f"{package}>{name or obj.__name__}"
        if key in _GLOBAL_CUSTOM_OBJECTS and _GLOBAL_CUSTOM_OBJECTS[key] is not obj:
            raise ValueError(f"'{key}' has already been registered to "
                             f"{_GLOBAL_CUSTOM_OBJECTS[key]}. Received: obj={obj}")
        _GLOBAL_CUSTOM_OBJECTS[key] = obj
        _GLOBAL_CUSTOM_NAMES[obj] = key
        return obj

    return decorator


def get_registered_name(obj):
    """The name `obj` is serialised under: its registered key, else its own name.

    A key removed from `get_custom_objects()` no longer counts as registered.
    """
    key = _GLOBAL_CUSTOM_NAMES.get(obj)
    if key is not None and _GLOBAL_CUSTOM_OBJECTS.get(key) is obj:
        return key
    return getattr(obj, "__name__", type(obj).__name__)


class custom_object_scope:  # noqa: N801  (Keras's name)
    """Context manager making `custom_objects` visible to deserialisation inside it."""

    def __init__(self, custom_objects):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        if not hasattr(_scopes, "stack"):
            _scopes.stack = []
        _scopes.stack.append(self.custom_objects)
        return self

    def __exit__(self, *exc_info):
        _scopes.stack.pop()
        return False


CustomObjectScope = custom_object_scope


def get_custom_objects():
    """The global dict of registered objects (mutable, as in Keras)."""
    return _GLOBAL_CUSTOM_OBJECTS


def get_registered_object(name, custom_objects=None, module_objects=None):
    """Resolves `name`; returns None when it is unknown."""
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    for scope in reversed(getattr(_scopes, "stack", [])):
        if name in scope:
            return scope[name]
    if name in _GLOBAL_CUSTOM_OBJECTS:
        return _GLOBAL_CUSTOM_OBJECTS[name]
    bare = [obj for key, obj in _GLOBAL_CUSTOM_OBJECTS.items() if key.split(">", 1)[-1] == name]
    if len(bare) == 1:
        return bare[0]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None
