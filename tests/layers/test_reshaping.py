"""Reshaping layers: Flatten, Reshape, Permute, RepeatVector, UpSampling, ZeroPadding,
Cropping (1D-3D)."""


import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test


@pytest.mark.parametrize("layer_cls, kwargs, shape, expected", [
    (layers.Flatten, {}, (2, 3, 4), (2, 12)),
    (layers.Flatten, {"data_format": "channels_first"}, (2, 3, 4, 2), (2, 24)),
    (layers.Reshape, {"target_shape": (4, 3)}, (2, 3, 4), (2, 4, 3)),
    (layers.Reshape, {"target_shape": (-1, 2)}, (2, 3, 4), (2, 6, 2)),
    (layers.Permute, {"dims": (2, 1)}, (2, 3, 4), (2, 4, 3)),
    (layers.Permute, {"dims": (3, 1, 2)}, (2, 3, 4, 5), (2, 5, 3, 4)),
    (layers.RepeatVector, {"n": 3}, (2, 4), (2, 3, 4)),
    (layers.UpSampling1D, {}, (2, 3, 4), (2, 6, 4)),
    (layers.UpSampling1D, {"size": 3}, (2, 2, 1), (2, 6, 1)),
    (layers.UpSampling2D, {"size": (2, 3)}, (2, 3, 2, 2), (2, 6, 6, 2)),
    (layers.UpSampling2D, {"interpolation": "bilinear"}, (2, 3, 4, 2), (2, 6, 8, 2)),
    (layers.UpSampling2D, {"size": 3, "interpolation": "bilinear",
                           "data_format": "channels_first"}, (1, 2, 2, 3), (1, 2, 6, 9)),
    (layers.ZeroPadding1D, {}, (2, 3, 4), (2, 5, 4)),
    (layers.ZeroPadding1D, {"padding": (0, 2)}, (2, 3, 4), (2, 5, 4)),
    (layers.ZeroPadding1D, {"padding": (2, 1), "data_format": "channels_first"}, (2, 3, 4),
     (2, 3, 7)),
    (layers.ZeroPadding2D, {}, (2, 3, 4, 2), (2, 5, 6, 2)),
    (layers.ZeroPadding2D, {"padding": ((1, 0), (0, 2)), "data_format": "channels_first"},
     (2, 2, 3, 4), (2, 2, 4, 6)),
    (layers.Cropping1D, {}, (2, 5, 3), (2, 3, 3)),
    (layers.Cropping1D, {"cropping": (2, 0)}, (2, 5, 3), (2, 3, 3)),
    (layers.Cropping2D, {"cropping": 1}, (2, 4, 5, 2), (2, 2, 3, 2)),
    (layers.Cropping2D, {"cropping": ((1, 0), (0, 2)), "data_format": "channels_first"},
     (2, 3, 4, 5), (2, 3, 3, 3)),
    (layers.UpSampling3D, {}, (1, 2, 3, 2, 2), (1, 4, 6, 4, 2)),
    (layers.UpSampling3D, {"size": (1, 2, 3), "data_format": "channels_first"},
     (2, 2, 2, 3, 2), (2, 2, 2, 6, 6)),
    (layers.ZeroPadding3D, {}, (2, 2, 3, 2, 2), (2, 4, 5, 4, 2)),
    (layers.ZeroPadding3D, {"padding": ((1, 0), 2, (0, 1)), "data_format": "channels_first"},
     (2, 2, 2, 3, 2), (2, 2, 3, 7, 3)),
    (layers.Cropping3D, {}, (2, 3, 4, 5, 2), (2, 1, 2, 3, 2)),
    (layers.Cropping3D, {"cropping": (0, (1, 2), 1), "data_format": "channels_first"},
     (2, 2, 3, 4, 5), (2, 2, 3, 1, 3)),
])
def test_reshaping_harness(layer_cls, kwargs, shape, expected):
    run_layer_test(layer_cls, kwargs, input_shape=shape, expected_output_shape=expected,
                   expected_num_trainable_weights=0, expected_num_non_trainable_weights=0)


def test_permute_and_repeat_values(rng):
    x = rng.normal(size=(2, 3, 4)).astype("float32")
    out = layers.Permute((2, 1))(x)
    for n in range(2):
        np.testing.assert_array_equal(out[n], x[n].T)
    v = rng.normal(size=(2, 4)).astype("float32")
    repeated = layers.RepeatVector(3)(v)
    for step in range(3):
        np.testing.assert_array_equal(repeated[:, step], v)


