"""Convolution layers: the layer harness, values against loop references, errors."""

import json

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.backend.test_ops_conv import conv_reference, conv_transpose_reference
from tests.helpers.layer_test import run_layer_test


def data(rng, *shape):
    return rng.standard_normal(shape).astype("float32")


HARNESS = [
    (layers.Conv1D, {"filters": 3, "kernel_size": 3}, (2, 7, 2), (2, 5, 3)),
    (layers.Conv1D, {"filters": 2, "kernel_size": 2, "padding": "causal", "dilation_rate": 2,
                     "activation": "relu"}, (2, 6, 3), (2, 6, 2)),
    (layers.Conv1D, {"filters": 4, "kernel_size": 3, "strides": 2, "padding": "same",
                     "groups": 2, "data_format": "channels_first"}, (2, 4, 7), (2, 4, 4)),
    (layers.Conv2D, {"filters": 3, "kernel_size": 3, "activation": "tanh"}, (2, 5, 6, 2),
     (2, 3, 4, 3)),
    (layers.Conv2D, {"filters": 2, "kernel_size": (2, 3), "strides": (2, 1), "padding": "same",
                     "use_bias": False}, (2, 5, 4, 3), (2, 3, 4, 2)),
    (layers.Conv2D, {"filters": 2, "kernel_size": 2, "dilation_rate": 2,
                     "activation": "softplus", "data_format": "channels_first"},
     (2, 3, 5, 5), (2, 2, 3, 3)),
    (layers.Conv3D, {"filters": 2, "kernel_size": 2, "padding": "same"}, (1, 3, 4, 3, 2),
     (1, 3, 4, 3, 2)),
    (layers.Conv1DTranspose, {"filters": 2, "kernel_size": 3, "strides": 2}, (2, 4, 3),
     (2, 9, 2)),
    (layers.Conv2DTranspose, {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same",
                              "output_padding": 1, "activation": "sigmoid"}, (2, 3, 3, 2),
     (2, 6, 6, 2)),
    (layers.Conv2DTranspose, {"filters": 3, "kernel_size": 2, "strides": (1, 2),
                              "data_format": "channels_first"}, (1, 2, 3, 3), (1, 3, 4, 6)),
    (layers.Conv3DTranspose, {"filters": 1, "kernel_size": 2, "strides": 2}, (1, 2, 2, 3, 2),
     (1, 4, 4, 6, 1)),
    (layers.DepthwiseConv1D, {"kernel_size": 3, "depth_multiplier": 2}, (2, 6, 3), (2, 4, 6)),
    (layers.DepthwiseConv2D, {"kernel_size": 2, "padding": "same", "activation": "relu"},
     (2, 4, 5, 3), (2, 4, 5, 3)),
    (layers.DepthwiseConv2D, {"kernel_size": 3, "depth_multiplier": 2,
                              "data_format": "channels_first"}, (1, 2, 5, 5), (1, 4, 3, 3)),
    (layers.SeparableConv1D, {"filters": 3, "kernel_size": 2, "strides": 2}, (2, 7, 2),
     (2, 3, 3)),
    (layers.SeparableConv2D, {"filters": 4, "kernel_size": 3, "depth_multiplier": 2,
                              "padding": "same", "activation": "relu"}, (2, 4, 4, 3),
     (2, 4, 4, 4)),
]


@pytest.mark.parametrize("cls, kwargs, input_shape, output_shape", HARNESS,
                         ids=[f"{c.__name__}-{i}" for i, (c, *_) in enumerate(HARNESS)])
def test_layer_harness(cls, kwargs, input_shape, output_shape):
    separable = cls in (layers.SeparableConv1D, layers.SeparableConv2D)
    weights = (2 if separable else 1) + (1 if kwargs.get("use_bias", True) else 0)
    run_layer_test(cls, kwargs, input_shape=input_shape, expected_output_shape=output_shape,
                   expected_num_trainable_weights=weights, expected_num_non_trainable_weights=0)


