"""Hashing arrays of strings or integers as TensorFlow does, for `Hashing` and `HashedCrossing`.

TensorFlow hashes bytes: a string is hashed as its UTF-8 encoding, an
integer as its decimal text (`tf.as_string`), a float after truncation to an
integer (Keras casts to int64 first) and a bool as `"true"`/`"false"`. The
hash functions (`farmhash.py`, `siphash.py`) work on equal-length byte
strings, so `hash_values` groups the inputs by byte length and hashes each
group in one vectorised pass.
"""

import numpy as np

from .farmhash import fingerprint64


def value_kind(values):
    """`"string"`, `"integer"`, `"float"` or `"bool"` for a numpy array, None otherwise."""
    if values.dtype.kind in "US":
        return "string"
    if values.dtype == object:
        flat = values.reshape(-1)
        if all(isinstance(v, (str, bytes)) for v in flat):
            return "string"
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in flat):
            return "integer"
        return None
    if values.dtype == bool:
        return "bool"
    if np.issubdtype(values.dtype, np.integer):
        return "integer"
    if np.issubdtype(values.dtype, np.floating):
        return "float"
    return None


def as_bytes(values, kind):
    """The flat list of byte strings TensorFlow hashes for `values` of `kind`."""
    flat = values.reshape(-1)
    if kind == "string":
        return [v if isinstance(v, bytes) else str(v).encode("utf-8") for v in flat.tolist()]
    if kind == "bool":
        return [b"true" if v else b"false" for v in flat.tolist()]
    if kind == "float":
        flat = np.trunc(flat).astype(np.int64)
    return [str(int(v)).encode("ascii") for v in flat.tolist()]


def hash_bytes(strings, hash_rows=fingerprint64):
    """`hash_rows` (a function of a `(n, length)` uint8 array) of each byte string, as uint64."""
    lengths = np.fromiter((len(s) for s in strings), dtype=np.int64, count=len(strings))
    hashes = np.empty(len(strings), dtype=np.uint64)
    for length in np.unique(lengths):
        where = np.flatnonzero(lengths == length)
        joined = b"".join([strings[i] for i in where.tolist()])
        rows = np.frombuffer(joined, dtype=np.uint8).reshape(len(where), int(length))
        hashes[where] = hash_rows(rows)
    return hashes
