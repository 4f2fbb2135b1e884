"""The protocol-buffer wire format, as much as `tf.train.Example` needs.

Written from the public encoding description (varints, tags as
`field_number << 3 | wire_type`, length-delimited fields, fixed 32/64-bit
fields), so reading Examples needs neither TensorFlow nor `protobuf`. Every
length is checked against the bytes that hold it, so malformed input ends in
`DecodeError`, never in a large allocation or a loop.
"""

import numpy as np

VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5
_MAX_VARINT_BYTES = 10
_SHORT_RUN = 16


class DecodeError(ValueError):
    """Bytes that are not a valid protocol-buffer message of the expected kind."""


def read_varint(buf, pos, end):
    """Decodes the varint at `buf[pos:end]`; returns `(value, next_pos)`."""
    if pos < end and buf[pos] < 0x80:  # the common case: tags and short lengths
        return buf[pos], pos + 1
    value, shift = 0, 0
    for i in range(pos, min(end, pos + _MAX_VARINT_BYTES)):
        byte = buf[i]
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value & 0xFFFFFFFFFFFFFFFF, i + 1
        shift += 7
    if end - pos >= _MAX_VARINT_BYTES:
        raise DecodeError("a varint runs past 10 bytes")
    raise DecodeError("a varint runs past the end of its message or field")


def fields(buf, start, end):
    """Yields `(field_number, wire_type, payload)` for each field of `buf[start:end]`.

    `payload` is the integer for varints and the `(begin, stop)` byte range
    for the other wire types. Groups (wire types 3 and 4) are refused.
    """
    pos = start
    while pos < end:
        tag, pos = read_varint(buf, pos, end)
        number, wire_type = tag >> 3, tag & 7
        if number == 0:
            raise DecodeError("a field has number 0")
        if wire_type == VARINT:
            value, pos = read_varint(buf, pos, end)
            yield number, wire_type, value
            continue
        if wire_type == LENGTH_DELIMITED:
            size, pos = read_varint(buf, pos, end)
        elif wire_type == FIXED32:
            size = 4
        elif wire_type == FIXED64:
            size = 8
        else:
            raise DecodeError(f"field {number} has unsupported wire type {wire_type}")
        if size > end - pos:
            raise DecodeError(f"field {number} claims {size} bytes but its message has "
                              f"{end - pos} left")
        yield number, wire_type, (pos, pos + size)
        pos += size


def decode_packed_varints(data):
    """The int64 values of a packed run of varints (`data` is bytes-like)."""
    if len(data) <= _SHORT_RUN:  # a few values: a Python loop beats numpy's set-up
        values, pos = [], 0
        while pos < len(data):
            value, pos = read_varint(data, pos, len(data))
            values.append(value)
        return np.array(values, dtype=np.uint64).view(np.int64)
    raw = np.frombuffer(data, dtype=np.uint8)
    last = raw < 0x80
    if not last[-1]:
        raise DecodeError("a packed varint runs past the end of its field")
    ends = np.flatnonzero(last)
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts + 1
    if lengths.max() > _MAX_VARINT_BYTES:
        raise DecodeError("a packed varint runs past 10 bytes")
    position = np.arange(raw.size) - np.repeat(starts, lengths)
    parts = (raw & 0x7F).astype(np.uint64) << (7 * position).astype(np.uint64)
    return np.bitwise_or.reduceat(parts, starts).view(np.int64)


def encode_varint(value):
    """The varint bytes of a non-negative int below 2**64."""
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def encode_packed_varints(values):
    """Packed varints of int64 `values` (negatives as ten-byte two's complement)."""
    v = np.ascontiguousarray(values, dtype=np.int64).view(np.uint64)
    if v.size == 0:
        return b""
    counts = np.ones(v.shape, np.int64)
    for k in range(1, _MAX_VARINT_BYTES):
        counts += v >= np.uint64(1 << (7 * k))
    owner = np.repeat(np.arange(v.size), counts)
    position = np.arange(owner.size) - np.repeat(np.cumsum(counts) - counts, counts)
    chunks = (v[owner] >> (7 * position).astype(np.uint64)) & np.uint64(0x7F)
    more = (position < counts[owner] - 1).astype(np.uint64) << np.uint64(7)
    return (chunks | more).astype(np.uint8).tobytes()


def tag(number, wire_type):
    """The encoded tag of a field."""
    return encode_varint(number << 3 | wire_type)


def length_delimited(number, payload):
    """One length-delimited field: tag, length, payload."""
    return tag(number, LENGTH_DELIMITED) + encode_varint(len(payload)) + payload
