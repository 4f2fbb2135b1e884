"""STFTSpectrogram: spectrograms of 1-D signals by convolution with a windowed DFT basis."""

import math

import numpy as np

from .... import ops
from ....backend import SymbolicTensor, epsilon
from ....initializers import STFT
from ....initializers.stft_initializer import _WINDOWS
from ....ops import kernels
from ...convolutional.arguments import standardize_data_format
from ...input_spec import InputSpec
from ...layer import Layer

__all__ = ["STFTSpectrogram"]

_MODES = ("log", "magnitude", "psd", "real", "imag", "angle", "stft")


class STFTSpectrogram(Layer):
    """Short-time Fourier transform of each channel of a `(batch, time, channels)` signal.

    Frames of `frame_length` samples, `frame_step` apart, are multiplied by the
    window and projected on the DFT basis (two convolutions, with kernels
    from the `STFT` initializer, which training may adjust like any weight).

    Args:
        mode: `"log"` (log magnitude, default), `"magnitude"`, `"psd"` (power
            spectral density), `"real"`, `"imag"`, `"angle"` (not
            differentiable) or `"stft"` (real and imaginary parts concatenated).
        frame_length: samples per frame.
        frame_step: samples between frames (default `frame_length // 2`).
        fft_length: the DFT size (default: the next power of two); it gives
            `fft_length // 2 + 1` frequency bins.
        window: `"hann"`, `"hamming"`, an array, or None.
        periodic: a periodic window rather than a symmetric one.
        scaling: `"density"`, `"spectrum"` or None (see `initializers.STFT`).
        padding: `"valid"` or `"same"` (frames over the padded signal).
        expand_dims: keep the channels as their own axis instead of stacking
            their bins.
        data_format: `"channels_last"` (`(batch, time, channels)`) or
            `"channels_first"`.

    Output: `(batch, frames, channels * bins)` channels last (with
    `expand_dims`, `(batch, frames, bins, channels)`).
    """

    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None,
                 window="hann", periodic=False, scaling="density", padding="valid",
                 expand_dims=False, data_format=None, **kwargs):
        if frame_step is not None and not 1 <= frame_step <= frame_length:
            raise ValueError("`frame_step` should be a positive integer not greater than "
                             f"`frame_length`. Received frame_step={frame_step}, "
                             f"frame_length={frame_length}")
        if fft_length is not None and fft_length < frame_length:
            raise ValueError("`fft_length` should be not less than `frame_length`. "
                             f"Received fft_length={fft_length}, frame_length={frame_length}")
        if mode not in _MODES:
            raise ValueError(f"Output mode is invalid, it must be one of {', '.join(_MODES)}. "
                             f"Received: mode={mode}")
        if scaling not in (None, "density", "spectrum"):
            raise ValueError("Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        if padding not in ("valid", "same"):
            raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. "
                             f"Received: padding={padding}")
        if isinstance(window, str) and window not in _WINDOWS:
            raise ValueError(f"window should be one of {sorted(_WINDOWS)}, an array or None. "
                             f"Received: window={window!r}")
        super().__init__(**kwargs)
        self.mode = mode
        self.frame_length = frame_length
        self.frame_step = frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** math.ceil(math.log2(frame_length))
        self.window = window
        self.periodic = periodic
        self.scaling = scaling
        self.padding = padding
        self.expand_dims = expand_dims
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        if self.mode != "imag":
            self.real_kernel = self.add_weight(
                name="real_kernel", shape=shape,
                initializer=STFT("real", self.window, self.scaling, self.periodic))
        if self.mode != "real":
            self.imag_kernel = self.add_weight(
                name="imag_kernel", shape=shape,
                initializer=STFT("imag", self.window, self.scaling, self.periodic))

    def _channels_to_batch(self, inputs):
        """`(batch * channels, time, 1)`: each channel is transformed on its own."""
        if self.data_format == "channels_first":
            _, channels, time = inputs.shape
        else:
            _, time, channels = inputs.shape
            inputs = ops.transpose(inputs, (0, 2, 1))
        return ops.reshape(inputs, (-1, time, 1)), channels

    def _project(self, signal, kernel, channels):
        """`(batch, channels, frames, bins)` from the per-channel signal."""
        out = kernels.conv(signal, ops.cast(kernel, signal.dtype), strides=self._frame_step,
                           padding=self.padding)
        return ops.reshape(out, (-1, channels, out.shape[1], out.shape[2]))

    def _arrange(self, out):
        """From `(batch, channels, frames, bins)` to the layer's output layout."""
        _, channels, frames, bins = out.shape
        if self.data_format == "channels_last":
            if self.expand_dims:
                return ops.transpose(out, (0, 2, 3, 1))
            return ops.reshape(ops.transpose(out, (0, 2, 1, 3)), (-1, frames, channels * bins))
        if self.expand_dims:
            return out
        return ops.transpose(ops.reshape(ops.transpose(out, (0, 2, 1, 3)),
                                         (-1, frames, channels * bins)), (0, 2, 1))

    def call(self, inputs):
        if np.dtype(inputs.dtype).name not in ("float16", "float32", "float64"):
            raise TypeError("Invalid input type. Expected `float16`, `float32` or `float64`. "
                            f"Received: input type={inputs.dtype}")
        signal, channels = self._channels_to_batch(inputs)
        real = self._project(signal, self.real_kernel, channels) if self.mode != "imag" else None
        imag = self._project(signal, self.imag_kernel, channels) if self.mode != "real" else None
        if self.mode == "real":
            return self._arrange(real)
        if self.mode == "imag":
            return self._arrange(imag)
        if self.mode == "angle":  # no arctan2 op yet: computed on the values, no gradient
            values = np.arctan2(np.asarray(getattr(imag, "value", imag)),
                                np.asarray(getattr(real, "value", real)))
            return self._arrange(values.astype(np.dtype(real.dtype)))
        if self.mode == "stft":
            return self._arrange(ops.concatenate([real, imag], axis=3))
        power = ops.square(real) + ops.square(imag)
        if self.mode == "psd":  # one-sided: the inner bins count twice
            inner = ops.pad(power[:, :, :, 1:-1], [[0, 0], [0, 0], [0, 0], [1, 1]])
            return self._arrange(power + inner)
        magnitude = self._arrange(ops.sqrt(ops.maximum(power, epsilon())))
        if self.mode == "magnitude":
            return magnitude
        return ops.log(ops.maximum(magnitude, epsilon()))

    def compute_output_spec(self, inputs):
        channels = inputs.shape[-1] if self.data_format == "channels_last" else inputs.shape[1]
        time = inputs.shape[1] if self.data_format == "channels_last" else inputs.shape[2]
        bins = (self._fft_length // 2 + 1) * (2 if self.mode == "stft" else 1)
        if time is None:
            frames = None
        elif self.padding == "same":
            frames = -(-time // self._frame_step)
        else:
            frames = (time - self.frame_length) // self._frame_step + 1
        if self.expand_dims:
            shape = ((inputs.shape[0], frames, bins, channels)
                     if self.data_format == "channels_last"
                     else (inputs.shape[0], channels, frames, bins))
        else:
            stacked = None if channels is None else channels * bins
            shape = ((inputs.shape[0], frames, stacked) if self.data_format == "channels_last"
                     else (inputs.shape[0], stacked, frames))
        return SymbolicTensor(shape, self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        window = self.window.tolist() if isinstance(self.window, np.ndarray) else self.window
        config.update({"mode": self.mode, "frame_length": self.frame_length,
                       "frame_step": self.frame_step, "fft_length": self.fft_length,
                       "window": window, "periodic": self.periodic, "scaling": self.scaling,
                       "padding": self.padding, "data_format": self.data_format,
                       "expand_dims": self.expand_dims})
        return config
