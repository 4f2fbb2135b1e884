"""RandomShear against Keras (fixtures/keras_surface): each Keras image is one of the two signs."""

import json
import pathlib

import numpy as np
import pytest

from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["shear"]
IMAGES = np.array(FIXTURE["images"], "float32")


def sheared(layer, shear_x, shear_y):
    """The layer's output with the shear fixed to `(shear_x, shear_y)` for every image."""
    layer._transforms = lambda batch, size: layers.RandomShear._shear_matrix(
        np.tile([[shear_x, shear_y]], (batch, 1)))
    return np.asarray(layer(IMAGES))


@pytest.mark.parametrize("label, kwargs, shear", [
    ("x03_y01", {"x_factor": (0.3, 0.3), "y_factor": (0.1, 0.1)}, (0.3, 0.1)),
    ("constant_nearest", {"x_factor": (0.5, 0.5), "interpolation": "nearest",
                          "fill_mode": "constant", "fill_value": 9.0}, (0.5, 0.0)),
])
def test_matches_keras_up_to_the_random_sign(label, kwargs, shear):
    # Keras flips both shears' sign at random per image; its draws differ from ours.
    plus = sheared(layers.RandomShear(**kwargs), *shear)
    minus = sheared(layers.RandomShear(**kwargs), -shear[0], -shear[1])
    for i, expected in enumerate(np.array(FIXTURE[label])):
        assert min(np.abs(plus[i] - expected).max(), np.abs(minus[i] - expected).max()) < 1e-3


def test_zero_shear_and_inference_leave_images():
    np.testing.assert_allclose(layers.RandomShear()(IMAGES), IMAGES, atol=1e-4)
    np.testing.assert_array_equal(layers.RandomShear(0.5, 0.5)(IMAGES, training=False), IMAGES)


def test_harness():
    run_layer_test(layers.RandomShear, {"x_factor": 0.2, "y_factor": 0.2, "seed": 1},
                   input_shape=(2, 5, 6, 3), expected_output_shape=(2, 5, 6, 3),
                   expected_num_trainable_weights=0)


def test_bad_factor():
    with pytest.raises(ValueError, match="Received: x_factor=1.5"):
        layers.RandomShear(x_factor=1.5)
