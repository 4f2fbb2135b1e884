"""Fourier transforms and framing: values against an explicit DFT, gradients, shape rules."""

import numpy as np
import pytest

from tests.helpers.check_op import case, params, random_array

_TABLE_RNG = np.random.default_rng(12)


def r(*shape):
    return random_array(_TABLE_RNG, *shape)


def _dft_matrix(n, inverse=False):
    k = np.arange(n)
    sign = 1.0 if inverse else -1.0
    matrix = np.exp(sign * 2j * np.pi * np.outer(k, k) / n)
    return matrix / n if inverse else matrix


def _dft(real, imag, inverse=False):
    z = (real + 1j * imag) @ _dft_matrix(real.shape[-1], inverse).T
    return z.real, z.imag


def _dft2(real, imag, inverse=False):
    z = real + 1j * imag
    rows, cols = _dft_matrix(z.shape[-2], inverse), _dft_matrix(z.shape[-1], inverse)
    z = np.einsum("ij,...jk,lk->...il", rows, z, cols)
    return z.real, z.imag


def _rfft(x, n):
    x = x[..., :n] if x.shape[-1] >= n else np.concatenate(
        [x, np.zeros(x.shape[:-1] + (n - x.shape[-1],))], axis=-1)
    z = x @ _dft_matrix(n).T[:, : n // 2 + 1]
    return z.real, z.imag


def _irfft(real, imag, n):
    bins = n // 2 + 1
    z = real[..., :bins] + 1j * imag[..., :bins]
    full = np.zeros(z.shape[:-1] + (n,), complex)
    full[..., : z.shape[-1]] = z
    full[..., 0] = full[..., 0].real
    if n % 2 == 0 and z.shape[-1] > n // 2:
        full[..., n // 2] = full[..., n // 2].real
    for k in range(1, (n + 1) // 2):  # Hermitian symmetry fills the other half
        full[..., n - k] = np.conj(full[..., k])
    return (full @ _dft_matrix(n, inverse=True).T).real


def _frames(x, length, stride):
    count = (x.shape[-1] - length) // stride + 1
    return np.stack([x[..., k * stride:k * stride + length] for k in range(count)], axis=-2)


def _overlap_add(frames, stride):
    count, length = frames.shape[-2:]
    out = np.zeros(frames.shape[:-2] + ((count - 1) * stride + length,))
    for k in range(count):
        out[..., k * stride:k * stride + length] += frames[..., k, :]
    return out


CASES = [
    case("fft", r(3, 8), r(3, 8), reference=_dft),
    case("fft", r(2, 5), r(2, 5), attrs={"inverse": True},
         reference=lambda a, b: _dft(a, b, True), label="inverse"),
    case("fft", r(2, 4, 6), r(2, 4, 6), attrs={"axes": (-2, -1)}, reference=_dft2,
         label="2d"),
    case("fft", r(3, 5), r(3, 5), attrs={"axes": (-2, -1), "inverse": True},
         reference=lambda a, b: _dft2(a, b, True), label="2d-inverse"),
    case("rfft", r(3, 10), reference=lambda x: _rfft(x, 10)),
    case("rfft", r(3, 10), attrs={"fft_length": 7}, reference=lambda x: _rfft(x, 7),
         label="cropped"),
    case("rfft", r(2, 5), attrs={"fft_length": 8}, reference=lambda x: _rfft(x, 8),
         label="padded"),
    case("irfft", r(2, 6), r(2, 6), reference=lambda a, b: _irfft(a, b, 10)),
    case("irfft", r(2, 6), r(2, 6), attrs={"fft_length": 9},
         reference=lambda a, b: _irfft(a, b, 9), label="odd-length"),
    case("irfft", r(2, 4), r(2, 4), attrs={"fft_length": 12},
         reference=lambda a, b: _irfft(a, b, 12), label="padded"),
    case("frame", r(2, 17), attrs={"length": 4, "stride": 3},
         reference=lambda x: _frames(x, 4, 3)),
    case("frame", r(13), attrs={"length": 5, "stride": 5},
         reference=lambda x: _frames(x, 5, 5), label="no-overlap"),
    case("overlap_add", r(2, 5, 4), attrs={"stride": 2},
         reference=lambda f: _overlap_add(f, 2)),
    case("overlap_add", r(3, 3), attrs={"stride": 5},
         reference=lambda f: _overlap_add(f, 5), label="gaps"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()
