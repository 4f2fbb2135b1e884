"""STFTSpectrogram against Keras's outputs (fixtures/keras_surface), harness and errors."""

import json
import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["stft_layer"]
SIGNAL = np.array(FIXTURE["signal"], "float32")
CASES = sorted(k for k in FIXTURE if k != "signal")


@pytest.mark.parametrize("label", CASES)
def test_matches_keras(label):
    kwargs = FIXTURE[label]["kwargs"]
    x = SIGNAL.transpose(0, 2, 1) if kwargs.get("data_format") == "channels_first" else SIGNAL
    out = np.asarray(layers.STFTSpectrogram(**kwargs)(x))
    expected = np.array(FIXTURE[label]["output"])
    if kwargs.get("mode") == "angle":  # equal angles may differ by 2 pi at the branch cut
        np.testing.assert_allclose(np.cos(out), np.cos(expected), atol=1e-5)
        np.testing.assert_allclose(np.sin(out), np.sin(expected), atol=1e-5)
    else:
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=2e-6)


def test_harness():
    run_layer_test(layers.STFTSpectrogram, {"mode": "magnitude", "frame_length": 8,
                                            "frame_step": 4},
                   input_shape=(2, 24, 1), expected_output_shape=(2, 5, 5),
                   expected_num_trainable_weights=2)


def test_symbolic_shapes_and_model():
    model = hikeras.Sequential([hikeras.Input((None, 2)),
                                layers.STFTSpectrogram(frame_length=8, frame_step=4,
                                                       padding="same")])
    assert model.predict(SIGNAL, verbose=0).shape == (2, 6, 10)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Received frame_step=9, frame_length=8"):
        layers.STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="Received: mode=power"):
        layers.STFTSpectrogram(mode="power")
    with pytest.raises(ValueError, match="Received fft_length=4, frame_length=8"):
        layers.STFTSpectrogram(frame_length=8, fft_length=4)
    with pytest.raises(TypeError, match="Received: input type=int32"):
        layers.STFTSpectrogram(frame_length=8)(np.ones((1, 16, 1), "int32"))
