"""RandomElasticTransform: Keras's outputs where it draws nothing (fixtures/keras_augment),
its clipping, probability, seeds, inference, models and pipelines."""

import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = np.load(pathlib.Path(__file__).parents[1] / "fixtures" / "keras_augment"
                  / "augment.npz")
IMAGES = FIXTURE["elastic__input"]  # some values above 255


def test_no_draw_and_inference_leave_images_unclipped_as_keras_does():
    Layer = layers.RandomElasticTransform
    np.testing.assert_array_equal(Layer(factor=0.0)(IMAGES), FIXTURE["elastic_factor_0"])
    np.testing.assert_array_equal(Layer(scale=0.0)(IMAGES), FIXTURE["elastic_scale_0"])
    np.testing.assert_array_equal(Layer()(IMAGES, training=False), FIXTURE["elastic_inference"])
    assert IMAGES.max() > 255


def test_drawn_outputs_are_clipped_even_when_not_distorted():
    layer = layers.RandomElasticTransform(factor=(1, 1), value_range=(0, 255), seed=1)
    t = layer.get_random_transformation(IMAGES)
    t["apply_transform"] = np.array([False, True])
    out = np.asarray(layer.transform_images(IMAGES, t))
    np.testing.assert_array_equal(out[0], np.clip(IMAGES[0], 0, 255))
    assert out.max() <= 255 and not np.allclose(out[1], np.clip(IMAGES[1], 0, 255))


def test_strength_follows_the_image_size_as_in_keras():
    layer = layers.RandomElasticTransform(scale=(0.5, 0.5), seed=2)
    t = layer.get_random_transformation(IMAGES)
    assert t["distortion_factor"] == 0.5 and t["apply_transform"].shape == (2,)
    images = np.random.default_rng(0).uniform(0, 255, (2, 10, 20, 1)).astype("float32")
    t["apply_transform"] = np.array([True, True])
    expected = hikeras.ops.image.elastic_transform(images, alpha=20 * 0.1 * 0.5,
                                                   sigma=10 * 0.05 * 0.5, seed=t["seed"])
    np.testing.assert_allclose(layer.transform_images(images, t), expected, atol=1e-5)


def test_factor_is_the_probability_of_distorting(rng):
    images = rng.uniform(0, 255, (200, 12, 12, 1)).astype("float32")
    changed = lambda out: np.abs(np.asarray(out) - images).reshape(200, -1).max(1) > 1e-3
    assert changed(layers.RandomElasticTransform(factor=(1, 1), seed=1)(images)).all()
    half = changed(layers.RandomElasticTransform(factor=(0.5, 0.5), seed=1)(images)).sum()
    assert 60 < half < 140  # Binomial(200, 1/2)


def test_a_constant_image_stays_constant():
    flat = np.full((2, 9, 9, 3), 42.0, "float32")
    out = layers.RandomElasticTransform(factor=(1, 1), seed=4)(flat)
    np.testing.assert_allclose(out, flat, atol=1e-4)


def test_seed_reproduces_and_calls_differ(rng):
    images = rng.uniform(0, 255, (3, 10, 10, 3)).astype("float32")
    first = np.asarray(layers.RandomElasticTransform(seed=5)(images))
    np.testing.assert_array_equal(layers.RandomElasticTransform(seed=5)(images), first)
    layer = layers.RandomElasticTransform(seed=5)
    layer(images)
    assert not np.allclose(layer(images), first)


def test_channels_first_single_image_model_and_pipeline(rng):
    images = rng.uniform(0, 255, (3, 10, 10, 3)).astype("float32")
    last = np.asarray(layers.RandomElasticTransform(seed=6)(images))
    first = layers.RandomElasticTransform(seed=6, data_format="channels_first")(
        images.transpose(0, 3, 1, 2))
    np.testing.assert_allclose(np.asarray(first).transpose(0, 2, 3, 1), last, atol=1e-4)
    assert np.asarray(layers.RandomElasticTransform(seed=1)(images[0])).shape == (10, 10, 3)
    inputs = hikeras.Input((None, None, 3))
    model = hikeras.Model(inputs, layers.RandomElasticTransform(seed=1)(inputs))
    np.testing.assert_array_equal(model.predict(images, verbose=0), images)
    dataset = hikeras.data.Dataset.from_tensor_slices(images).batch(3).map(
        layers.RandomElasticTransform(factor=(1, 1), seed=1))
    (batch,) = list(dataset)
    assert batch.shape == images.shape and not np.allclose(batch, images)


def test_harness():
    run_layer_test(layers.RandomElasticTransform,
                   {"scale": 0.5, "seed": 1, "value_range": (-100, 100)},
                   input_shape=(2, 8, 8, 3), expected_output_shape=(2, 8, 8, 3),
                   expected_num_trainable_weights=0)


def test_bad_arguments():
    Layer = layers.RandomElasticTransform
    with pytest.raises(ValueError, match="Received: scale=1.5"):
        Layer(scale=1.5)
    with pytest.raises(ValueError, match="Received: factor=-2"):
        Layer(factor=-2)
    with pytest.raises(ValueError, match="Received: fill_mode='edge'"):
        Layer(fill_mode="edge")
    with pytest.raises(ValueError, match="Received: interpolation='cubic'"):
        Layer(interpolation="cubic")
    with pytest.raises(ValueError, match="Received: value_range=5"):
        Layer(value_range=5)
