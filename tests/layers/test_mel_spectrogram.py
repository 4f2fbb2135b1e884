"""MelSpectrogram against Keras's outputs (fixtures/keras_surface), shapes, config, errors."""

import json
import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["mel_layer"]
AUDIO = np.array(FIXTURE["audio"], "float32")


@pytest.mark.parametrize("label", sorted(k for k in FIXTURE if k != "audio"))
def test_matches_keras(label):
    case = FIXTURE[label]
    out = np.asarray(layers.MelSpectrogram(**case["kwargs"])(AUDIO))
    # dB values: float32 rounding of tiny powers moves them by about 1e-3.
    np.testing.assert_allclose(out, case["output"], rtol=1e-4, atol=2e-3)


def test_harness_and_shapes():
    run_layer_test(layers.MelSpectrogram, {"fft_length": 32, "sequence_stride": 8,
                                           "num_mel_bins": 4, "sampling_rate": 4000},
                   input_shape=(2, 64), expected_output_shape=(2, 4, 9),
                   expected_num_trainable_weights=0, check_gradients=False)
    model = hikeras.Sequential([hikeras.Input((64,)), layers.MelSpectrogram(
        fft_length=32, sequence_stride=8, num_mel_bins=4)])
    assert model.output_shape == (None, 4, 9)
    single = layers.MelSpectrogram(fft_length=32, sequence_stride=8, num_mel_bins=4)
    assert np.asarray(single(AUDIO[0, :64])).shape == (4, 9)


def test_bad_arguments():
    with pytest.raises(ValueError, match="`sequence_length`=64, `fft_length`=32"):
        layers.MelSpectrogram(fft_length=32, sequence_length=64)
    with pytest.raises(ValueError, match="Received: window='kaiser'"):
        layers.MelSpectrogram(window="kaiser")
