"""Pooling layers: the layer harness, values against loop references, masks, errors."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.backend.test_ops_pooling import pool_reference
from tests.helpers.layer_test import run_layer_test


def data(rng, *shape):
    return rng.standard_normal(shape).astype("float32")


HARNESS = [
    (layers.MaxPooling1D, {}, (2, 7, 3), (2, 3, 3)),
    (layers.MaxPooling2D, {"pool_size": 3, "strides": 2, "padding": "same"}, (2, 5, 6, 2),
     (2, 3, 3, 2)),
    (layers.MaxPooling2D, {"data_format": "channels_first"}, (2, 3, 4, 6), (2, 3, 2, 3)),
    (layers.MaxPooling3D, {"pool_size": (1, 2, 2)}, (1, 2, 4, 4, 2), (1, 2, 2, 2, 2)),
    (layers.AveragePooling1D, {"pool_size": 3, "strides": 1, "padding": "same"}, (2, 5, 2),
     (2, 5, 2)),
    (layers.AveragePooling2D, {"padding": "same"}, (2, 5, 5, 2), (2, 3, 3, 2)),
    (layers.AveragePooling3D, {"data_format": "channels_first"}, (1, 2, 4, 4, 4),
     (1, 2, 2, 2, 2)),
    (layers.GlobalMaxPooling1D, {}, (2, 5, 3), (2, 3)),
    (layers.GlobalMaxPooling2D, {"keepdims": True}, (2, 3, 4, 3), (2, 1, 1, 3)),
    (layers.GlobalMaxPooling3D, {}, (2, 2, 3, 2, 3), (2, 3)),
    (layers.GlobalAveragePooling1D, {"data_format": "channels_first"}, (2, 3, 5), (2, 3)),
    (layers.GlobalAveragePooling2D, {}, (2, 3, 4, 3), (2, 3)),
    (layers.GlobalAveragePooling3D, {"keepdims": True, "data_format": "channels_first"},
     (2, 3, 2, 2, 2), (2, 3, 1, 1, 1)),
]


@pytest.mark.parametrize("cls, kwargs, input_shape, output_shape", HARNESS,
                         ids=[f"{c.__name__}-{i}" for i, (c, *_) in enumerate(HARNESS)])
def test_layer_harness(cls, kwargs, input_shape, output_shape):
    run_layer_test(cls, kwargs, input_shape=input_shape, expected_output_shape=output_shape,
                   expected_num_trainable_weights=0, expected_num_non_trainable_weights=0)


@pytest.mark.parametrize("cls, reduce, kwargs, input_shape", [
    (layers.MaxPooling1D, np.max, {"pool_size": 3, "strides": 2}, (2, 9, 2)),
    (layers.MaxPooling2D, np.max, {"pool_size": (3, 2), "padding": "same"}, (2, 7, 5, 3)),
    (layers.MaxPooling3D, np.max, {"strides": 1}, (1, 3, 4, 3, 2)),
    (layers.AveragePooling1D, np.mean, {"pool_size": 4, "padding": "same"}, (2, 9, 2)),
    (layers.AveragePooling2D, np.mean, {"pool_size": 3, "strides": (1, 2), "padding": "same"},
     (2, 5, 6, 2)),
    (layers.AveragePooling3D, np.mean, {"pool_size": (2, 1, 3)}, (1, 4, 3, 6, 2)),
])
def test_values_match_loop_reference(cls, reduce, kwargs, input_shape, rng):
    layer = cls(**kwargs)
    x = data(rng, *input_shape)
    expected = pool_reference(reduce)(x.astype("float64"), layer.pool_size, layer.strides,
                                      layer.padding)
    np.testing.assert_allclose(layer(x), expected, rtol=1e-6, atol=1e-6)


def test_channels_first_is_channels_last_transposed(rng):
    x = data(rng, 2, 3, 5, 6)
    first = layers.AveragePooling2D(3, strides=2, padding="same", data_format="channels_first")
    last = layers.AveragePooling2D(3, strides=2, padding="same")
    np.testing.assert_allclose(first(x), np.transpose(last(np.transpose(x, (0, 2, 3, 1))),
                                                      (0, 3, 1, 2)), rtol=1e-6)


def test_global_pooling_values(rng):
    x = data(rng, 2, 3, 4, 5)
    np.testing.assert_allclose(layers.GlobalAveragePooling2D()(x), x.mean(axis=(1, 2)),
                               rtol=1e-6)
    np.testing.assert_allclose(layers.GlobalMaxPooling2D(data_format="channels_first")(x),
                               x.max(axis=(2, 3)))
    np.testing.assert_allclose(layers.GlobalMaxPooling1D(keepdims=True)(x[:, 0]),
                               x[:, 0].max(axis=1, keepdims=True))


def test_global_average_pooling_1d_averages_unmasked_steps_only():
    x = np.array([[[1.0, 10.0], [3.0, 20.0], [100.0, 30.0]],
                  [[2.0, 0.0], [4.0, 0.0], [6.0, 0.0]]], "float32")
    mask = np.array([[True, True, False], [True, True, True]])
    out = layers.GlobalAveragePooling1D()(x, mask=mask)
    np.testing.assert_allclose(out, [[2.0, 15.0], [4.0, 0.0]])
    first = layers.GlobalAveragePooling1D(data_format="channels_first", keepdims=True)
    np.testing.assert_allclose(first(np.transpose(x, (0, 2, 1)), mask=mask),
                               [[[2.0], [15.0]], [[4.0], [0.0]]])
    assert first.compute_mask(x, mask) is None


def test_masked_average_gradient_skips_masked_steps(rng):
    x = data(rng, 1, 3, 2)
    mask = np.array([[True, False, True]])
    layer = layers.GlobalAveragePooling1D()
    with hikeras.GradientTape() as tape:
        tape.watch(x)
        out = layer(x, mask=mask)
    (g,) = tape.gradient(out, [x])
    np.testing.assert_allclose(g[0], [[0.5, 0.5], [0.0, 0.0], [0.5, 0.5]])


def test_config_and_aliases():
    layer = layers.MaxPooling2D(3, padding="SAME", name="pool")
    config = layer.get_config()
    assert config["pool_size"] == (3, 3) and config["strides"] == (3, 3)
    assert config["padding"] == "same" and config["data_format"] == "channels_last"
    assert layers.MaxPool2D is layers.MaxPooling2D and layers.AvgPool1D is layers.AveragePooling1D
    assert layers.GlobalAvgPool2D is layers.GlobalAveragePooling2D
    restored = layers.deserialize({"class_name": "GlobalMaxPool1D",
                                   "config": {"keepdims": True}})
    assert isinstance(restored, layers.GlobalMaxPooling1D) and restored.keepdims


def test_pool_larger_than_valid_input_names_the_layer(rng):
    with pytest.raises(ValueError, match=r"Layer 'p' \(MaxPooling2D\).*larger than the input"):
        layers.MaxPooling2D(3, name="p")(data(rng, 1, 2, 5, 1))
    assert layers.MaxPooling2D(3, padding="same")(data(rng, 1, 2, 5, 1)).shape == (1, 1, 2, 1)


@pytest.mark.parametrize("kwargs, message", [
    ({"padding": "causal"}, "padding"),
    ({"padding": 1}, "padding"),
    ({"data_format": "NHWC"}, "data_format"),
    ({"pool_size": (2, 2, 2)}, "pool_size"),
    ({"strides": 0}, "strides"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        layers.AveragePooling2D(**kwargs)


def test_wrong_rank_names_layer_and_shape(rng):
    with pytest.raises(ValueError, match=r"'p'.*rank 4.*\(None, 4, 4\)"):
        layers.MaxPooling2D(name="p")(data(rng, 1, 4, 4))
