"""Discrete Fourier transforms on (real, imaginary) pairs of real arrays.

hikeras tensors are real, so a complex signal travels as two arrays of one
shape, as in `keras.ops.fft`. Every transform here is linear in its real
inputs, so its VJP is the adjoint map: for the unnormalised DFT `F`, the
adjoint is `conj(F) = n * ifft`, and for `ifft = conj(F) / n` it is `F / n`.
The VJPs are themselves transforms, run as recorded ops, so gradients of
any order are available.
`rfft` and `irfft` keep only the non-redundant half of the spectrum; their
adjoints account for the bins that stand for two conjugate ones.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import unbroadcast
from ._registry import define
from ._traced import ops


def _real_dtype(*specs):
    dtype = rules.result_dtype(*specs)
    return dtype if dtype in (np.float32, np.float64) else np.dtype("float32")


def _pair(real, imag):
    return np.asarray(real) + 1j * np.asarray(imag)


def _split(z, dtype):
    return np.real(z).astype(dtype), np.imag(z).astype(dtype)


def _fft_shape(real, imag, axes=(-1,), inverse=False):
    shape = rules.broadcast_shapes(rules.shape_of(real), rules.shape_of(imag))
    if len(shape) < len(axes):
        raise ValueError(
            f"fft over {len(axes)} axes needs inputs of rank >= {len(axes)}. "
            f"Received: x.shape={shape}")
    dtype = _real_dtype(real, imag)
    return SymbolicTensor(shape, dtype), SymbolicTensor(shape, dtype)


@define("fft", shape=_fft_shape, num_outputs=2)
def fft(real, imag, axes=(-1,), inverse=False):
    """The complex DFT (or its inverse, `inverse=True`) over `axes`."""
    dtype = _real_dtype(real, imag)
    transform = np.fft.ifftn if inverse else np.fft.fftn
    return _split(transform(_pair(real, imag), axes=axes), dtype)


@fft.defvjp(traceable=True)
def _fft_vjp(node, g):
    axes, inverse = node.attrs.get("axes", (-1,)), node.attrs.get("inverse", False)
    shape = node.output_shapes[0]
    n = float(np.prod([shape[a] for a in axes]))
    gr, gi = ops.fft(g[0], g[1], axes=axes, inverse=not inverse)
    scale = 1.0 / n if inverse else n
    return unbroadcast(gr * scale, node.input_shapes[0]), unbroadcast(gi * scale,
                                                                      node.input_shapes[1])


def _fit_length(x, n):
    """`x` cropped or zero-padded along its last axis to `n` entries (with recorded ops)."""
    length = x.shape[-1]
    if length >= n:
        return ops.getitem(x, key=(Ellipsis, slice(0, n)))
    widths = ((0, 0),) * (len(x.shape) - 1) + ((0, n - length),)
    return ops.pad(x, pad_width=widths)


def _rfft_shape(x, fft_length=None):
    shape = rules.shape_of(x)
    if not shape:
        raise ValueError(f"rfft needs an input of rank >= 1. Received: x.shape={shape}")
    n = shape[-1] if fft_length is None else fft_length
    bins = None if n is None else n // 2 + 1
    dtype = _real_dtype(x)
    out = shape[:-1] + (bins,)
    return SymbolicTensor(out, dtype), SymbolicTensor(out, dtype)


@define("rfft", shape=_rfft_shape, num_outputs=2)
def rfft(x, fft_length=None):
    """The first `fft_length // 2 + 1` DFT bins of real `x` (cropped or zero-padded)."""
    return _split(np.fft.rfft(x, n=fft_length, axis=-1), _real_dtype(x))


def _bin_weights(bins, n, dtype):
    """How many spectrum bins each kept bin stands for: 1 for DC and Nyquist, else 2."""
    weights = np.full(bins, 2.0, dtype)
    weights[0] = 1.0
    if n % 2 == 0 and bins > n // 2:
        weights[n // 2] = 1.0
    return weights


@rfft.defvjp(traceable=True)
def _rfft_vjp(node, g):
    # Adjoint of "crop or pad to n, DFT, keep bins 0..n//2": sample t gets
    # Re(sum_k g_k e^{+2 pi i k t / n}). `irfft` computes that sum with the
    # interior bins doubled (and divided by n), so undo both.
    length = node.input_shapes[0][-1]
    n = node.attrs.get("fft_length") or length
    inverse_weights = (1.0 / _bin_weights(n // 2 + 1, n, np.float64)).astype(
        node.output_dtypes[0])
    spread = ops.irfft(g[0] * inverse_weights, g[1] * inverse_weights, fft_length=n) * float(n)
    return (_fit_length(spread, length),)


def _irfft_shape(real, imag, fft_length=None):
    shape = rules.broadcast_shapes(rules.shape_of(real), rules.shape_of(imag))
    if not shape:
        raise ValueError(f"irfft needs inputs of rank >= 1. Received: x.shape={shape}")
    if fft_length is not None:
        n = fft_length
    else:
        n = None if shape[-1] is None else 2 * (shape[-1] - 1)
    return SymbolicTensor(shape[:-1] + (n,), _real_dtype(real, imag))


@define("irfft", shape=_irfft_shape)
def irfft(real, imag, fft_length=None):
    """The real signal of length `fft_length` whose half-spectrum is `real + i imag`."""
    return np.fft.irfft(_pair(real, imag), n=fft_length, axis=-1).astype(
        _real_dtype(real, imag))


@irfft.defvjp(traceable=True)
def _irfft_vjp(node, g):
    n = node.output_shapes[0][-1]
    weights = (_bin_weights(n // 2 + 1, n, np.float64) / n).astype(node.output_dtypes[0])
    gr, gi = ops.rfft(g)
    length = max(node.input_shapes[0][-1], node.input_shapes[1][-1])
    gr, gi = _fit_length(gr * weights, length), _fit_length(gi * weights, length)
    return unbroadcast(gr, node.input_shapes[0]), unbroadcast(gi, node.input_shapes[1])
