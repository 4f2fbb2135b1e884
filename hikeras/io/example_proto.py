"""`tf.train.Example` records: decoding them to feature lists and encoding them back.

The schema, from TensorFlow's public `example.proto`/`feature.proto`::

    Example  { Features features = 1; }
    Features { map<string, Feature> feature = 1; }
    Feature  { oneof kind { BytesList bytes_list = 1;
                            FloatList float_list = 2;
                            Int64List int64_list = 3; } }
    BytesList { repeated bytes value = 1; }
    FloatList { repeated float value = 1 [packed = true]; }
    Int64List { repeated int64 value = 1 [packed = true]; }

Decoding follows protobuf's merge rules: repeated `features` fields merge,
a later map entry for a key replaces the earlier one, a repeated list of
the same kind concatenates and a different kind replaces it, packed and
unpacked numbers are both accepted, and unknown fields are skipped.
"""

import numpy as np

from . import wire

BYTES, FLOAT, INT64 = "bytes", "float", "int64"
_KIND_BY_FIELD = {1: BYTES, 2: FLOAT, 3: INT64}
_FIELD_BY_KIND = {kind: number for number, kind in _KIND_BY_FIELD.items()}


class BytesList:
    """Explicitly typed byte-string values for `serialize_example` (str is UTF-8 encoded)."""

    def __init__(self, value=()):
        self.value = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in value]


class FloatList:
    """Explicitly typed float32 values for `serialize_example`."""

    def __init__(self, value=()):
        self.value = np.asarray(value, dtype=np.float32).reshape(-1)


class Int64List:
    """Explicitly typed int64 values for `serialize_example`."""

    def __init__(self, value=()):
        self.value = np.asarray(value, dtype=np.int64).reshape(-1)


def _decode_list(buf, begin, end, kind):
    """The values of one BytesList/FloatList/Int64List message."""
    values = []
    for number, wire_type, payload in wire.fields(buf, begin, end):
        if number != 1:
            continue
        if kind == BYTES and wire_type == wire.LENGTH_DELIMITED:
            values.append(bytes(buf[payload[0]:payload[1]]))
        elif kind == FLOAT and wire_type == wire.LENGTH_DELIMITED:
            if (payload[1] - payload[0]) % 4:
                raise wire.DecodeError("a packed float list's length is not a multiple of 4")
            values.append(np.frombuffer(buf[payload[0]:payload[1]], dtype="<f4"))
        elif kind == FLOAT and wire_type == wire.FIXED32:
            values.append(np.frombuffer(buf[payload[0]:payload[1]], dtype="<f4"))
        elif kind == INT64 and wire_type == wire.LENGTH_DELIMITED:
            values.append(wire.decode_packed_varints(buf[payload[0]:payload[1]]))
        elif kind == INT64 and wire_type == wire.VARINT:
            values.append(np.array([payload], dtype=np.uint64).view(np.int64))
    if kind == BYTES:
        return values
    dtype = np.float32 if kind == FLOAT else np.int64
    return np.concatenate(values).astype(dtype, copy=False) if values else np.zeros(0, dtype)


def _decode_feature(buf, begin, end):
    """`(kind, values)` of one Feature; `(None, [])` when no kind is set."""
    kind, values = None, []
    for number, wire_type, payload in wire.fields(buf, begin, end):
        field_kind = _KIND_BY_FIELD.get(number)
        if field_kind is None or wire_type != wire.LENGTH_DELIMITED:
            continue
        decoded = _decode_list(buf, payload[0], payload[1], field_kind)
        if field_kind == kind:
            values = values + decoded if kind == BYTES else np.concatenate((values, decoded))
        else:
            kind, values = field_kind, decoded
    return kind, values


