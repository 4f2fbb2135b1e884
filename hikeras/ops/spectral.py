"""Fourier transforms and framing: `fft`, `fft2`, `ifft2`, `rfft`, `irfft`, `stft`,
`istft` and `extract_sequences` (Keras's `keras.src.ops.math`).

A complex tensor is a `(real, imag)` pair of real tensors, as in Keras.
Every op here is linear in its inputs and has a gradient. `stft` and
`istft` follow Keras on TensorFlow: frames of `fft_length` samples whose
window (`sequence_length` long, periodic Hann or Hamming) is centred by zero
padding; with `center=True` the signal is first padded by reflection with
`fft_length // 2` samples at each end, and `istft` trims them again.

>>> import numpy as np
>>> real, imag = rfft(np.array([1.0, 0.0, 0.0, 0.0]))
>>> real.tolist(), imag.tolist()
([1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
"""

import math

import numpy as np

from .. import backend
from .core import convert_to_numpy, shape, tensor_operand
from .math import float_operand

_apply = backend.apply


def _complex_pair(x, op):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(
            f"{op} takes a complex tensor as a tuple (real, imag) of two real tensors. "
            f"Received: x={x!r}")
    real, imag = float_operand(x[0]), float_operand(x[1])
    if shape(real) != shape(imag):
        raise ValueError(
            f"{op}: the real and imaginary parts must have the same shape. "
            f"Received: real.shape={shape(real)}, imag.shape={shape(imag)}")
    return real, imag


def _transform(x, op, axes, inverse):
    real, imag = _complex_pair(x, op)
    if len(shape(real)) < len(axes):
        raise ValueError(
            f"{op} transforms the last {len(axes)} axes. Received: x.shape={shape(real)}")
    return _apply("fft", real, imag, axes=axes, inverse=inverse)


def fft(x):
    """The discrete Fourier transform over the last axis of `x = (real, imag)`."""
    return _transform(x, "fft", (-1,), False)


def fft2(x):
    """The 2-D discrete Fourier transform over the last two axes of `(real, imag)`."""
    return _transform(x, "fft2", (-2, -1), False)


def ifft2(x):
    """The inverse of `fft2`."""
    return _transform(x, "ifft2", (-2, -1), True)


def _positive(value, name, op):
    if not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{op}: {name} must be a positive integer. Received: {name}={value!r}")
    return int(value)


def rfft(x, fft_length=None):
    """The non-negative-frequency half `(real, imag)` of the DFT of real `x`'s last axis.

    `x` is cropped or zero-padded to `fft_length` samples first; the result
    has `fft_length // 2 + 1` bins.
    """
    if fft_length is not None:
        fft_length = _positive(fft_length, "fft_length", "rfft")
    return _apply("rfft", float_operand(x), fft_length=fft_length)


def irfft(x, fft_length=None):
    """The real signal whose half-spectrum is `x = (real, imag)`.

    Its length is `fft_length`, by default `2 * (bins - 1)`.
    """
    real, imag = _complex_pair(x, "irfft")
    if fft_length is not None:
        fft_length = _positive(fft_length, "fft_length", "irfft")
    return _apply("irfft", real, imag, fft_length=fft_length)


def extract_sequences(x, sequence_length, sequence_stride):
    """Overlapping windows of `x`'s last axis: `(..., T) -> (..., frames, sequence_length)`.

    >>> extract_sequences(np.arange(5.0), 3, 2).tolist()
    [[0.0, 1.0, 2.0], [2.0, 3.0, 4.0]]
    """
    x = tensor_operand(x)
    length = _positive(sequence_length, "sequence_length", "extract_sequences")
    stride = _positive(sequence_stride, "sequence_stride", "extract_sequences")
    s = shape(x)
    if not s or s[-1] is not None and s[-1] < length:
        raise ValueError(
            "extract_sequences needs a last axis at least one sequence long. "
            f"Received: x.shape={s}, sequence_length={sequence_length}")
    return _apply("frame", x, length=length, stride=stride)


