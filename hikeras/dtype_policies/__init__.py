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
from .dtype_policy_map import DTypePolicyMap

__all__ = ["DTypePolicy", "DTypePolicyMap", "FloatDTypePolicy", "deserialize", "get", "global_policy",
           "serialize", "set_global_policy"]
