"""MelSpectrogram: raw audio to (log) mel-frequency spectrograms.

A preprocessing layer without weights: it computes on the concrete values
with numpy's FFT (no gradient flows back to the audio), and traces only its
output shape in a functional model.
"""

import numpy as np

from ....backend import SymbolicTensor
from ...layer import Layer

__all__ = ["MelSpectrogram"]

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hertz):
    return _MEL_HIGH_FREQUENCY_Q * np.log(1.0 + hertz / _MEL_BREAK_FREQUENCY_HERTZ)


def mel_weight_matrix(num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz,
                      upper_edge_hertz):
    """`(num_spectrogram_bins, num_mel_bins)` triangular filters, the DC bin left out."""
    linear = np.linspace(0.0, sampling_rate / 2.0, num_spectrogram_bins)[1:]
    bins_mel = _hertz_to_mel(linear)[:, None]
    edges = np.linspace(_hertz_to_mel(lower_edge_hertz), _hertz_to_mel(upper_edge_hertz),
                        num_mel_bins + 2)
    lower, center, upper = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    slopes = np.minimum((bins_mel - lower) / (center - lower), (upper - bins_mel) / (upper - center))
    return np.pad(np.maximum(0.0, slopes), [(1, 0), (0, 0)])


def _periodic_window(name, length):
    a0, a1 = {"hann": (0.5, 0.5), "hamming": (0.54, 0.46)}[name]
    return a0 - a1 * np.cos(2 * np.pi * np.arange(length) / length)


class MelSpectrogram(Layer):
    """Mel spectrograms of `(batch, time)` audio (or one `(time,)` signal).

    The signal is reflect-padded by `fft_length // 2` on both sides, cut into
    frames of `sequence_length` samples `sequence_stride` apart, windowed,
    transformed with an FFT of `fft_length`; magnitudes to the power
    `mag_exp` are mapped on `num_mel_bins` triangular mel filters between
    `min_freq` and `max_freq`, then (with `power_to_db`) converted to
    decibels relative to `ref_power` and clipped `top_db` below the batch's
    maximum. Output: `(batch, num_mel_bins, frames)`.

    Args:
        fft_length, sequence_stride, sequence_length (default `fft_length`),
        window (`"hann"`, `"hamming"` or None), sampling_rate, num_mel_bins,
        min_freq, max_freq (default `sampling_rate / 2`), power_to_db, top_db,
        mag_exp, min_power, ref_power: as in Keras.
    """

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None, window="hann",
                 sampling_rate=16000, num_mel_bins=128, min_freq=20.0, max_freq=None,
                 power_to_db=True, top_db=80.0, mag_exp=2.0, min_power=1e-10, ref_power=1.0,
                 **kwargs):
        sequence_length = sequence_length or fft_length
        if fft_length < sequence_length:
            raise ValueError("`fft_length` must be greater than or equal to `sequence_length`. "
                             f"Received: `sequence_length`={sequence_length}, "
                             f"`fft_length`={fft_length}.")
        if window not in ("hann", "hamming", None):
            raise ValueError("window must be 'hann', 'hamming' or None. "
                             f"Received: window={window!r}")
        super().__init__(**kwargs)
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power

    def _frames(self, signal):
        half = self.fft_length // 2
        padded = np.pad(signal, [(0, 0)] * (signal.ndim - 1) + [(half, half)], mode="reflect")
        count = 1 + (padded.shape[-1] - self.fft_length) // self.sequence_stride
        starts = np.arange(count) * self.sequence_stride
        frames = padded[..., starts[:, None] + np.arange(self.fft_length)]
        if self.window is not None:
            window = _periodic_window(self.window, self.sequence_length)
            left = (self.fft_length - self.sequence_length) // 2
            frames = frames * np.pad(window, (left, self.fft_length - self.sequence_length - left))
        return frames

    def call(self, inputs):
        dtype = self.dtype if self.dtype in ("float32", "float64") else "float32"
        signal = np.asarray(getattr(inputs, "value", inputs), dtype=dtype)
        spectrum = np.abs(np.fft.rfft(self._frames(signal), n=self.fft_length))
        power = spectrum ** self.mag_exp
        matrix = mel_weight_matrix(self.num_mel_bins, power.shape[-1], self.sampling_rate,
                                   self.min_freq, self.max_freq)
        mel = np.tensordot(power, matrix, axes=1)
        if self.power_to_db:
            mel = 10.0 * np.log10(np.maximum(mel, self.min_power))
            mel -= 10.0 * np.log10(max(abs(self.ref_power), self.min_power))
            mel = np.maximum(mel, mel.max() - self.top_db)
        return np.swapaxes(mel, -1, -2).astype(self.dtype)

    def compute_output_spec(self, inputs):
        time = inputs.shape[-1]
        frames = None if time is None else (time + self.sequence_stride + 1) // self.sequence_stride
        if len(inputs.shape) == 1:
            return SymbolicTensor((self.num_mel_bins, frames), self.dtype)
        return SymbolicTensor((inputs.shape[0], self.num_mel_bins, frames), self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "fft_length": self.fft_length, "sequence_stride": self.sequence_stride,
            "sequence_length": self.sequence_length, "window": self.window,
            "sampling_rate": self.sampling_rate, "num_mel_bins": self.num_mel_bins,
            "min_freq": self.min_freq, "max_freq": self.max_freq,
            "power_to_db": self.power_to_db, "top_db": self.top_db, "mag_exp": self.mag_exp,
            "min_power": self.min_power, "ref_power": self.ref_power})
        return config
