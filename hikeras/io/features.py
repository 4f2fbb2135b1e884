"""Feature configurations for parsing Examples, as `tf.io` names them.

`FixedLenFeature`, `VarLenFeature` and `FixedLenSequenceFeature` say what
each feature must hold; `parse_single_example` and `parse_example` read
Examples against them. dtypes are "float32", "int64" and "string" (a string
feature parses to Python bytes in an object array).
"""

import math
import numbers

import numpy as np

from .example_proto import BYTES, FLOAT, INT64

_KIND_BY_NAME = {"float32": FLOAT, "float": FLOAT, "int64": INT64, "string": BYTES,
                 "bytes": BYTES, "str": BYTES, "object": BYTES}
NUMPY_DTYPE = {FLOAT: np.float32, INT64: np.int64, BYTES: object}


def kind_of(dtype, feature):
    """The Example list kind ("float", "int64", "bytes") that `dtype` names."""
    name = dtype if isinstance(dtype, str) else getattr(dtype, "name", None)
    if name is None:
        try:
            name = np.dtype(dtype).name
        except TypeError:
            name = None
    if dtype in (bytes, str, object):
        name = "string"
    kind = _KIND_BY_NAME.get(name)
    if kind is None:
        raise ValueError(f"{feature} supports dtypes \"float32\", \"int64\" and \"string\". "
                         f"Received: dtype={dtype!r}")
    return kind


def _shape(shape, feature):
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    try:
        shape = tuple(shape)
    except TypeError:
        shape = None
    if shape is None or not all(isinstance(d, numbers.Integral) and not isinstance(d, bool)
                                and d >= 0 for d in shape):
        raise ValueError(f"{feature} needs a shape of non-negative integers. "
                         f"Received: shape={shape!r}")
    return tuple(int(d) for d in shape)


def _as_values(value, kind):
    if kind == BYTES:
        flat = np.asarray(value, dtype=object).reshape(-1)
        return np.array([v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in flat],
                        dtype=object)
    return np.asarray(value, dtype=NUMPY_DTYPE[kind])


class FixedLenFeature:
    """A feature with exactly `prod(shape)` values, parsed to an array of `shape`.

    A missing feature takes `default_value` (a scalar, or `prod(shape)`
    values); without one, a missing feature is an error.
    """

    def __init__(self, shape, dtype, default_value=None):
        self.shape = _shape(shape, "FixedLenFeature")
        self.dtype = dtype
        self.kind = kind_of(dtype, "FixedLenFeature")
        self.default_value = None
        if default_value is not None:
            values = _as_values(default_value, self.kind)
            size = math.prod(self.shape)
            if values.size not in (1, size):
                raise ValueError(
                    f"FixedLenFeature's default_value must be a scalar or hold {size} values "
                    f"for shape {self.shape}. Received: default_value with {values.size} values")
            self.default_value = np.broadcast_to(values.reshape(-1), (size,)).reshape(self.shape)

    def __repr__(self):
        return (f"FixedLenFeature(shape={self.shape}, dtype={self.dtype!r}, "
                f"default_value={self.default_value!r})")


class VarLenFeature:
    """A feature with any number of values, parsed to a `SparseTensor`."""

    def __init__(self, dtype):
        self.dtype = dtype
        self.kind = kind_of(dtype, "VarLenFeature")

    def __repr__(self):
        return f"VarLenFeature(dtype={self.dtype!r})"


class FixedLenSequenceFeature:
    """A feature holding any number of items of `shape`, parsed to `(n, *shape)`.

    As in TensorFlow's `parse_example`, `allow_missing` must be True; a
    missing feature parses to zero items, and `parse_example` pads shorter
    examples with `default_value` (0 or b"").
    """

    def __init__(self, shape, dtype, allow_missing=False, default_value=None):
        self.shape = _shape(shape, "FixedLenSequenceFeature")
        self.dtype = dtype
        self.kind = kind_of(dtype, "FixedLenSequenceFeature")
        if not allow_missing:
            raise ValueError("FixedLenSequenceFeature needs allow_missing=True when parsing "
                             "Examples (as in TensorFlow). Received: allow_missing=False")
        self.allow_missing = True
        if default_value is not None and _as_values(default_value, self.kind).size != 1:
            raise ValueError("FixedLenSequenceFeature's default_value pads whole items and "
                             "must be a scalar. Received: "
                             f"default_value={default_value!r}")
        self.default_value = default_value

    def __repr__(self):
        return (f"FixedLenSequenceFeature(shape={self.shape}, dtype={self.dtype!r}, "
                f"allow_missing=True, default_value={self.default_value!r})")
