"""RandomGaussianBlur against Keras when the blur always applies (fixtures), harness, errors."""

import json
import pathlib

import numpy as np
import pytest

from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["gaussian_blur"]
IMAGES = np.array(FIXTURE["images"], "float32")


def test_matches_keras():
    close = np.testing.assert_allclose
    close(layers.RandomGaussianBlur((1.0, 1.0), 3, (1.0, 1.0))(IMAGES), FIXTURE["k3_s1"],
          rtol=1e-5, atol=1e-3)
    close(layers.RandomGaussianBlur((1.0, 1.0), 5, (0.8, 0.8))(IMAGES), FIXTURE["k5_s08"],
          rtol=1e-5, atol=1e-3)
    close(layers.RandomGaussianBlur((1.0, 1.0), 3, (0.5, 0.5), data_format="channels_first")(
        IMAGES.transpose(0, 3, 1, 2)), FIXTURE["channels_first_k3_s05"], rtol=1e-5, atol=1e-3)


def test_probability_zero_and_inference_leave_images():
    np.testing.assert_array_equal(layers.RandomGaussianBlur((0.0, 0.0))(IMAGES), IMAGES)
    np.testing.assert_array_equal(layers.RandomGaussianBlur()(IMAGES, training=False), IMAGES)


def test_harness():
    run_layer_test(layers.RandomGaussianBlur, {"seed": 1, "value_range": (-100, 100)},
                   input_shape=(2, 4, 5, 3), expected_output_shape=(2, 4, 5, 3),
                   expected_num_trainable_weights=0)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Received: kernel_size=4"):
        layers.RandomGaussianBlur(kernel_size=4)
    with pytest.raises(ValueError, match="Received: sigma=2.0"):
        layers.RandomGaussianBlur(sigma=2.0)
