"""`parse_single_example` and `parse_example`: Examples to arrays, by feature config."""

import math

import numpy as np

from . import example_proto, wire
from .features import (
    NUMPY_DTYPE,
    FixedLenFeature,
    FixedLenSequenceFeature,
    VarLenFeature,
)
from .sparse import SparseTensor

_CONFIGS = (FixedLenFeature, VarLenFeature, FixedLenSequenceFeature)


def _record_bytes(value, where):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return value
    raise TypeError(f"{where} must be a serialized Example (bytes). "
                    f"Received: {type(value).__name__}")


def _check_config(features):
    if not isinstance(features, dict) or not features:
        raise ValueError("`features` must be a non-empty dict of feature name to "
                         "FixedLenFeature, VarLenFeature or FixedLenSequenceFeature. "
                         f"Received: features={features!r}")
    for key, config in features.items():
        if not isinstance(config, _CONFIGS):
            raise TypeError(f"features['{key}'] must be a FixedLenFeature, VarLenFeature or "
                            f"FixedLenSequenceFeature. Received: {config!r}")


def _describe(index, name):
    return f"Example {index}" + (f" ('{name}')" if name is not None else "")


def _values(decoded, key, config, where):
    """The feature's values as a flat array of the configured dtype, or None if missing."""
    if key not in decoded:
        return None
    kind, values = decoded[key]
    if kind is not None and kind != config.kind:
        raise ValueError(f"{where}: feature '{key}' holds {kind} values but the config "
                         f"expects {config.kind}. Received: {config!r}")
    if config.kind == example_proto.BYTES:
        out = np.empty(len(values), dtype=object)
        out[:] = list(values) if len(values) else []
        return out
    return np.asarray(values, dtype=NUMPY_DTYPE[config.kind]).reshape(-1)


def _fixed(values, key, config, where):
    size = math.prod(config.shape)
    if values is None:
        if config.default_value is None:
            raise ValueError(f"{where}: feature '{key}' is required but could not be found. "
                             "Give its FixedLenFeature a default_value to allow it to be "
                             "missing.")
        return np.array(config.default_value, dtype=NUMPY_DTYPE[config.kind])
    if values.size != size:
        raise ValueError(f"{where}: feature '{key}' has {values.size} values but its "
                         f"FixedLenFeature shape {config.shape} needs {size}.")
    return values.reshape(config.shape)


def _sequence(values, key, config, where):
    item = math.prod(config.shape)
    if values is None:
        values = np.zeros(0, dtype=NUMPY_DTYPE[config.kind])
    if item == 0 or values.size % item:
        raise ValueError(f"{where}: feature '{key}' has {values.size} values, not a whole "
                         f"number of items of shape {config.shape}.")
    return values.reshape((values.size // item, *config.shape))


def _decode(serialized, where, raw_dtype):
    try:
        return example_proto.decode_example(serialized)
    except wire.DecodeError as error:
        hint = ""
        if raw_dtype is not None and raw_dtype.kind == "S":
            hint = (" The records passed through a numpy bytes ('S') array, which drops "
                    "trailing zero bytes; keep serialized records in object arrays.")
        raise wire.DecodeError(f"Could not parse {where}: {error}.{hint}") from None


def parse_single_example(serialized, features, example_names=None, name=None):
    """Parses one serialized Example into `{key: array or SparseTensor}`.

    Args:
        serialized: the Example's bytes (or a 0-d array holding them).
        features: dict of key to `FixedLenFeature`, `VarLenFeature` or
            `FixedLenSequenceFeature`.
        example_names: optional name of the example, used in errors.
        name: accepted for TensorFlow compatibility; unused.
    """
    del name
    _check_config(features)
    where = _describe(0, example_names)
    raw_dtype = serialized.dtype if isinstance(serialized, np.ndarray) else None
    decoded = _decode(_record_bytes(serialized, "`serialized`"), where, raw_dtype)
    out = {}
    for key, config in features.items():
        values = _values(decoded, key, config, where)
        if isinstance(config, FixedLenFeature):
            out[key] = _fixed(values, key, config, where)
        elif isinstance(config, FixedLenSequenceFeature):
            out[key] = _sequence(values, key, config, where)
        else:
            values = values if values is not None else np.zeros(
                0, dtype=NUMPY_DTYPE[config.kind])
            out[key] = SparseTensor(np.arange(values.size).reshape(-1, 1), values,
                                    [values.size])
    return out


def parse_example(serialized, features, example_names=None, name=None):
    """Parses a batch (1-D) of serialized Examples into batched arrays.

    `FixedLenFeature`s stack to `(batch, *shape)`; `VarLenFeature`s become
    one `SparseTensor` with indices `[example, position]` and dense shape
    `[batch, longest]`; `FixedLenSequenceFeature`s pad to the longest
    example with their `default_value`.
    """
    del name
    _check_config(features)
    raw_dtype = serialized.dtype if isinstance(serialized, np.ndarray) else None
    if isinstance(serialized, np.ndarray) and serialized.ndim == 1 or isinstance(
            serialized, (list, tuple)):
        records = list(serialized)
    else:
        raise ValueError("parse_example takes a 1-D batch of serialized Examples; use "
                         "parse_single_example for one. Received: "
                         f"{type(serialized).__name__} with shape {np.shape(serialized)}")
    names = [None] * len(records) if example_names is None else list(example_names)
    parsed = []
    for index, record in enumerate(records):
        where = _describe(index, names[index])
        decoded = _decode(_record_bytes(record, f"serialized[{index}]"), where, raw_dtype)
        parsed.append({key: _values(decoded, key, config, where)
                       for key, config in features.items()})
    return {key: _batch(key, config, parsed, names) for key, config in features.items()}


def _batch(key, config, parsed, names):
    dtype = NUMPY_DTYPE[config.kind]
    if isinstance(config, FixedLenFeature):
        rows = [_fixed(p[key], key, config, _describe(i, names[i])) for i, p in enumerate(parsed)]
        return np.stack(rows) if rows else np.zeros((0, *config.shape), dtype)
    if isinstance(config, FixedLenSequenceFeature):
        rows = [_sequence(p[key], key, config, _describe(i, names[i]))
                for i, p in enumerate(parsed)]
        longest = max((len(r) for r in rows), default=0)
        fill = config.default_value
        if fill is None:
            fill = b"" if dtype is object else 0
        out = np.full((len(rows), longest, *config.shape), fill, dtype=dtype)
        for i, row in enumerate(rows):
            out[i, :len(row)] = row
        return out
    rows = [p[key] if p[key] is not None else np.zeros(0, dtype) for p in parsed]
    lengths = [len(r) for r in rows]
    indices = np.array([(i, j) for i, n in enumerate(lengths) for j in range(n)],
                       dtype=np.int64).reshape(-1, 2)
    values = np.concatenate(rows) if rows else np.zeros(0, dtype)
    return SparseTensor(indices, values.astype(dtype, copy=False),
                        [len(rows), max(lengths, default=0)])
