"""FarmHash Fingerprint64 and FingerprintCat64, vectorised over equal-length byte strings.

Keras's `Hashing` (without a salt) and `HashedCrossing` bucket values with
TensorFlow's `Fingerprint64`, which is FarmHash's `farmhashna::Hash64`, and
`HashedCrossing` chains the fingerprints of a row's features with
`FingerprintCat64`. Reproducing both bit for bit is what makes our buckets
Keras's buckets, so a model trained in one framework reads the same inputs in
the other.

The functions take a `(n, length)` uint8 array: `n` strings of the same byte
length, one per row. Strings of one length follow the same branches of the
algorithm, so every step is one numpy operation on `n` uint64 values
(numpy's uint64 arithmetic wraps modulo 2**64, as the C++ does).
"""

import numpy as np

_K0 = np.uint64(0xC3A5C85C97CB3127)
_K1 = np.uint64(0xB492B66FBE98F273)
_K2 = np.uint64(0x9AE16A3B2F90404F)
_CAT_MUL = np.uint64(0xC6A4A7935BD1E995)
_SEED = np.uint64(81)


def _u64(value):
    return np.uint64(value & 0xFFFFFFFFFFFFFFFF)


def _fetch64(rows, offset):
    """The little-endian uint64 at byte `offset` of every row."""
    return np.ascontiguousarray(rows[:, offset:offset + 8]).view("<u8")[:, 0].astype(np.uint64)


def _fetch32(rows, offset):
    return np.ascontiguousarray(rows[:, offset:offset + 4]).view("<u4")[:, 0].astype(np.uint64)


def _rotate(value, shift):
    if shift == 0:
        return value
    return (value >> np.uint64(shift)) | (value << np.uint64(64 - shift))


def _shift_mix(value):
    return value ^ (value >> np.uint64(47))


def _hash_len16(u, v, mul):
    a = _shift_mix((u ^ v) * mul)
    b = _shift_mix((v ^ a) * mul)
    return b * mul


def _hash_len0to16(rows, length):
    n = rows.shape[0]
    if length >= 8:
        mul = _K2 + _u64(length * 2)
        a = _fetch64(rows, 0) + _K2
        b = _fetch64(rows, length - 8)
        c = _rotate(b, 37) * mul + a
        d = (_rotate(a, 25) + b) * mul
        return _hash_len16(c, d, mul)
    if length >= 4:
        mul = _K2 + _u64(length * 2)
        a = _fetch32(rows, 0)
        return _hash_len16(_u64(length) + (a << np.uint64(3)), _fetch32(rows, length - 4), mul)
    if length > 0:
        a = rows[:, 0].astype(np.uint64)
        b = rows[:, length >> 1].astype(np.uint64)
        c = rows[:, length - 1].astype(np.uint64)
        y = (a + (b << np.uint64(8))) & np.uint64(0xFFFFFFFF)  # uint32 arithmetic in C++
        z = (_u64(length) + (c << np.uint64(2))) & np.uint64(0xFFFFFFFF)
        return _shift_mix((y * _K2) ^ (z * _K0)) * _K2
    return np.full(n, _K2, dtype=np.uint64)


def _hash_len17to32(rows, length):
    mul = _K2 + _u64(length * 2)
    a = _fetch64(rows, 0) * _K1
    b = _fetch64(rows, 8)
    c = _fetch64(rows, length - 8) * mul
    d = _fetch64(rows, length - 16) * _K2
    return _hash_len16(_rotate(a + b, 43) + _rotate(c, 30) + d,
                       a + _rotate(b + _K2, 18) + c, mul)


def _hash_len33to64(rows, length):
    mul = _K2 + _u64(length * 2)
    a = _fetch64(rows, 0) * _K2
    b = _fetch64(rows, 8)
    c = _fetch64(rows, length - 8) * mul
    d = _fetch64(rows, length - 16) * _K2
    y = _rotate(a + b, 43) + _rotate(c, 30) + d
    z = _hash_len16(y, a + _rotate(b + _K2, 18) + c, mul)
    e = _fetch64(rows, 16) * mul
    f = _fetch64(rows, 24)
    g = (y + _fetch64(rows, length - 32)) * mul
    h = (z + _fetch64(rows, length - 24)) * mul
    return _hash_len16(_rotate(e + f, 43) + _rotate(g, 30) + h,
                       e + _rotate(f + a, 18) + g, mul)


