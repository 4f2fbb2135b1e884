"""SipHash-2-4, vectorised over equal-length byte strings.

Keras's `Hashing` with a `salt` buckets values with TensorFlow's
`to_hash_bucket_strong`: SipHash-2-4 keyed by the salt's two 64-bit
integers. As `farmhash.py`, it takes a `(n, length)` uint8 array of `n`
strings of one byte length and hashes all rows at once.
"""

import numpy as np

_MASK = 0xFFFFFFFFFFFFFFFF


def _rotl(value, shift):
    return (value << np.uint64(shift)) | (value >> np.uint64(64 - shift))


def _rounds(v0, v1, v2, v3, count):
    for _ in range(count):
        v0 = v0 + v1
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = v2 + v3
        v3 = _rotl(v3, 16) ^ v2
        v0 = v0 + v3
        v3 = _rotl(v3, 21) ^ v0
        v2 = v2 + v1
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def siphash24(rows, key):
    """SipHash-2-4 of each row of a `(n, length)` uint8 array with `key` = (k0, k1), as uint64."""
    rows = np.asarray(rows, dtype=np.uint8)
    n, length = rows.shape
    k0, k1 = (np.uint64(int(k) & _MASK) for k in key)
    v0 = np.full(n, k0 ^ np.uint64(0x736F6D6570736575), dtype=np.uint64)
    v1 = np.full(n, k1 ^ np.uint64(0x646F72616E646F6D), dtype=np.uint64)
    v2 = np.full(n, k0 ^ np.uint64(0x6C7967656E657261), dtype=np.uint64)
    v3 = np.full(n, k1 ^ np.uint64(0x7465646279746573), dtype=np.uint64)
    # The last block holds the tail bytes, zero-padded, and the length in its top byte.
    whole = length // 8 * 8
    tail = np.zeros((n, 8), dtype=np.uint8)
    tail[:, :length - whole] = rows[:, whole:]
    tail[:, 7] = length & 0xFF
    blocks = np.concatenate([rows[:, :whole], tail], axis=1)
    words = np.ascontiguousarray(blocks).view("<u8").astype(np.uint64)
    for i in range(words.shape[1]):
        m = words[:, i]
        v3 = v3 ^ m
        v0, v1, v2, v3 = _rounds(v0, v1, v2, v3, 2)
        v0 = v0 ^ m
    v2 = v2 ^ np.uint64(0xFF)
    v0, v1, v2, v3 = _rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3
