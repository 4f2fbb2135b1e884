"""Dtype names and promotion by Keras's rules (`keras.backend.standardize_dtype`, ...).

Keras promotes like JAX, not like numpy: `int32` with `float16` gives
`float16` (numpy says `float32`), `int64` with `float32` stays `float32`, and
Python scalars are "weak": `float32` with a Python float stays `float32`.
"""

import numpy as np

from .bfloat16 import use_bfloat16
from .config import floatx

_PYTHON_TYPES = {bool: "bool", int: "int64", float: "float32", str: "string"}
_NAMES = (
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
    "bfloat16", "float16", "float32", "float64", "complex64", "complex128", "string",
)
_WEAK = {int: "int", float: "float"}


def standardize_dtype(dtype):
    """The Keras name of `dtype` (a name, a numpy dtype or scalar type, a Python type).

    None gives `floatx()`. An unknown dtype raises `ValueError`.

    >>> standardize_dtype(np.float32), standardize_dtype(int), standardize_dtype(None)
    ('float32', 'int64', 'float32')
    """
    if dtype is None:
        return floatx()
    if dtype in _PYTHON_TYPES:
        return _PYTHON_TYPES[dtype]
    name = getattr(dtype, "name", None)
    if not isinstance(name, str):
        try:
            name = np.dtype(dtype).name if not isinstance(dtype, str) else dtype
        except TypeError:
            name = str(dtype)
    if name not in _NAMES:
        raise ValueError(f"Invalid dtype: {dtype}. Received: dtype={dtype!r}")
    return name


def bfloat16_dtype():
    """numpy's dtype for bfloat16, from the `ml-dtypes` package (imported on first use).

    numpy has no bfloat16; `ml-dtypes` (`pip install "hikeras[mixed]"`) adds
    one that numpy's ufuncs and casts understand.
    """
    try:
        import ml_dtypes  # optional: only bfloat16 needs it
    except ImportError:
        raise ImportError(
            "bfloat16 (and the 'mixed_bfloat16' policy) needs the ml-dtypes package: "
            'pip install "hikeras[mixed]". Received: dtype=\'bfloat16\'') from None
    dtype = np.dtype(ml_dtypes.bfloat16)
    use_bfloat16(dtype)
    return dtype


def is_float_dtype(dtype):
    """Whether `dtype` is a floating dtype (None means `floatx()`, so it is)."""
    return standardize_dtype(dtype) in ("bfloat16", "float16", "float32", "float64")


def is_int_dtype(dtype):
    """Whether `dtype` is a signed or unsigned integer dtype (`bool` is not)."""
    return standardize_dtype(dtype).startswith(("int", "uint"))


def _bits(name):
    return int("".join(c for c in name if c.isdigit()))


def _promote(a, b):
    """Two standardized, non-weak dtype names to one, by Keras's lattice."""
    if a == b or b == "bool":
        return a
    if a == "bool":
        return b
    a_float, b_float = is_float_dtype(a), is_float_dtype(b)
    if a_float and b_float:
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if _bits(a) > _bits(b) else b
    if a_float or b_float:
        return a if a_float else b
    if a[0] == b[0]:  # both signed or both unsigned
        return a if _bits(a) > _bits(b) else b
    unsigned, signed = (a, b) if a.startswith("u") else (b, a)
    if _bits(signed) > _bits(unsigned):
        return signed
    if unsigned == "uint64":
        return "float64"
    return f"int{2 * _bits(unsigned)}"


def result_type(*dtypes):
    """The dtype Keras gives an op on inputs of `dtypes` (names, types, Python scalar types).

    No dtypes gives `floatx()`. Python `int` and `float` are weak: they never
    widen a concrete dtype, but `float` makes an integer result a float.

    >>> result_type("int32", "float16"), result_type("float32", float), result_type("int8", int)
    ('float16', 'float32', 'int8')
    """
    if not dtypes:
        return floatx()
    weak = {_WEAK[d] for d in dtypes if d in _WEAK}
    concrete = [standardize_dtype(d) for d in dtypes if d not in _WEAK]
    result = None
    for dtype in concrete:
        result = dtype if result is None else _promote(result, dtype)
    if result is None or result == "bool":
        if "float" in weak:
            return floatx()
        return "int32" if "int" in weak else (result or floatx())
    if "float" in weak and not is_float_dtype(result):
        return floatx()
    return result


_UIDS = {}


def get_uid(prefix=""):
    """1, 2, 3, ... for successive calls with the same `prefix` (reset by `clear_session`)."""
    _UIDS[prefix] = _UIDS.get(prefix, 0) + 1
    return _UIDS[prefix]


def reset_uids():
    """Forgets every `get_uid` counter."""
    _UIDS.clear()
