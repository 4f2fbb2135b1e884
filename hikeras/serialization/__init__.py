"""The ground floor: names -> objects, and objects <-> JSON-able configs.

Every package that serialises something (layers, losses, metrics, optimizers,
initializers, ...) and the file formats of `hikeras.saving` build on this one,
so it imports nothing from `hikeras` above it. It mirrors Keras's
`saving/object_registration.py` and `saving/serialization_lib.py`:

- `object_registration`: the registry behind `register_keras_serializable`,
  `custom_objects` and `custom_object_scope`;
- `serialization_lib`: `serialize_keras_object`/`deserialize_keras_object`
  and `resolve`, the shared body of every family's `get()`;
- `config_dialect`: reading Keras 3's dialect of configs as Keras 2's.

Users reach these names as `hikeras.saving.<name>`, as in Keras.
"""

from .config_dialect import normalize_config
from .object_registration import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from .serialization_lib import deserialize_keras_object, resolve, serialize_keras_object

__all__ = [
    "CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
    "get_custom_objects", "get_registered_name", "get_registered_object", "normalize_config",
    "register_keras_serializable", "resolve", "serialize_keras_object",
]