def _decode_entry(buf, begin, end):
    """`(key, (kind, values))` of one map entry of Features."""
    key, feature = "", (None, [])
    for number, wire_type, payload in wire.fields(buf, begin, end):
        if wire_type != wire.LENGTH_DELIMITED:
            continue
        if number == 1:
            try:
                key = bytes(buf[payload[0]:payload[1]]).decode("utf-8")
            except UnicodeDecodeError as error:
                raise wire.DecodeError("a feature name is not valid UTF-8") from error
        elif number == 2:
            feature = _decode_feature(buf, payload[0], payload[1])
    return key, feature


def decode_example(data):
    """`{name: (kind, values)}` for a serialized Example.

    `kind` is "bytes", "float", "int64" or None (a Feature with no list);
    values are a list of bytes, a float32 array or an int64 array.
    Raises `wire.DecodeError` for bytes that are not an Example.
    """
    buf = memoryview(data).cast("B") if not isinstance(data, bytes) else data
    features = {}
    for number, wire_type, payload in wire.fields(buf, 0, len(buf)):
        if number != 1 or wire_type != wire.LENGTH_DELIMITED:
            continue
        for entry_number, entry_type, entry in wire.fields(buf, payload[0], payload[1]):
            if entry_number == 1 and entry_type == wire.LENGTH_DELIMITED:
                key, feature = _decode_entry(buf, entry[0], entry[1])
                features[key] = feature
    return features


def _typed(name, value):
    """A BytesList/FloatList/Int64List for one value of `serialize_example`'s dict."""
    if isinstance(value, (BytesList, FloatList, Int64List)):
        return value
    if isinstance(value, (bytes, str)):
        return BytesList([value])
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, (bytes, str)) for v in value):
        return BytesList(value)
    array = np.asarray(value)
    if array.dtype.kind in "SUO" and array.size and all(
            isinstance(v, (bytes, str, np.bytes_, np.str_)) for v in array.reshape(-1)):
        return BytesList(array.reshape(-1).tolist())
    if array.size == 0:
        raise ValueError(
            f"serialize_example cannot tell the type of the empty feature '{name}'. Wrap it "
            "as hikeras.io.FloatList([]), Int64List([]) or BytesList([]).")
    if array.dtype.kind == "f":
        return FloatList(array)
    if array.dtype.kind in "iub":
        return Int64List(array)
    raise TypeError(
        f"serialize_example: feature '{name}' must hold floats, integers, booleans or "
        f"byte strings. Received: {name} of dtype {array.dtype}")


def _encode_feature(typed):
    if isinstance(typed, BytesList):
        body = b"".join(wire.length_delimited(1, v) for v in typed.value)
    elif isinstance(typed, FloatList):
        body = wire.length_delimited(1, typed.value.astype("<f4").tobytes()) if typed.value.size else b""
    else:
        body = wire.length_delimited(1, wire.encode_packed_varints(typed.value)) if typed.value.size else b""
    kind = BYTES if isinstance(typed, BytesList) else FLOAT if isinstance(typed, FloatList) else INT64
    return wire.length_delimited(_FIELD_BY_KIND[kind], body)


def serialize_example(features):
    """A serialized `tf.train.Example` holding `features`, a dict of name to values.

    Values may be a scalar, a list or an array of floats (FloatList),
    integers or booleans (Int64List), or bytes/str (BytesList, str as UTF-8);
    arrays are flattened. Wrap a value in `hikeras.io.FloatList`,
    `Int64List` or `BytesList` to choose the type yourself (needed for an
    empty list). Keys are written in sorted order, so equal dicts give equal
    bytes.
    """
    if not isinstance(features, dict):
        raise TypeError("serialize_example takes a dict of feature name to values. "
                        f"Received: {type(features).__name__}")
    entries = []
    for name in sorted(features):
        if not isinstance(name, str):
            raise TypeError(f"Feature names must be strings. Received: {name!r}")
        entry = wire.length_delimited(1, name.encode("utf-8")) + wire.length_delimited(
            2, _encode_feature(_typed(name, features[name])))
        entries.append(wire.length_delimited(1, entry))
    return wire.length_delimited(1, b"".join(entries))
