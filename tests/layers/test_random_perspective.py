"""RandomPerspective: Keras's warps for given transformations (fixtures/keras_augment),
its draws' statistics, seeds, inference, models and pipelines."""

import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = np.load(pathlib.Path(__file__).parents[1] / "fixtures" / "keras_augment"
                  / "augment.npz")
IMAGES = FIXTURE["perspective__input"]
TRANSFORMATION = {"apply_perspective": FIXTURE["perspective__apply"],
                  "start_points": FIXTURE["perspective__start_points"],
                  "end_points": FIXTURE["perspective__end_points"]}


@pytest.mark.parametrize("key, kwargs", [
    ("perspective_bilinear", {}),
    ("perspective_nearest_fill", {"interpolation": "nearest", "fill_value": 7.0}),
])
def test_transform_images_matches_keras(key, kwargs):
    out = layers.RandomPerspective(**kwargs).transform_images(IMAGES, TRANSFORMATION)
    np.testing.assert_allclose(out, FIXTURE[key], atol=2e-3)


def test_channels_first_matches_keras():
    layer = layers.RandomPerspective(data_format="channels_first")
    out = layer.transform_images(IMAGES.transpose(0, 3, 1, 2), TRANSFORMATION)
    np.testing.assert_allclose(out, FIXTURE["perspective_channels_first"], atol=2e-3)


def test_factor_zero_and_inference_leave_images_as_keras_does():
    np.testing.assert_array_equal(layers.RandomPerspective(factor=0.0)(IMAGES),
                                  FIXTURE["perspective_factor_0"])
    np.testing.assert_array_equal(layers.RandomPerspective()(IMAGES, training=False),
                                  FIXTURE["perspective_inference"])
    assert layers.RandomPerspective().get_random_transformation(IMAGES, training=False) is None


def test_drawn_corners_move_within_scale_and_the_top_left_stays():
    layer = layers.RandomPerspective(scale=0.4, seed=3)
    t = layer.get_random_transformation(np.zeros((50, 9, 11, 1), "float32"))
    start, end = t["start_points"], t["end_points"]
    np.testing.assert_array_equal(start[0], [[0, 0], [10, 0], [0, 8], [10, 8]])
    np.testing.assert_array_equal(end[:, 0], 0.0)
    ratio = (end[:, 1:] - start[:, 1:]) / np.where(start[:, 1:] == 0, 1, start[:, 1:])
    assert np.all(np.abs(ratio) <= 0.2 + 1e-6) and np.abs(ratio).max() > 0.15
    # The top-left output pixel reads the top-left input pixel.
    images = np.random.default_rng(0).uniform(0, 255, (50, 9, 11, 1)).astype("float32")
    out = np.asarray(layer.transform_images(images, t))
    np.testing.assert_allclose(out[:, 0, 0], images[:, 0, 0], atol=1e-3)


def test_factor_is_the_probability_of_warping(rng):
    images = rng.uniform(0, 255, (200, 6, 6, 1)).astype("float32")
    changed = lambda out: np.abs(np.asarray(out) - images).reshape(200, -1).max(1) > 1e-3
    assert changed(layers.RandomPerspective(factor=(1, 1), seed=1)(images)).all()
    half = changed(layers.RandomPerspective(factor=(0.5, 0.5), seed=1)(images)).sum()
    assert 60 < half < 140  # Binomial(200, 1/2)


def test_seed_reproduces_and_calls_differ(rng):
    images = rng.uniform(0, 255, (4, 8, 8, 3)).astype("float32")
    first = np.asarray(layers.RandomPerspective(seed=5)(images))
    np.testing.assert_array_equal(layers.RandomPerspective(seed=5)(images), first)
    layer = layers.RandomPerspective(seed=5)
    layer(images)
    assert not np.allclose(layer(images), first)


def test_single_image_and_inside_a_model_and_pipeline(rng):
    images = rng.uniform(0, 255, (4, 8, 8, 3)).astype("float32")
    assert np.asarray(layers.RandomPerspective(seed=1)(images[0])).shape == (8, 8, 3)
    inputs = hikeras.Input((None, None, 3))
    model = hikeras.Model(inputs, layers.RandomPerspective(seed=1)(inputs))
    np.testing.assert_array_equal(model.predict(images, verbose=0), images)
    dataset = hikeras.data.Dataset.from_tensor_slices(images).batch(4).map(
        layers.RandomPerspective(factor=(1, 1), seed=1))
    (batch,) = list(dataset)
    assert batch.shape == images.shape and not np.allclose(batch, images)


def test_harness():
    run_layer_test(layers.RandomPerspective, {"scale": 0.3, "seed": 1},
                   input_shape=(2, 5, 6, 3), expected_output_shape=(2, 5, 6, 3),
                   expected_num_trainable_weights=0)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Received: scale=1.5"):
        layers.RandomPerspective(scale=1.5)
    with pytest.raises(ValueError, match="Received: factor=2"):
        layers.RandomPerspective(factor=2)
    with pytest.raises(ValueError, match="Received: interpolation='cubic'"):
        layers.RandomPerspective(interpolation="cubic")
