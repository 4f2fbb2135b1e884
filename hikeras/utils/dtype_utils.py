"""`standardize_dtype`: the one place dtype arguments are read."""

import numpy as np

from .. import backend
from ..dtype_policies import DTypePolicy, global_policy


def standardize_dtype(dtype):
    """A dtype name from None (`floatx()`), a string, a numpy dtype or a Keras 3 policy.

    Keras's `"string"`, and numpy's str and bytes dtypes, become `"object"`
    (the dtype of symbolic string inputs).

    Keras 3 configs spell dtypes as `DTypePolicy` dicts
    (`{"class_name": "DTypePolicy", "config": {"name": "float32"}}`). A mixed
    policy (`"mixed_float16"`) stands for its variable dtype, float32, as
    Keras's `layer.dtype`; layers read its compute dtype themselves.
    None is the global policy's dtype (`hikeras.config.set_dtype_policy`),
    which is `floatx()` unless set. `"bfloat16"` needs the `ml-dtypes`
    package (`pip install "hikeras[mixed]"`).
    """
    if dtype is None:
        dtype = global_policy()
    if isinstance(dtype, dict):
        dtype = (dtype.get("config") or {}).get("name") or backend.floatx()
    if isinstance(dtype, DTypePolicy):
        dtype = dtype.variable_dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "USO":  # numpy str, bytes, object
        return "object"
    if hasattr(dtype, "name") and not isinstance(dtype, str):
        dtype = dtype.name
    if dtype == "string":  # Keras's string dtype: numpy holds strings as Python objects
        return "object"
    if dtype in ("mixed_float16", "mixed_bfloat16"):
        return DTypePolicy(dtype).variable_dtype
    if dtype == "bfloat16":
        return backend.bfloat16_dtype().name
    return np.dtype(dtype).name
