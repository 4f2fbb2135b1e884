"""`DTypePolicyMap`: policies by layer path, for a layer that holds sublayers.

A path (`"encoder/attention/query"`) gets the policy of an exact key, else of
the one key that matches it as a regular expression (`"encoder/.*"`), else
the default. As a policy itself, the map reports its default's dtypes.
"""

import re
from collections.abc import MutableMapping

from .dtype_policy import CLASSES, DTypePolicy, get, global_policy, serialize


class DTypePolicyMap(DTypePolicy, MutableMapping):
    """Maps layer paths (or path patterns) to dtype policies.

    Args:
        default_policy: the policy of paths no key matches (None: the global policy).
        policy_map: a dict `{path or pattern: policy or name}`.
    """

    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`. "  # noqa: TRY004 - as Keras
                             f"Received: default_policy={default_policy!r}")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError("`policy_map` must be a dict. "
                            f"Received: policy_map={policy_map!r}")
        self._default_policy_arg = default_policy
        self._default_policy = None if default_policy is None else get(default_policy)
        self._policy_map = {}
        for key, policy in (policy_map or {}).items():
            self[key] = policy

    @property
    def default_policy(self):
        return self._default_policy or global_policy()

    @property
    def name(self):
        return f"map_{self.default_policy.name}"

    @property
    def compute_dtype(self):
        return self.default_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self.default_policy.variable_dtype

    def __getitem__(self, key):
        if key in self._policy_map:
            return self._policy_map[key]
        matches = [pattern for pattern in self._policy_map if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(f"Path '{key}' matches multiple dtype policy specification keys: "
                             f"{matches}. Each path may match at most one key.")
        return self._policy_map[matches[0]] if matches else self.default_policy

    def __setitem__(self, key, policy):
        if key in self._policy_map:
            raise ValueError(f"{key} already exists in the DTypePolicyMap with value "
                             f"{self._policy_map[key]!r}. Received: key={key!r}")
        self._policy_map[key] = get(policy)

    def __delitem__(self, key):
        return self._policy_map.pop(key)

    def __contains__(self, key):
        return key in self._policy_map

    def __len__(self):
        return len(self._policy_map)

    def __iter__(self):
        return iter(self._policy_map)

    def __eq__(self, other):
        return (isinstance(other, DTypePolicyMap) and other.get_config() == self.get_config())

    __hash__ = None

    def get_config(self):
        default = self._default_policy_arg
        if isinstance(default, DTypePolicy):
            default = serialize(default)
        return {"default_policy": default,
                "policy_map": {k: serialize(v) for k, v in self._policy_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)

    def __repr__(self):
        mapping = [(k, v.name) for k, v in self._policy_map.items()]
        return f"<DTypePolicyMap default_policy={self.default_policy.name}, mapping={mapping}>"


CLASSES["DTypePolicyMap"] = DTypePolicyMap
