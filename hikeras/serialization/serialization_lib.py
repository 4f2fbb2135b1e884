"""Turning objects into JSON-able configs and back, the way Keras does.

An object with `get_config()` serialises to `{"class_name": ..., "config":
{...}}`; a plain function serialises to its (registered) name. The `get()`
helper of every family (`losses.get`, `activations.get`, ...) is built on
`resolve`, so all of them accept the same identifiers: None, a name, a
config dict, a class or an instance/callable.
"""

from .config_dialect import normalize_config
from .config_errors import config_error, rebuilding
from .object_registration import (
    custom_object_scope,
    get_registered_name,
    get_registered_object,
)


def serialize_keras_object(obj):
    """A JSON-able description of `obj` (a name for functions and strings)."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if hasattr(obj, "get_config"):
        return {"class_name": get_registered_name(type(obj)), "config": obj.get_config()}
    if callable(obj):
        return get_registered_name(obj)
    raise TypeError(f"Cannot serialize object {obj!r} of type {type(obj).__name__}.")


def deserialize_keras_object(config, module_objects=None, custom_objects=None,
                             printable_module_name="object"):
    """Rebuilds an object from a name or a `{"class_name", "config"}` dict.

    Keras 3's dialect of the dict is read too (see `config_dialect`).
    """
    if config is None:
        return None
    if isinstance(config, str):
        return _lookup(config, module_objects, custom_objects, printable_module_name)
    if isinstance(config, dict):
        config = normalize_config(config)
        if "class_name" not in config:
            raise ValueError(
                f"A serialized {printable_module_name} must be a name or a dict with "
                f"'class_name' and 'config'. Received: config={config!r}"
            )
        inner = config.get("config") or {}
        try:
            cls = _lookup(config["class_name"], module_objects, custom_objects,
                          printable_module_name)
        except ValueError as e:  # an unknown class: name the object that needs it
            name = inner.get("name") if isinstance(inner, dict) else None
            raise config_error(printable_module_name, name, config["class_name"],
                               str(e).rstrip(".")) from None
        if isinstance(cls, type):
            # Names inside the config (a Lambda's function, a custom activation)
            # must resolve through the same custom_objects; a failure names the
            # object, the config key and the value (see `config_errors`).
            with custom_object_scope(custom_objects), rebuilding(cls, inner,
                                                                 printable_module_name):
                if not isinstance(inner, dict):
                    raise TypeError(f"a config must be an object. Received: config={inner!r}")
                if hasattr(cls, "from_config"):
                    return cls.from_config(dict(inner))
                return cls(**inner)
        return cls  # a registered function: its config is its name
    raise TypeError(
        f"Could not interpret serialized {printable_module_name}. Received: config={config!r}"
    )


def _lookup(name, module_objects, custom_objects, printable_module_name):
    obj = get_registered_object(name, custom_objects, module_objects)
    if obj is None:
        valid = sorted(module_objects or {})
        raise ValueError(
            f"Unknown {printable_module_name}: '{name}'. Valid choices are {valid}; "
            "pass a custom one through `custom_objects` or register it with "
            f"`hikeras.saving.register_keras_serializable`. Received: {printable_module_name}="
            f"{name!r}"
        )
    return obj


def resolve(identifier, module_objects, printable_module_name, instantiate_classes=True):
    """The shared body of every family's `get()`.

    Args:
        identifier: None, a name, a config dict, a class or a callable/instance.
        module_objects: the family's built-in `name -> object` table.
        printable_module_name: e.g. `"loss"`, used in error messages.
        instantiate_classes: classes found by name or passed directly are
            instantiated with no arguments (as `losses.get("MeanSquaredError")`).
    """
    if identifier is None:
        return None
    obj = identifier
    if isinstance(identifier, (str, dict)):
        obj = deserialize_keras_object(identifier, module_objects, None, printable_module_name)
    if isinstance(obj, type):
        return obj() if instantiate_classes else obj
    if callable(obj) or hasattr(obj, "get_config"):
        return obj
    raise ValueError(
        f"Could not interpret {printable_module_name} identifier. Received: {identifier!r}"
    )