@pytest.mark.parametrize("cls, kwargs, input_shape", [
    (layers.Conv1D, {"filters": 3, "kernel_size": 3, "padding": "causal", "dilation_rate": 2},
     (2, 8, 2)),
    (layers.Conv2D, {"filters": 4, "kernel_size": (3, 2), "strides": (2, 1), "padding": "same",
                     "activation": "relu"}, (2, 7, 6, 3)),
    (layers.Conv2D, {"filters": 4, "kernel_size": 3, "groups": 2, "dilation_rate": (1, 2)},
     (2, 6, 7, 4)),
    (layers.Conv3D, {"filters": 2, "kernel_size": (2, 2, 3), "strides": 2}, (1, 5, 4, 6, 2)),
])
def test_conv_values_match_loop_reference(cls, kwargs, input_shape, rng):
    layer = cls(**kwargs)
    x = data(rng, *input_shape)
    out = layer(x)
    kernel, bias = [w.astype("float64") for w in layer.get_weights()]
    expected = conv_reference(x.astype("float64"), kernel, bias, strides=layer.strides,
                              padding=layer.padding, dilation_rate=layer.dilation_rate,
                              activation=kwargs.get("activation", "linear"))
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_channels_first_is_channels_last_transposed(rng):
    x = data(rng, 2, 3, 6, 5)  # (batch, channels, height, width)
    first = layers.Conv2D(4, 3, strides=2, padding="same", data_format="channels_first")
    last = layers.Conv2D(4, 3, strides=2, padding="same")
    out_first = first(x)
    last(np.transpose(x, (0, 2, 3, 1)))
    last.set_weights(first.get_weights())  # same HWIO kernel in both layouts, as in Keras
    np.testing.assert_allclose(out_first, np.transpose(last(np.transpose(x, (0, 2, 3, 1))),
                                                       (0, 3, 1, 2)), rtol=1e-5, atol=1e-6)
    assert first.kernel.shape == (3, 3, 3, 4)


@pytest.mark.parametrize("kwargs, input_shape", [
    ({"filters": 2, "kernel_size": 3, "strides": 2}, (2, 3, 4, 3)),
    ({"filters": 3, "kernel_size": (3, 2), "strides": (2, 3), "padding": "same",
      "output_padding": (1, 2)}, (1, 3, 2, 2)),
    ({"filters": 2, "kernel_size": 3, "dilation_rate": 2, "padding": "same"}, (1, 4, 4, 2)),
])
def test_conv_transpose_values_match_scatter_reference(kwargs, input_shape, rng):
    layer = layers.Conv2DTranspose(**kwargs)
    x = data(rng, *input_shape)
    out = layer(x)
    kernel, bias = [w.astype("float64") for w in layer.get_weights()]
    expected = conv_transpose_reference(
        x.astype("float64"), kernel, bias, strides=layer.strides, padding=layer.padding,
        output_padding=layer.output_padding, dilation_rate=layer.dilation_rate)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    assert kernel.shape == layer.kernel_size + (kwargs["filters"], input_shape[-1])


def depthwise_reference(x, kernel, strides, padding):
    """out[..., c * multiplier + m] = sum over taps of x[..., c] * kernel[tap, c, m]."""
    multiplier = kernel.shape[-1]
    out = None
    for c in range(x.shape[-1]):
        for m in range(multiplier):
            single = conv_reference(x[..., c:c + 1], kernel[..., c:c + 1, m:m + 1],
                                    strides=strides, padding=padding)
            out = single if out is None else np.concatenate([out, single], axis=-1)
    return out


def test_depthwise_values_match_per_channel_reference(rng):
    layer = layers.DepthwiseConv2D(3, strides=2, padding="same", depth_multiplier=3)
    x = data(rng, 2, 5, 6, 2)
    out = layer(x)
    kernel, bias = [w.astype("float64") for w in layer.get_weights()]
    assert [w.path for w in layer.weights] == ["depthwise_conv2d/kernel",
                                               "depthwise_conv2d/bias"]
    assert kernel.shape == (3, 3, 2, 3) and bias.shape == (6,)
    expected = depthwise_reference(x.astype("float64"), kernel, (2, 2), "same") + bias
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_separable_is_depthwise_then_pointwise(rng):
    layer = layers.SeparableConv2D(4, 2, depth_multiplier=2, activation="relu")
    x = data(rng, 2, 4, 5, 3)
    out = layer(x)
    depthwise, pointwise, bias = [w.astype("float64") for w in layer.get_weights()]
    assert [w.name for w in layer.weights] == ["depthwise_kernel", "pointwise_kernel", "bias"]
    assert pointwise.shape == (1, 1, 6, 4)
    mid = depthwise_reference(x.astype("float64"), depthwise, (1, 1), "valid")
    expected = np.maximum(mid @ pointwise[0, 0] + bias, 0)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_default_weights_follow_keras(rng):
    layer = layers.Conv2D(5, 3)
    layer(data(rng, 1, 4, 4, 2))
    assert [w.path for w in layer.weights] == ["conv2d/kernel", "conv2d/bias"]
    limit = np.sqrt(6 / (3 * 3 * 2 + 3 * 3 * 5))  # glorot_uniform with receptive-field fans
    assert np.abs(layer.kernel.numpy()).max() <= limit
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(5))


