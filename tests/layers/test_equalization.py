"""Equalization against Keras's outputs (fixtures/keras_surface), harness and errors."""

import json
import pathlib

import numpy as np
import pytest

from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["equalization"]
IMAGES = np.array(FIXTURE["images"], "float32")


def test_matches_keras():
    close = np.testing.assert_allclose
    close(layers.Equalization()(IMAGES), FIXTURE["default"], atol=1e-4)
    close(layers.Equalization(bins=64)(IMAGES), FIXTURE["bins_64"], atol=1e-4)
    close(layers.Equalization(value_range=(0, 1))(IMAGES / 255.0), FIXTURE["range_0_1"],
          atol=1e-6)
    close(layers.Equalization(data_format="channels_first")(IMAGES.transpose(0, 3, 1, 2)),
          FIXTURE["channels_first"], atol=1e-4)
    close(layers.Equalization()(np.full((1, 3, 3, 1), 7.0, "float32")), FIXTURE["flat"])


def test_spreads_values_and_passes_through_in_inference():
    out = np.asarray(layers.Equalization()(IMAGES))
    assert out.min() == 0.0 and out.max() == 255.0
    np.testing.assert_array_equal(layers.Equalization()(IMAGES, training=False), IMAGES)


def test_harness():
    run_layer_test(layers.Equalization, {}, input_shape=(2, 4, 5, 3),
                   expected_output_shape=(2, 4, 5, 3), expected_num_trainable_weights=0,
                   check_gradients=False)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Received: bins=0"):
        layers.Equalization(bins=0)
    with pytest.raises(ValueError, match="Received: value_range=3"):
        layers.Equalization(value_range=3)
