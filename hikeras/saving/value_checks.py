"""Checks on the values a load brings into a model: their dtypes, and NaN or inf.

* A saved weight whose dtype differs from its variable's is refused (naming
  the weight), except between float32 and float64, which convert both ways:
  a model trained in float64 loads into a float32 one and back. Byte order
  does not count. Silently casting int, bool, float16 or uint64 data into a
  float variable would hide a file that is not what it claims to be.
* NaN or infinite values in loaded weights are not refused (a diverged run's
  checkpoint is still worth inspecting) but give one warning naming the
  weights, and are listed in the `LoadReport`'s `nonfinite`.

Every loading path uses them: `load_weights` in every format, `load_model`
and `BackupAndRestore`.
"""

import warnings

import numpy as np

_CONVERTIBLE = frozenset({np.dtype("float32"), np.dtype("float64")})
_BLOCK = 2**22  # elements checked at a time: no full-size temporary


def dtype_problem(what, model_dtype, saved_dtype):
    """Why a saved array of `saved_dtype` cannot load into `model_dtype`, or None."""
    model_dtype = np.dtype(model_dtype).newbyteorder("=")
    saved_dtype = np.dtype(saved_dtype).newbyteorder("=")
    if model_dtype == saved_dtype or {model_dtype, saved_dtype} <= _CONVERTIBLE:
        return None
    return (f"{what} has dtype {model_dtype.name} in the model but {saved_dtype.name} in "
            "the file (only float32 and float64 convert into each other on load)")


def has_nonfinite(array):
    """Whether a (possibly memory-mapped) array holds NaN or +-inf."""
    array = np.asarray(array)
    if array.dtype.kind not in "fc":
        return False
    flat = array.reshape(-1)
    return any(not np.isfinite(flat[i:i + _BLOCK]).all()
               for i in range(0, flat.size, _BLOCK))


def warn_nonfinite(source, weights):
    """One warning naming the loaded weights that hold NaN or inf.

    `weights` are `(saved name, variable path)` pairs.
    """
    if not weights:
        return
    names = [f"'{path}' (saved as '{name}')" if name != path else f"'{path}'"
             for name, path in weights]
    shown = ", ".join(names[:10])
    more = f" and {len(names) - 10} more" if len(names) > 10 else ""
    warnings.warn(f"The file '{source}' holds NaN or infinite values in {len(names)} loaded "
                  f"weight(s): {shown}{more}. They were loaded as they are.", stacklevel=4)
