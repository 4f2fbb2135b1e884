"""bfloat16 arithmetic: each op computes in float32 and rounds its result once.

bfloat16 comes from `ml-dtypes`, whose arithmetic runs element by element and
often answers in float32. Once bfloat16 is in use (`dtypes.bfloat16_dtype`),
`dispatch` runs an op with bfloat16 inputs on their float32 values (BLAS for
products) and rounds its float32 outputs to bfloat16, as hardware that
computes bfloat16 with float32 accumulation does.
"""

import numpy as np

_bfloat16 = []  # numpy's bfloat16 dtype, once `dtypes.bfloat16_dtype` has imported it


def use_bfloat16(dtype):
    """Records numpy's bfloat16 dtype: from now on `dispatch` widens it (see above)."""
    if not _bfloat16:
        _bfloat16.append(dtype)


def bfloat16_in_use():
    return bool(_bfloat16)


def widen_bfloat16(values):
    """`values` with bfloat16 arrays as float32."""
    return [v.astype(np.float32) if getattr(v, "dtype", None) == _bfloat16[0] else v
            for v in values]


def round_to_bfloat16(out, residual):
    """A kernel's result with its float32 arrays rounded to bfloat16 (not its residual)."""
    def narrow(x):
        if isinstance(x, np.ndarray) and x.dtype == np.float32:
            return x.astype(_bfloat16[0])
        return x

    if residual:
        result, kept = out
        return (_narrow_all(result, narrow), kept)
    return _narrow_all(out, narrow)


def _narrow_all(out, narrow):
    return tuple(narrow(o) for o in out) if isinstance(out, tuple) else narrow(out)
