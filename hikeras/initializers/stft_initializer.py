"""`STFT`: the DFT basis, windowed, as a convolution kernel for a short-time Fourier transform.

A kernel of shape `(frame_length, 1, bins)` holds, for bin `k` and time `t`,
`cos(-2 pi t k / n)` (`side="real"`) or `sin(...)` (`side="imag"`), with
`n = 2 (bins - 1)`, times the window and divided by the window's scale. A
1-D convolution with it over a signal gives one half of the spectrum per frame
(the other half is its mirror image).
"""

import numpy as np

from .initializer import Initializer, standardize_dtype, standardize_shape

_WINDOWS = {"hann": (0.5, 0.5), "hamming": (0.54, 0.46)}


def _window(name, length, periodic):
    """SciPy's `get_window(name, length, fftbins=periodic)` for the cosine windows."""
    a0, a1 = _WINDOWS[name]
    span = length if periodic else length - 1
    if span <= 0:
        return np.ones(length)
    return a0 - a1 * np.cos(2 * np.pi * np.arange(length) / span)


class STFT(Initializer):
    """The windowed DFT basis, as the kernel of `STFTSpectrogram`.

    Args:
        side: `"real"` (cosines) or `"imag"` (sines).
        window: `"hann"`, `"hamming"`, an array of `frame_length` values, or None.
        scaling: `"density"` (divide by the window's L2 norm), `"spectrum"`
            (by its sum) or None.
        periodic: a periodic window (for spectral analysis) rather than a
            symmetric one.

    >>> kernel = STFT(window=None)((4, 1, 3))
    >>> [round(float(v), 6) for v in kernel[:, 0, 1]]
    [1.0, 0.0, -1.0, -0.0]
    """

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag'. Received: side={side!r}")
        if isinstance(window, str) and window not in _WINDOWS:
            raise ValueError(f"window should be one of {sorted(_WINDOWS)}, an array or None. "
                             f"Received: window={window!r}")
        if scaling not in ("density", "spectrum", None):
            raise ValueError("scaling should be 'density', 'spectrum' or None. "
                             f"Received: scaling={scaling!r}")
        self.side = side
        self.window = window
        self.scaling = scaling
        self.periodic = bool(periodic)

    def __call__(self, shape, dtype=None):
        shape = standardize_shape(shape)
        dtype = standardize_dtype(dtype)
        if len(shape) != 3 or shape[1] != 1:
            raise ValueError("STFT expects a kernel shape (frame_length, 1, bins). "
                             f"Received: shape={shape}")
        frame_length, _, bins = shape
        time = np.arange(frame_length, dtype=np.float64).reshape(-1, 1, 1)
        freq = np.arange(bins, dtype=np.float64).reshape(1, 1, -1) / ((bins - 1) * 2)
        angles = -2.0 * np.pi * time * freq
        kernel = np.cos(angles) if self.side == "real" else np.sin(angles)
        if self.window is not None:
            window = (_window(self.window, frame_length, self.periodic)
                      if isinstance(self.window, str) else np.asarray(self.window, np.float64))
            if window.shape != (frame_length,):
                raise ValueError("The shape of `window` must be equal to [frame_length]. "
                                 f"Received: window shape={window.shape}, "
                                 f"frame_length={frame_length}")
            scale = {"density": np.sqrt(np.sum(window ** 2)), "spectrum": np.sum(np.abs(window)),
                     None: 1.0}[self.scaling]
            kernel = kernel * window.reshape(-1, 1, 1) / scale
        return kernel.astype(dtype)

    def get_config(self):
        window = self.window.tolist() if isinstance(self.window, np.ndarray) else self.window
        return {"side": self.side, "window": window, "periodic": self.periodic,
                "scaling": self.scaling}


STFTInitializer = STFT
stft = STFT
