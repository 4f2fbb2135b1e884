"""Saving and loading: the object registry and (de)serialisation of configs."""

from .object_registration import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from .serialization import deserialize_keras_object, serialize_keras_object

__all__ = [
    "CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
    "get_custom_objects", "get_registered_name", "get_registered_object",
    "register_keras_serializable", "serialize_keras_object",
]
