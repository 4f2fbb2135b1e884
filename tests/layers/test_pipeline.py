"""Pipeline: layers in order, training reaching the augmentations, config and saving."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import fresh, run_layer_test


def test_harness():
    run_layer_test(layers.Pipeline, {"layers": fresh(lambda: [layers.Rescaling(2.0),
                                                              layers.Dense(3)])},
                   input_shape=(2, 4), expected_output_shape=(2, 3),
                   expected_num_trainable_weights=2, check_saving=True)


def test_order_training_and_dicts():
    pipeline = layers.Pipeline([layers.Rescaling(2.0), layers.Rescaling(1.0, offset=1.0)])
    np.testing.assert_array_equal(pipeline(np.array([[1.0, 3.0]])), [[3.0, 7.0]])
    flips = layers.Pipeline([layers.RandomFlip("horizontal", seed=1)])
    image = np.arange(4, dtype="float32").reshape(1, 1, 4, 1)
    np.testing.assert_array_equal(flips(image, training=False), image)
    assert any(not np.array_equal(flips(image), image) for _ in range(10))
    mixed = layers.Pipeline([layers.MixUp(alpha=1.0, seed=1)])(
        {"images": np.ones((4, 2, 2, 1), "float32"), "labels": np.eye(4)})
    assert set(mixed) == {"images", "labels"}


def test_config_round_trip_and_model():
    pipeline = layers.Pipeline([layers.Rescaling(0.5), layers.RandomFlip(seed=2)], name="aug")
    again = layers.Pipeline.from_config(pipeline.get_config())
    assert again.name == "aug"
    assert [type(l).__name__ for l in again.layers] == ["Rescaling", "RandomFlip"]
    model = hikeras.Sequential([hikeras.Input((4, 4, 1)), pipeline, layers.Flatten()])
    assert model.output_shape == (None, 16)


def test_rejects_what_is_not_a_list_of_layers():
    with pytest.raises(ValueError, match="Received: layers="):
        layers.Pipeline([layers.Dense(2), "relu"])
