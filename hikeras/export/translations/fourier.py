"""Fourier transforms on (real, imaginary) pairs as ONNX's `DFT`.

ONNX's `DFT` takes a complex signal as a trailing axis of two (real,
imaginary) and a leading batch axis, so the pair is stacked into that layout
and split back after one `DFT` per transformed axis. `rfft` is a one-sided
`DFT` of the real signal; `irfft` rebuilds the full Hermitian spectrum from
the half it is given (the mirrored bins conjugated) and keeps the real part
of its inverse `DFT`, which is what numpy computes. From opset 20 `DFT` takes
its axis as an input rather than an attribute.
"""

import numpy as np

from .registry import translates

_END = np.iinfo(np.int64).max


def _dft(g, z, axis, inverse=False, onesided=False):
    """One DFT of the stacked signal `z` (batch first, complex last) along `axis`."""
    if g.opset >= 20:
        return g.node("DFT", [z, "", g.scalar(axis, np.int64, "axis")],
                      inverse=int(inverse), onesided=int(onesided))
    return g.node("DFT", [z], axis=axis, inverse=int(inverse), onesided=int(onesided))


def _stack(g, parts):
    """`(1, ..., len(parts))`: the parts side by side on a new last axis, batch first."""
    columns = [g.node("Unsqueeze", [p, g.ints([0, -1], "axes")]) for p in parts]
    return columns[0] if len(columns) == 1 else g.node("Concat", columns, axis=-1)


def _part(g, z, k):
    """Part `k` (0 real, 1 imaginary) of the stacked `z`, without the batch axis."""
    picked = g.node("Gather", [z, g.scalar(k, np.int64, "part")], axis=-1)
    return g.node("Squeeze", [picked, g.ints([0], "axes")])


def _fit(g, x, rank, n, have):
    """`x` cropped or zero-padded along its last axis from `have` to `n` entries."""
    if have == n:
        return x
    if have > n:
        return g.node("Slice", [x, g.ints([0], "starts"), g.ints([n], "ends"),
                                g.ints([rank - 1], "axes")])
    pads = [0] * (2 * rank)
    pads[2 * rank - 1] = n - have
    return g.node("Pad", [x, g.ints(pads, "pads")], mode="constant")


@translates("fft")
def _fft(g, op):
    dtype = op.outputs[0].dtype
    rank = len(op.outputs[0].shape)
    real, imag = (g.value(x, dtype) for x in op.inputs)
    if tuple(op.inputs[0].shape) != tuple(op.inputs[1].shape):
        common = g.node("Max", [g.node("Shape", [real]), g.node("Shape", [imag])])
        real, imag = (g.node("Expand", [v, common]) for v in (real, imag))
    z = _stack(g, [real, imag])
    for axis in op.attrs.get("axes", (-1,)):
        z = _dft(g, z, int(axis) % rank + 1, inverse=op.attrs.get("inverse", False))
    return _part(g, z, 0), _part(g, z, 1)


@translates("rfft")
def _rfft(g, op):
    x = op.inputs[0]
    dtype = op.outputs[0].dtype
    rank = len(x.shape)
    value = g.value(x, dtype)
    n = op.attrs.get("fft_length")
    if n is not None:
        if x.shape[-1] is None:
            raise g.error("an rfft with fft_length of a last axis of unknown length")
        value = _fit(g, value, rank, int(n), x.shape[-1])
    z = _dft(g, _stack(g, [value]), rank, onesided=True)
    return _part(g, z, 0), _part(g, z, 1)


@translates("irfft")
def _irfft(g, op):
    real, imag = op.inputs
    dtype = op.outputs[0].dtype
    rank = len(op.outputs[0].shape)
    n = op.outputs[0].shape[-1]
    have = op.inputs[0].shape[-1]
    if n is None or have is None or imag.shape[-1] != have:
        raise g.error("an irfft of a spectrum or signal of unknown length")
    bins = n // 2 + 1
    real, imag = (_fit(g, g.value(v, dtype), rank, bins, have) for v in (real, imag))
    # bins n//2+1 .. n-1 mirror bins (n-1)//2 .. 1, conjugated
    mirror = g.ints([n - j for j in range(bins, n)], "mirror")
    real = g.node("Concat", [real, g.node("Gather", [real, mirror], axis=rank - 1)],
                  axis=rank - 1)
    imag = g.node("Concat", [imag, g.node("Neg", [g.node("Gather", [imag, mirror],
                                                         axis=rank - 1)])], axis=rank - 1)
    z = _dft(g, _stack(g, [real, imag]), rank, inverse=True)
    return _part(g, z, 0)
