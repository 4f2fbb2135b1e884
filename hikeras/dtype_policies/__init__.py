"""Dtype policies, by Keras's names (`keras.dtype_policies`)."""

from .dtype_policy import (
    DTypePolicy,
    FloatDTypePolicy,
    deserialize,
    get,
    global_policy,
    serialize,
    set_global_policy,
)

__all__ = ["DTypePolicy", "FloatDTypePolicy", "deserialize", "get", "global_policy",
           "serialize", "set_global_policy"]
