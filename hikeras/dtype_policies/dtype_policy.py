"""`DTypePolicy`: the dtype a layer keeps its weights in and the one it computes in.

A plain dtype name (`"float64"`) is a policy whose two dtypes agree. Keras's
mixed policies (`"mixed_float16"`, `"mixed_bfloat16"`) keep float32 weights and
compute in half precision; hikeras records and serialises them as Keras does,
but its numpy kernels compute in one float dtype per layer, so a layer refuses
a mixed policy with a clear error (see docs/settings.md).
"""

import numpy as np

from .. import backend

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}


class DTypePolicy:
    """A dtype policy by name: `"float32"`, `"float64"`, `"mixed_float16"`, ...

    Args:
        name: a float dtype name or `"mixed_float16"`/`"mixed_bfloat16"`;
            None means `hikeras.config.floatx()`.

    >>> policy = DTypePolicy("mixed_float16")
    >>> policy.variable_dtype, policy.compute_dtype
    ('float32', 'float16')
    """

    def __init__(self, name=None):
        if name is None:
            name = backend.floatx()
        if not isinstance(name, str):
            raise TypeError("'name' must be a string, such as 'mixed_float16'. "
                            f"Received: name={name!r} (of type {type(name)})")
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse(name)

    @staticmethod
    def _parse(name):
        if name in _MIXED:
            return _MIXED[name], "float32"
        if name == "bfloat16":
            return name, name
        try:
            dtype = backend.standardize_dtype(name)
        except ValueError:
            dtype = None
        if dtype is None or not np.issubdtype(np.dtype(dtype), np.number):
            raise ValueError(
                f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies "
                "include 'mixed_float16', 'mixed_bfloat16', and the name of any float dtype "
                f"such as 'float32'. Received: name={name!r}")
        return dtype, dtype

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        """The dtype of the layer's computations and outputs."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype of the layer's weights."""
        return self._variable_dtype

    @property
    def is_mixed(self):
        return self._compute_dtype != self._variable_dtype

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other.name == self.name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'


class FloatDTypePolicy(DTypePolicy):
    """Keras's older name for a `DTypePolicy` of float dtypes."""


_GLOBAL = {"policy": None}


def global_policy():
    """The policy layers get when built without `dtype` (default: from `floatx()`)."""
    return _GLOBAL["policy"] or DTypePolicy(backend.floatx())


def set_global_policy(policy):
    """Sets the policy of layers built without `dtype`; None restores the default."""
    _GLOBAL["policy"] = None if policy is None else get(policy)


def serialize(dtype_policy):
    """The policy as Keras 3 writes it in configs."""
    if not isinstance(dtype_policy, DTypePolicy):
        raise TypeError("serialize expects a DTypePolicy. "
                        f"Received: dtype_policy={dtype_policy!r}")
    return {"module": "keras", "class_name": type(dtype_policy).__name__,
            "config": dtype_policy.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """A policy from `serialize`'s dict (or from a name)."""
    if isinstance(config, str):
        return DTypePolicy(config)
    if not isinstance(config, dict) or config.get("class_name") not in CLASSES:
        raise ValueError("Cannot deserialize a DTypePolicy from this config; expected "
                         f"class_name one of {sorted(CLASSES)}. Received: config={config!r}")
    return CLASSES[config["class_name"]].from_config(config.get("config") or {})


def get(identifier):
    """A policy from a policy, a name or a config dict."""
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    raise ValueError("Cannot interpret this dtype policy; expected a DTypePolicy, a name or "
                     f"a config dict. Received: identifier={identifier!r}")


# The policy classes by name; `DTypePolicyMap` adds itself (it builds on this module).
CLASSES = {"DTypePolicy": DTypePolicy, "FloatDTypePolicy": FloatDTypePolicy}