def _weak_hash_len32_with_seeds(rows, offset, a, b):
    w, x = _fetch64(rows, offset), _fetch64(rows, offset + 8)
    y, z = _fetch64(rows, offset + 16), _fetch64(rows, offset + 24)
    a = a + w
    b = _rotate(b + a + z, 21)
    c = a
    a = a + x + y
    b = b + _rotate(a, 44)
    return a + z, b + c


def _hash_long(rows, length):
    """Strings over 64 bytes: 64-byte blocks, then the last 64 bytes."""
    n = rows.shape[0]
    zeros = np.zeros(n, dtype=np.uint64)
    x = np.full(n, _SEED, dtype=np.uint64)
    y = np.full(n, _u64(81 * 0xB492B66FBE98F273 + 113), dtype=np.uint64)  # seed * k1 + 113
    z = _shift_mix(y * _K2 + np.uint64(113)) * _K2
    v, w = (zeros, zeros), (zeros, zeros)
    x = x * _K2 + _fetch64(rows, 0)
    end = ((length - 1) // 64) * 64
    last64 = end + ((length - 1) & 63) - 63
    for s in range(0, end, 64):
        x = _rotate(x + y + v[0] + _fetch64(rows, s + 8), 37) * _K1
        y = _rotate(y + v[1] + _fetch64(rows, s + 48), 42) * _K1
        x = x ^ w[1]
        y = y + v[0] + _fetch64(rows, s + 40)
        z = _rotate(z + w[0], 33) * _K1
        v = _weak_hash_len32_with_seeds(rows, s, v[1] * _K1, x + w[0])
        w = _weak_hash_len32_with_seeds(rows, s + 32, z + w[1], y + _fetch64(rows, s + 16))
        z, x = x, z
    mul = _K1 + ((z & np.uint64(0xFF)) << np.uint64(1))
    s = last64
    w0 = w[0] + _u64((length - 1) & 63)
    v0 = v[0] + w0
    w0 = w0 + v0
    v, w = (v0, v[1]), (w0, w[1])
    x = _rotate(x + y + v[0] + _fetch64(rows, s + 8), 37) * mul
    y = _rotate(y + v[1] + _fetch64(rows, s + 48), 42) * mul
    x = x ^ (w[1] * np.uint64(9))
    y = y + v[0] * np.uint64(9) + _fetch64(rows, s + 40)
    z = _rotate(z + w[0], 33) * mul
    v = _weak_hash_len32_with_seeds(rows, s, v[1] * mul, x + w[0])
    w = _weak_hash_len32_with_seeds(rows, s + 32, z + w[1], y + _fetch64(rows, s + 16))
    z, x = x, z
    return _hash_len16(_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z,
                       _hash_len16(v[1], w[1], mul) + x, mul)


def fingerprint64(rows):
    """FarmHash Fingerprint64 of each row of a `(n, length)` uint8 array, as uint64."""
    rows = np.asarray(rows, dtype=np.uint8)
    length = rows.shape[1]
    if length <= 16:
        return _hash_len0to16(rows, length)
    if length <= 32:
        return _hash_len17to32(rows, length)
    if length <= 64:
        return _hash_len33to64(rows, length)
    return _hash_long(rows, length)


def fingerprint_cat64(first, second):
    """TensorFlow's `FingerprintCat64`: combines two uint64 fingerprints (elementwise)."""
    result = first ^ _CAT_MUL
    result = result ^ (_shift_mix(second * _CAT_MUL) * _CAT_MUL)
    result = result * _CAT_MUL
    result = _shift_mix(result) * _CAT_MUL
    return _shift_mix(result)