def test_cnn_trains_in_a_sequential_model(rng):
    model = hikeras.Sequential([
        hikeras.Input((8, 8, 1)),
        layers.Conv2D(4, 3, activation="relu", padding="same"),
        layers.MaxPooling2D(),
        layers.Conv2D(4, 3, activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dense(2),
    ])
    model.compile(optimizer="adam", loss=hikeras.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    x = data(rng, 32, 8, 8, 1)
    y = (x.mean(axis=(1, 2, 3)) > 0).astype("int32")
    history = model.fit(x, y, batch_size=8, epochs=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_config_round_trip_and_keras_aliases():
    layer = layers.Conv2DTranspose(3, (2, 3), strides=2, output_padding=1, name="up")
    config = json.loads(json.dumps(layer.get_config()))  # tuples become lists, as in files
    clone = layers.Conv2DTranspose.from_config(config)
    assert clone.get_config() == layer.get_config()
    assert layers.Convolution2D is layers.Conv2D
    restored = layers.deserialize({"class_name": "Convolution1D",
                                   "config": {"filters": 2, "kernel_size": 3}})
    assert isinstance(restored, layers.Conv1D) and restored.kernel_size == (3,)


def test_keras2_configs_with_groups_one_load(rng):
    """Keras 2 depthwise, separable and transposed convolutions serialise `groups: 1`."""
    depthwise = layers.deserialize({"class_name": "DepthwiseConv2D", "config": {
        "kernel_size": [3, 3], "depth_multiplier": 2, "groups": 1,
        "batch_input_shape": [None, 5, 5, 3]}})
    assert depthwise(data(rng, 1, 5, 5, 3)).shape == (1, 3, 3, 6)
    transpose = layers.deserialize({"class_name": "Conv2DTranspose", "config": {
        "filters": 2, "kernel_size": [2, 2], "strides": [2, 2], "groups": 1}})
    assert transpose(data(rng, 1, 3, 3, 1)).shape == (1, 6, 6, 2)
    with pytest.raises(ValueError, match="does not support groups. Received: groups=2"):
        layers.SeparableConv2D(4, 3, groups=2)


@pytest.mark.parametrize("cls, kwargs, message", [
    (layers.Conv2D, {"filters": 0, "kernel_size": 3}, "filters"),
    (layers.Conv2D, {"filters": 2, "kernel_size": (3, 3, 3)}, "kernel_size"),
    (layers.Conv2D, {"filters": 2, "kernel_size": 3, "padding": "causal"}, "padding"),
    (layers.Conv1D, {"filters": 2, "kernel_size": 3, "padding": "full"}, "padding"),
    (layers.Conv2D, {"filters": 2, "kernel_size": 3, "data_format": "NHWC"}, "data_format"),
    (layers.Conv2D, {"filters": 3, "kernel_size": 3, "groups": 2}, "groups"),
    (layers.Conv2D, {"filters": 2, "kernel_size": 3, "strides": 2, "dilation_rate": 2},
     "dilation_rate"),
    (layers.Conv2DTranspose, {"filters": 2, "kernel_size": 3, "strides": 2,
                              "output_padding": 2}, "output_padding"),
    (layers.DepthwiseConv2D, {"kernel_size": 3, "depth_multiplier": 0}, "depth_multiplier"),
])
def test_bad_arguments(cls, kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        cls(**kwargs)
    assert "Received" in str(info.value)


def test_wrong_rank_names_layer_and_shape(rng):
    layer = layers.Conv2D(2, 3, name="features")
    with pytest.raises(ValueError, match=r"'features'.*rank 4.*\(None, 8, 8\)"):
        layer(data(rng, 1, 8, 8))
    assert not layer.built


def test_wrong_channel_count_names_layer_and_shapes(rng):
    model = hikeras.Sequential([hikeras.Input((6, 6, 3)), layers.Conv2D(2, 3, name="c")])
    with pytest.raises(ValueError, match=r"'c'.*\(None, None, None, 3\).*\(None, 6, 6, 1\)"):
        model(data(rng, 1, 6, 6, 1))


def test_groups_must_divide_the_input_channels(rng):
    with pytest.raises(ValueError, match=r"'g'.*divisible by groups=2.*\(None, 5, 5, 3\)"):
        layers.Conv2D(4, 3, groups=2, name="g")(data(rng, 1, 5, 5, 3))


def test_kernel_larger_than_valid_input_names_the_layer():
    with pytest.raises(ValueError, match=r"Layer 'big' \(Conv2D\).*does not fit"):
        layers.Conv2D(2, 5, name="big")(hikeras.Input((4, 8, 1)))


def test_every_layer_is_exported_and_registered():
    names = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
             "Conv3DTranspose", "DepthwiseConv1D", "DepthwiseConv2D", "SeparableConv1D",
             "SeparableConv2D"]
    for name in names:
        cls = getattr(layers, name)
        kwargs = {"kernel_size": 1} if "Depthwise" in name else {"filters": 1,
                                                                 "kernel_size": 1}
        restored = layers.deserialize({"class_name": name, "config": kwargs})
        assert type(restored) is cls
