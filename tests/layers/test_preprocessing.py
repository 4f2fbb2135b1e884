"""Preprocessing layers: Rescaling and Normalization (with adapt)."""


import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test


@pytest.mark.parametrize("kwargs", [{"scale": 0.5, "offset": 1.0},
                                    {"scale": [1.0, 2.0, 3.0], "offset": [0.0, 1.0, -1.0]}])
def test_rescaling_harness(kwargs):
    run_layer_test(layers.Rescaling, kwargs, input_shape=(2, 4, 3),
                   expected_output_shape=(2, 4, 3), expected_num_trainable_weights=0)


def test_rescaling_values_and_integer_images(rng):
    images = rng.integers(0, 256, size=(2, 3, 3, 3)).astype("uint8")
    out = layers.Rescaling(1 / 255.0)(images)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, images / 255.0, rtol=1e-6)
    per_channel = layers.Rescaling([1.0, 10.0, 100.0], offset=-1.0)(images)
    np.testing.assert_allclose(per_channel, images * np.array([1.0, 10.0, 100.0]) - 1.0,
                               rtol=1e-6)


@pytest.mark.parametrize("kwargs, non_trainable", [
    ({}, 3),
    ({"axis": None, "invert": True}, 3),
    ({"mean": [1.0, 2.0, 3.0], "variance": [4.0, 1.0, 0.25]}, 0),
])
def test_normalization_harness(kwargs, non_trainable):
    run_layer_test(layers.Normalization, kwargs, input_shape=(4, 3),
                   expected_output_shape=(4, 3), expected_num_trainable_weights=0,
                   expected_num_non_trainable_weights=non_trainable)


def test_normalization_with_given_statistics(rng):
    x = rng.normal(size=(5, 3)).astype("float32")
    mean, var = np.array([1.0, 2.0, 3.0]), np.array([4.0, 1.0, 0.25])
    out = layers.Normalization(mean=mean, variance=var)(x)
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(var), rtol=1e-5)
    scalar = layers.Normalization(mean=2.0, variance=9.0)(x)
    np.testing.assert_allclose(scalar, (x - 2.0) / 3.0, rtol=1e-5)


def test_normalization_given_statistics_align_with_a_non_last_axis(rng):
    # As Keras: the given values map onto the kept axes (here the channels of NCHW images).
    x = rng.normal(size=(2, 3, 4, 5)).astype("float32")
    mean, var = np.array([1.0, 2.0, 3.0]), np.array([4.0, 1.0, 0.25])
    out = layers.Normalization(axis=1, mean=mean, variance=var)(x)
    expected = (x - mean[:, None, None]) / np.sqrt(var)[:, None, None]
    np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_adapt_learns_per_feature_statistics_and_count(rng):
    data = rng.normal(loc=[1.0, -5.0, 10.0], scale=[1.0, 2.0, 0.5], size=(200, 3))
    layer = layers.Normalization()
    layer.adapt(data)
    mean, variance, count = layer.get_weights()
    np.testing.assert_allclose(mean, data.mean(axis=0), rtol=1e-6)
    np.testing.assert_allclose(variance, data.var(axis=0), rtol=1e-6)
    assert count == 200
    out = layer(data.astype("float32"))
    np.testing.assert_allclose(out.mean(axis=0), 0, atol=1e-5)
    np.testing.assert_allclose(out.std(axis=0), 1, rtol=1e-4)
    inverse = layers.Normalization(invert=True)
    inverse.adapt(data)
    np.testing.assert_allclose(inverse(out), data, rtol=1e-4, atol=1e-4)


def test_adapt_on_batches_equals_adapt_on_the_whole_array(rng):
    data = rng.normal(loc=3.0, scale=2.0, size=(50, 4, 2))
    whole, batched = layers.Normalization(axis=(1, 2)), layers.Normalization(axis=(1, 2))
    whole.adapt(data)
    batched.adapt(data[i:i + 7] for i in range(0, 50, 7))  # uneven batches
    for a, b in zip(whole.get_weights(), batched.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    assert whole.adapt_mean.shape == (4, 2)


def test_adapt_with_axis_none_gives_scalar_statistics(rng):
    data = rng.normal(size=(10, 3))
    layer = layers.Normalization(axis=None)
    layer.adapt(data)
    assert layer.adapt_mean.shape == ()
    np.testing.assert_allclose(layer.adapt_mean.numpy(), data.mean(), rtol=1e-6)


def test_adapted_statistics_travel_with_the_weights(rng):
    data = rng.normal(loc=2.0, size=(20, 3))
    source = layers.Normalization()
    source.adapt(data)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Normalization()])
    model.set_weights(source.get_weights())
    x = data[:4].astype("float32")
    np.testing.assert_allclose(model.predict(x, verbose=0), source(x), rtol=1e-6)


def test_normalization_errors():
    with pytest.raises(ValueError, match="both `mean` and `variance`"):
        layers.Normalization(mean=1.0)
    with pytest.raises(ValueError, match="cannot be adapted"):
        layers.Normalization(mean=0.0, variance=1.0).adapt(np.zeros((2, 3)))
    layer = layers.Normalization(name="norm")
    layer.adapt(np.ones((4, 3)))
    with pytest.raises(ValueError, match=r"'norm'.*data of shape \(4, 5\)"):
        layer.adapt(np.ones((4, 5)))