def test_upsampling_nearest_repeats_each_pixel(rng):
    x = rng.normal(size=(1, 2, 3, 1)).astype("float32")
    out = layers.UpSampling2D((2, 3))(x)
    for i in range(4):
        for j in range(9):
            assert out[0, i, j, 0] == x[0, i // 2, j // 3, 0]


def test_upsampling_bilinear_matches_a_hand_computation():
    # Half-pixel centres: output rows/columns sample input coordinates
    # (-0.25 -> 0), 0.25, 0.75, (1.25 -> 1), i.e. weights 1, 3/4, 1/4, 0 on the first.
    x = np.array([[0.0, 4.0], [8.0, 12.0]], "float32").reshape(1, 2, 2, 1)
    out = layers.UpSampling2D(interpolation="bilinear")(x)
    expected = [[0, 1, 3, 4], [2, 3, 5, 6], [6, 7, 9, 10], [8, 9, 11, 12]]
    np.testing.assert_allclose(out[0, :, :, 0], expected, rtol=1e-6)
    first = layers.UpSampling2D(interpolation="bilinear", data_format="channels_first")
    np.testing.assert_allclose(first(x.reshape(1, 1, 2, 2))[0, 0], expected, rtol=1e-6)


def test_padding_and_cropping_values():
    x = np.arange(1, 7, dtype="float32").reshape(1, 2, 3, 1)
    padded = layers.ZeroPadding2D(((1, 0), (0, 2)))(x)[0, :, :, 0]
    np.testing.assert_array_equal(padded, [[0, 0, 0, 0, 0], [1, 2, 3, 0, 0],
                                           [4, 5, 6, 0, 0]])
    cropped = layers.Cropping2D(((1, 0), (0, 1)))(x)[0, :, :, 0]
    np.testing.assert_array_equal(cropped, [[4, 5]])
    seq = np.arange(5, dtype="float32").reshape(1, 5, 1)
    np.testing.assert_array_equal(layers.ZeroPadding1D(1)(seq).ravel(), [0, 0, 1, 2, 3, 4, 0])
    channels_first = layers.ZeroPadding1D((0, 2), data_format="channels_first")
    np.testing.assert_array_equal(channels_first(seq.reshape(1, 1, 5)).ravel(),
                                  [0, 1, 2, 3, 4, 0, 0])


@pytest.mark.parametrize("data_format, axes", [("channels_last", (1, 2, 3)),
                                               ("channels_first", (2, 3, 4))])
def test_3d_layers_match_numpy(data_format, axes, rng):
    x = rng.normal(size=(2, 3, 4, 5, 2)).astype("float32")
    if data_format == "channels_first":
        x = np.ascontiguousarray(np.moveaxis(x, -1, 1))
    expected = x
    for axis, factor in zip(axes, (2, 1, 3)):
        expected = np.repeat(expected, factor, axis=axis)
    np.testing.assert_array_equal(layers.UpSampling3D((2, 1, 3), data_format)(x), expected)

    padding = ((1, 0), (0, 2), (3, 1))
    widths = [(0, 0)] * 5
    for axis, pair in zip(axes, padding):
        widths[axis] = pair
    np.testing.assert_array_equal(layers.ZeroPadding3D(padding, data_format)(x),
                                  np.pad(x, widths))

    cropping = ((1, 0), (0, 2), (1, 1))
    key = [slice(None)] * 5
    for axis, (before, after) in zip(axes, cropping):
        key[axis] = slice(before, x.shape[axis] - after)
    np.testing.assert_array_equal(layers.Cropping3D(cropping, data_format)(x), x[tuple(key)])


def test_3d_layers_use_keras_defaults_and_pass_no_mask_on():
    assert layers.UpSampling3D().size == (2, 2, 2)
    assert layers.ZeroPadding3D().padding == ((1, 1), (1, 1), (1, 1))
    assert layers.Cropping3D().cropping == ((1, 1), (1, 1), (1, 1))
    for layer in (layers.UpSampling3D(), layers.ZeroPadding3D(), layers.Cropping3D()):
        assert not layer.supports_masking  # as Keras 3.15
        assert layer.get_config()["data_format"] == "channels_last"


def test_zero_padding1d_writes_data_format_only_where_keras_2_cannot_do_without_it():
    assert "data_format" not in layers.ZeroPadding1D().get_config()
    assert layers.ZeroPadding1D(data_format="channels_first").get_config()[
        "data_format"] == "channels_first"


def test_padding_and_cropping_argument_forms_are_normalised():
    assert layers.ZeroPadding2D(2).padding == ((2, 2), (2, 2))
    assert layers.ZeroPadding2D((1, 3)).padding == ((1, 1), (3, 3))
    assert layers.Cropping2D([[1, 2], [3, 4]]).cropping == ((1, 2), (3, 4))
    assert layers.Cropping1D(2).cropping == (2, 2)
    assert layers.ZeroPadding1D([1, 0]).padding == (1, 0)
    assert layers.ZeroPadding3D(2).padding == ((2, 2), (2, 2), (2, 2))
    assert layers.ZeroPadding3D((1, 2, 3)).padding == ((1, 1), (2, 2), (3, 3))
    # As Keras, each axis's entry may be an int or a pair independently.
    assert layers.ZeroPadding3D([0, (1, 2), 3]).padding == ((0, 0), (1, 2), (3, 3))
    assert layers.ZeroPadding2D((1, (2, 0))).padding == ((1, 1), (2, 0))
    assert layers.Cropping3D([[1, 2], [3, 4], [5, 6]]).cropping == ((1, 2), (3, 4), (5, 6))
    assert layers.UpSampling3D(3).size == (3, 3, 3)


def test_shapes_through_a_functional_model_with_unknown_sizes():
    inputs = hikeras.Input((None, None, 3))
    up = layers.UpSampling2D(interpolation="bilinear")(inputs)
    cropped = layers.Cropping2D(1)(layers.ZeroPadding2D(2)(up))
    assert up.shape == (None, None, None, 3) and cropped.shape == (None, None, None, 3)
    model = hikeras.Model(inputs, cropped)
    assert model.predict(np.zeros((2, 3, 4, 3), "float32"), verbose=0).shape == (2, 8, 10, 3)

    volumes = hikeras.Input((None, 4, None, 2))
    up = layers.UpSampling3D((2, 1, 3))(volumes)
    cropped = layers.Cropping3D((1, 0, (0, 2)))(layers.ZeroPadding3D((0, 1, 2))(up))
    assert up.shape == (None, None, 4, None, 2) and cropped.shape == (None, None, 6, None, 2)
    model = hikeras.Model(volumes, cropped)
    assert model.predict(np.zeros((1, 2, 4, 3, 2), "float32"), verbose=0).shape == (
        1, 2, 6, 11, 2)


@pytest.mark.parametrize("make, match", [
    (lambda: layers.Permute((1, 3)), "permutation"),
    (lambda: layers.RepeatVector(0), "positive integer"),
    (lambda: layers.UpSampling2D(interpolation="bicubic"), "interpolation"),
    (lambda: layers.UpSampling2D(size=(2, 0)), "size"),
    (lambda: layers.ZeroPadding2D(padding=(1, 2, 3)), "padding"),
    (lambda: layers.Cropping1D(cropping=-1), "cropping"),
    (lambda: layers.ZeroPadding2D(data_format="nhwc"), "data_format"),
    (lambda: layers.UpSampling3D(size=(2, 2)), r"UpSampling3D.*Received: size=\(2, 2\)"),
    (lambda: layers.ZeroPadding3D(padding=(1, 2)), r"ZeroPadding3D.*Received: padding=\(1, 2\)"),
    (lambda: layers.ZeroPadding3D(padding=(1, 2, -1)), r"Received: padding=\(1, 2, -1\)"),
    (lambda: layers.Cropping3D(cropping=((1, 1), (1, 1))), r"Cropping3D.*Received: cropping="),
    (lambda: layers.Cropping3D(cropping=-1), r"Received: cropping=-1"),
    (lambda: layers.UpSampling3D(data_format="ndhwc"), "data_format"),
])
def test_invalid_arguments(make, match):
    with pytest.raises((ValueError, TypeError), match=match):
        make()


def test_cropping_everything_is_an_error_naming_the_layer():
    with pytest.raises(ValueError, match=r"'crop'.*cropping=\(2, 3\)"):
        layers.Cropping1D((2, 3), name="crop")(np.zeros((1, 5, 2), "float32"))
    with pytest.raises(ValueError, match=r"'crop3'.*axis 3 of size 4"):
        layers.Cropping3D((0, 1, 2), name="crop3")(np.zeros((1, 5, 5, 4, 2), "float32"))


