"""`standardize_dtype`: the one place dtype arguments are read."""

import numpy as np

from .. import backend


def standardize_dtype(dtype):
    """A dtype name from None (`floatx()`), a string, a numpy dtype or a Keras 3 policy.

    Keras's `"string"`, and numpy's str and bytes dtypes, become `"object"`
    (the dtype of symbolic string inputs).

    Keras 3 configs spell dtypes as `DTypePolicy` dicts
    (`{"class_name": "DTypePolicy", "config": {"name": "float32"}}`); mixed
    precision policies are refused, since numpy kernels gain nothing from them.
    """
    if dtype is None:
        return backend.floatx()
    if isinstance(dtype, dict):
        dtype = (dtype.get("config") or {}).get("name") or backend.floatx()
    if isinstance(dtype, np.dtype) and dtype.kind in "USO":  # numpy str, bytes, object
        return "object"
    if hasattr(dtype, "name") and not isinstance(dtype, str):
        dtype = dtype.name
    if dtype == "string":  # Keras's string dtype: numpy holds strings as Python objects
        return "object"
    if dtype in ("mixed_float16", "mixed_bfloat16"):
        raise ValueError(f"Mixed precision policies are not supported. Received: dtype={dtype!r}")
    return np.dtype(dtype).name
