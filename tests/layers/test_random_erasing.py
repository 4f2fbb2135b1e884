"""RandomErasing: one filled rectangle per erased image, of the drawn size; harness, errors."""

import numpy as np
import pytest

from hikeras import layers
from tests.helpers.layer_test import run_layer_test


def test_erases_one_rectangle_of_the_fill_value(rng):
    images = rng.uniform(1, 255, (6, 10, 12, 3)).astype("float32")
    out = np.asarray(layers.RandomErasing((1.0, 1.0), scale=(0.2, 0.3), fill_value=0.0,
                                          seed=2)(images))
    for image in out:
        erased = (image == 0.0).all(axis=-1)
        rows, cols = np.nonzero(erased)
        assert erased.any()
        assert erased[rows.min():rows.max() + 1, cols.min():cols.max() + 1].all()
        share_h = (rows.max() - rows.min() + 1) / 10
        share_w = (cols.max() - cols.min() + 1) / 12
        assert np.sqrt(0.2) - 0.2 <= share_h <= np.sqrt(0.3) + 0.2
        assert np.sqrt(0.2) - 0.2 <= share_w <= np.sqrt(0.3) + 0.2
    np.testing.assert_array_equal(out[out != 0.0], images[out != 0.0])


def test_fill_per_channel_noise_probability_and_inference(rng):
    images = rng.uniform(1, 200, (4, 8, 8, 3)).astype("float32")
    out = np.asarray(layers.RandomErasing((1.0, 1.0), fill_value=(255, 0, 0), scale=(0.3, 0.3),
                                          seed=1)(
        images))
    changed = (out != images).any(axis=-1)
    np.testing.assert_array_equal(out[changed], np.tile([255.0, 0.0, 0.0], (changed.sum(), 1)))
    noisy = np.asarray(layers.RandomErasing(seed=3)(images))
    assert noisy.min() >= 0 and noisy.max() <= 255
    np.testing.assert_array_equal(layers.RandomErasing((0.0, 0.0))(images), images)
    np.testing.assert_array_equal(layers.RandomErasing()(images, training=False), images)
    first = layers.RandomErasing(fill_value=0.0, data_format="channels_first", seed=1)(
        images.transpose(0, 3, 1, 2))
    assert np.asarray(first).shape == (4, 3, 8, 8)


def test_harness():
    run_layer_test(layers.RandomErasing, {"seed": 1, "fill_value": 0.0},
                   input_shape=(2, 4, 5, 3), expected_output_shape=(2, 4, 5, 3),
                   expected_num_trainable_weights=0)


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"Received: fill_value=\(1, 2\)"):
        layers.RandomErasing(fill_value=(1, 2))
    with pytest.raises(ValueError, match=r"Received: scale=\(0.2, 1.5\)"):
        layers.RandomErasing(scale=(0.2, 1.5))
