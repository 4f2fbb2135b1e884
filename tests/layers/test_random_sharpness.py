"""RandomSharpness against Keras at fixed factors (fixtures/keras_surface), harness, errors."""

import json
import pathlib

import numpy as np
import pytest

from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["sharpness"]
IMAGES = np.array(FIXTURE["images"], "float32")


@pytest.mark.parametrize("factor", [0.0, 0.3, 0.9])
def test_matches_keras(factor):
    out = layers.RandomSharpness((factor, factor))(IMAGES)
    np.testing.assert_allclose(out, FIXTURE[f"factor_{factor}"], rtol=1e-5, atol=1e-4)


def test_channels_first_matches_keras_and_half_is_identity():
    out = layers.RandomSharpness((0.2, 0.2), data_format="channels_first")(
        IMAGES.transpose(0, 3, 1, 2))
    np.testing.assert_allclose(out, FIXTURE["channels_first_0.2"], rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(layers.RandomSharpness((0.5, 0.5))(IMAGES), IMAGES, atol=1e-4)
    np.testing.assert_array_equal(layers.RandomSharpness(0.9)(IMAGES, training=False), IMAGES)


def test_harness():
    run_layer_test(layers.RandomSharpness, {"factor": 0.5, "seed": 1,
                                            "value_range": (-100, 100)},
                   input_shape=(2, 4, 5, 3), expected_output_shape=(2, 4, 5, 3),
                   expected_num_trainable_weights=0)


def test_bad_factor():
    with pytest.raises(ValueError, match=r"Received: factor=\(0.2, 1.5\)"):
        layers.RandomSharpness((0.2, 1.5))