def _window(window, sequence_length, fft_length, dtype, op):
    """The analysis window, `sequence_length` long, zero-padded to `fft_length` (centred)."""
    if window is None:
        values = np.ones(sequence_length)
    elif isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(
                f"{op}: a window given by name must be 'hann' or 'hamming'. "
                f"Received: window={window!r}")
        # Periodic windows (the DFT-even form), as TensorFlow and scipy use for spectra.
        phase = 2.0 * math.pi * np.arange(sequence_length) / sequence_length
        a0 = 0.5 if window == "hann" else 0.54
        values = a0 - (1.0 - a0) * np.cos(phase)
    else:
        values = convert_to_numpy(window).astype(np.float64)
        if values.shape != (sequence_length,):
            raise ValueError(
                f"{op}: the window must have shape (sequence_length,). "
                f"Received: window.shape={values.shape}, sequence_length={sequence_length}")
    left = (fft_length - sequence_length) // 2
    padded = np.zeros(fft_length)
    padded[left:left + sequence_length] = values
    return padded.astype(dtype)


def _check_lengths(sequence_length, sequence_stride, fft_length, op):
    sequence_length = _positive(sequence_length, "sequence_length", op)
    sequence_stride = _positive(sequence_stride, "sequence_stride", op)
    fft_length = _positive(fft_length, "fft_length", op)
    if fft_length < sequence_length:
        raise ValueError(
            f"{op}: fft_length must be at least sequence_length. "
            f"Received: sequence_length={sequence_length}, fft_length={fft_length}")
    return sequence_length, sequence_stride, fft_length


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform of real `x`: `(..., T) -> (..., frames, fft_length // 2 + 1)` pairs.

    Args:
        x: float32 or float64 signals, time on the last axis.
        sequence_length: the window's length.
        sequence_stride: samples between frames.
        fft_length: samples per frame and transform (>= `sequence_length`).
        window: `"hann"`, `"hamming"`, a `(sequence_length,)` array, or None.
        center: pad `x` by reflection so that frame `t` is centred on
            sample `t * sequence_stride`.

    Returns:
        `(real, imag)`.
    """
    sequence_length, sequence_stride, fft_length = _check_lengths(
        sequence_length, sequence_stride, fft_length, "stft")
    x = tensor_operand(x)
    if np.dtype(x.dtype) not in (np.float32, np.float64):
        raise TypeError(f"stft needs float32 or float64 input. Received: x.dtype={x.dtype}")
    if center:
        half = fft_length // 2
        x = _reflect_pad(x, half)
    frames = _apply("frame", x, length=fft_length, stride=sequence_stride)
    frames = frames * _window(window, sequence_length, fft_length, np.dtype(x.dtype), "stft")
    return _apply("rfft", frames, fft_length=fft_length)


def _reflect_pad(x, width):
    rank = len(shape(x))
    widths = ((0, 0),) * (rank - 1) + ((width, width),)
    return _apply("pad", x, pad_width=widths, mode="reflect")


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann",
          center=True):
    """The inverse of `stft`: overlap-added frames, each divided by the window's overlap.

    Args:
        x: `(real, imag)`, each `(..., frames, fft_length // 2 + 1)`.
        sequence_length, sequence_stride, fft_length, window, center: as
            given to `stft`.
        length: trim (or keep) the output to this many samples.
    """
    sequence_length, sequence_stride, fft_length = _check_lengths(
        sequence_length, sequence_stride, fft_length, "istft")
    real, imag = _complex_pair(x, "istft")
    frames = _apply("irfft", real, imag, fft_length=fft_length)
    if window is not None:
        frames = frames * _synthesis_window(
            _window(window, sequence_length, fft_length, np.float64, "istft"), sequence_stride,
        ).astype(np.dtype(real.dtype))
    signal = _apply("overlap_add", frames, stride=sequence_stride)
    start = fft_length // 2 if center else 0
    if length is not None:
        stop = start + int(length)
    elif center:
        stop = -(fft_length // 2) or None
    else:
        stop = None
    return signal[..., start:stop]


def _synthesis_window(window, stride):
    """`window` divided by the sum of the squared windows overlapping each sample.

    Overlap-adding frames multiplied by it undoes an analysis with `window`
    (TensorFlow's `inverse_stft_window_fn`).
    """
    length = window.shape[0]
    squared = np.square(window)
    chunks = -(-length // stride)
    padded = np.zeros(chunks * stride)
    padded[:length] = squared
    overlap = padded.reshape(chunks, stride).sum(axis=0)
    denominators = np.tile(overlap, chunks)[:length]
    return window / denominators
