"""Keras's `keras.mixed_precision` names: policies and the global policy.

See `hikeras.dtype_policies` and docs/settings.md for what hikeras
does with a mixed policy.
"""

from .dtype_policies import DTypePolicy, global_policy, set_global_policy
from .optimizers import LossScaleOptimizer

Policy = DTypePolicy
dtype_policy = global_policy
set_dtype_policy = set_global_policy

__all__ = ["DTypePolicy", "LossScaleOptimizer", "Policy", "dtype_policy", "global_policy", "set_dtype_policy",
           "set_global_policy"]
