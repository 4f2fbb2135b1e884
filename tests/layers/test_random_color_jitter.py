"""RandomColorJitter: the same as its steps applied in order; harness, config, inference."""

import numpy as np

from hikeras import layers
from tests.helpers.layer_test import run_layer_test


def pixels(rng):
    return rng.uniform(0, 255, (2, 4, 5, 3)).astype("float32")


def test_equals_its_steps_in_order(rng):
    x = pixels(rng)
    jitter = layers.RandomColorJitter(brightness_factor=0.2, hue_factor=0.3, seed=4)
    # The same layers with the same seeds draw the same amounts.
    expected = layers.RandomHue(0.3, seed=4)(layers.RandomBrightness(0.2, seed=4)(x))
    np.testing.assert_allclose(jitter(x), expected, rtol=1e-5, atol=1e-3)
    assert [type(step).__name__ for step in jitter.steps] == ["RandomBrightness", "RandomHue"]


def test_inference_and_no_steps(rng):
    x = pixels(rng)
    full = layers.RandomColorJitter(brightness_factor=0.3, contrast_factor=0.3,
                                    saturation_factor=0.5, hue_factor=0.3, seed=2)
    np.testing.assert_array_equal(full(x, training=False), x)
    assert not np.allclose(full(x), x)
    np.testing.assert_array_equal(layers.RandomColorJitter()(x), x)


def test_harness_and_config():
    kwargs = {"brightness_factor": 0.2, "contrast_factor": 0.2, "saturation_factor": 0.3,
              "hue_factor": 0.1, "seed": 1}
    run_layer_test(layers.RandomColorJitter, kwargs, input_shape=(2, 4, 5, 3),
                   expected_output_shape=(2, 4, 5, 3), expected_num_trainable_weights=0)
    again = layers.RandomColorJitter.from_config(layers.RandomColorJitter(**kwargs).get_config())
    assert len(again.steps) == 4
