"""Image preprocessing layers: resizing and crops, and the random augmentations.

Keras's own outputs for the deterministic layers (and the random ones in
inference mode) are in `keras_layer_fixtures.py`; here are the layer
harness, values worked out by hand, and statistical and structural checks of
the random layers in training.
"""


import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.utils import set_random_seed
from tests.helpers.layer_test import run_layer_test


def images(rng, *shape, low=-1.0, high=1.0):
    return rng.uniform(low, high, size=shape).astype("float32")


# ------------------------------------------------------------------ harness
@pytest.mark.parametrize("kwargs, in_shape, out_shape", [
    (dict(height=5, width=7), (2, 3, 4, 2), (2, 5, 7, 2)),
    (dict(height=2, width=3, interpolation="nearest"), (2, 5, 4, 3), (2, 2, 3, 3)),
    (dict(height=4, width=4, crop_to_aspect_ratio=True), (2, 5, 9, 1), (2, 4, 4, 1)),
    (dict(height=4, width=6, pad_to_aspect_ratio=True, fill_value=2.0), (2, 5, 4, 2),
     (2, 4, 6, 2)),
    (dict(height=3, width=5, data_format="channels_first"), (2, 2, 4, 4), (2, 2, 3, 5)),
])
def test_resizing_harness(kwargs, in_shape, out_shape):
    run_layer_test(layers.Resizing, kwargs, input_shape=in_shape,
                   expected_output_shape=out_shape, expected_num_trainable_weights=0)


@pytest.mark.parametrize("kwargs, in_shape, out_shape", [
    (dict(height=3, width=2), (2, 6, 5, 2), (2, 3, 2, 2)),
    (dict(height=5, width=4), (2, 3, 6, 2), (2, 5, 4, 2)),  # smaller: crop and resize
    (dict(height=2, width=2, data_format="channels_first"), (2, 3, 4, 5), (2, 3, 2, 2)),
])
def test_center_crop_harness(kwargs, in_shape, out_shape):
    run_layer_test(layers.CenterCrop, kwargs, input_shape=in_shape,
                   expected_output_shape=out_shape)


@pytest.mark.parametrize("layer_cls, kwargs, out_shape", [
    (layers.RandomFlip, dict(seed=1), (2, 4, 5, 3)),
    (layers.RandomCrop, dict(height=3, width=2, seed=1), (2, 3, 2, 3)),
    (layers.RandomBrightness, dict(factor=0.2, seed=1), (2, 4, 5, 3)),
    (layers.RandomContrast, dict(factor=0.5, seed=1), (2, 4, 5, 3)),
    (layers.RandomRotation, dict(factor=0.2, seed=1), (2, 4, 5, 3)),
    (layers.RandomTranslation, dict(height_factor=0.2, width_factor=(-0.1, 0.3),
                                    fill_mode="constant", seed=1), (2, 4, 5, 3)),
    (layers.RandomZoom, dict(height_factor=0.3, interpolation="nearest", seed=1),
     (2, 4, 5, 3)),
])
def test_random_layers_harness(layer_cls, kwargs, out_shape):
    """The harness calls in inference mode (gradients included)."""
    run_layer_test(layer_cls, kwargs, input_shape=(2, 4, 5, 3), expected_output_shape=out_shape)


@pytest.mark.parametrize("layer", [
    layers.RandomFlip(seed=0), layers.RandomCrop(2, 3, seed=0),
    layers.RandomBrightness(0.1, value_range=(-10, 10), seed=0),
    layers.RandomContrast(0.5, value_range=(-10, 10), seed=0),
    layers.RandomRotation(0.3, seed=0), layers.RandomTranslation(0.2, 0.2, seed=0),
    layers.RandomZoom((-0.4, 0.4), fill_mode="constant", seed=0),
], ids=lambda layer: type(layer).__name__)
def test_random_layers_are_differentiable_in_training(layer, rng):
    x = images(rng, 2, 4, 5, 3).astype("float64")
    with hikeras.GradientTape() as tape:
        tape.watch(x)
        total = hikeras.ops.sum(layer(x, training=True))
    grad = np.asarray(tape.gradient(total, x))
    assert grad.shape == x.shape and np.all(np.isfinite(grad)) and np.any(grad != 0)


# ----------------------------------------------------------------- Resizing
def test_bilinear_two_by_two_to_four_by_four_by_hand():
    # Half-pixel centres: output o reads input (o + 0.5) / 2 - 0.5, clamped,
    # i.e. 0, 0.25, 0.75, 1 along each axis; the image is 8 * row + 4 * col.
    x = np.array([[0.0, 4.0], [8.0, 12.0]], "float32").reshape(1, 2, 2, 1)
    out = layers.Resizing(4, 4)(x)
    expected = [[0, 1, 3, 4], [2, 3, 5, 6], [6, 7, 9, 10], [8, 9, 11, 12]]
    np.testing.assert_allclose(out[0, :, :, 0], expected)


def test_nearest_by_hand():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], "float32").reshape(1, 2, 2, 1)
    up = layers.Resizing(4, 4, interpolation="nearest")(x)
    np.testing.assert_array_equal(up[0, :, :, 0], np.repeat(np.repeat(x[0, :, :, 0], 2, 0), 2, 1))
    # Shrinking 3 -> 2 reads pixels floor(0.5 * 1.5) = 0 and floor(1.5 * 1.5) = 2.
    row = np.array([5.0, 6.0, 7.0], "float32").reshape(1, 1, 3, 1)
    assert layers.Resizing(1, 2, interpolation="nearest")(row).ravel().tolist() == [5.0, 7.0]


def test_crop_to_aspect_ratio_resizes_the_centred_square(rng):
    x = images(rng, 2, 5, 9, 2)
    out = layers.Resizing(4, 4, crop_to_aspect_ratio=True)(x)
    np.testing.assert_allclose(out, layers.Resizing(4, 4)(x[:, :, 2:7]), rtol=1e-6)


def test_pad_to_aspect_ratio_pads_the_short_side_evenly(rng):
    x = images(rng, 2, 5, 4, 2)
    out = layers.Resizing(4, 6, pad_to_aspect_ratio=True, fill_value=3.0)(x)
    # 6 / 4 * 5 = 7.5 -> 7 columns wanted, 3 missing: Keras pads 1 on each side.
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (0, 0)), constant_values=3.0)
    np.testing.assert_allclose(out, layers.Resizing(4, 6)(padded), rtol=1e-6)


def test_integer_images_are_rounded_back_to_their_dtype():
    x = np.array([[0, 255], [255, 0]], "uint8").reshape(1, 2, 2, 1)
    out = layers.Resizing(3, 3)(x)
    assert out.dtype == np.uint8
    assert out[0, :, :, 0].tolist() == [[0, 128, 255], [128, 128, 128], [255, 128, 0]]
    assert layers.Resizing(4, 4, interpolation="nearest")(x).dtype == np.uint8


def test_single_images_and_channels_first_agree_with_batches(rng):
    x = images(rng, 2, 5, 6, 3)
    batch = layers.Resizing(3, 4)(x)
    np.testing.assert_allclose(layers.Resizing(3, 4)(x[1]), batch[1], rtol=1e-6, atol=1e-7)
    first = layers.Resizing(3, 4, data_format="channels_first")(x.transpose(0, 3, 1, 2))
    np.testing.assert_allclose(first, batch.transpose(0, 3, 1, 2), rtol=1e-6, atol=1e-7)


def test_resizing_symbolic_with_unknown_image_size(rng):
    out = layers.Resizing(5, 6)(hikeras.Input((None, None, 3)))
    assert tuple(out.shape) == (None, 5, 6, 3)
    inputs = hikeras.Input((None, None, 3))
    model = hikeras.Model(inputs, layers.Resizing(5, 6)(inputs))
    assert model.predict(images(rng, 2, 7, 4, 3), verbose=0).shape == (2, 5, 6, 3)


@pytest.mark.parametrize("kwargs, match", [
    (dict(interpolation="bicubic"), "interpolation"),
    (dict(antialias=True), "antialias"),
    (dict(fill_mode="reflect"), "fill_mode"),
    (dict(crop_to_aspect_ratio=True, pad_to_aspect_ratio=True), "at most one"),
    (dict(height=0), "height"),
    (dict(width=2.5), "width"),
])
def test_resizing_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=f"Resizing.*{match}.*|{match}.*Received"):
        layers.Resizing(**dict(dict(height=2, width=2), **kwargs))


def test_layers_reject_inputs_that_are_not_images():
    with pytest.raises(ValueError, match=r"rank 3.*rank 4.*Received: input_shape=\(2, 3\)"):
        layers.Resizing(2, 2)(np.zeros((2, 3), "float32"))
    with pytest.raises(ValueError, match="Received"):
        layers.RandomFlip()(np.zeros((2, 3), "float32"), training=True)


# --------------------------------------------------------------- CenterCrop
def test_center_crop_slices_the_middle():
    x = np.arange(5 * 6, dtype="float32").reshape(1, 5, 6, 1)
    np.testing.assert_array_equal(layers.CenterCrop(2, 3)(x), x[:, 1:3, 1:4])
    first = layers.CenterCrop(2, 3, data_format="channels_first")(x.transpose(0, 3, 1, 2))
    np.testing.assert_array_equal(first, x[:, 1:3, 1:4].transpose(0, 3, 1, 2))
    np.testing.assert_array_equal(layers.CenterCrop(2, 3)(x[0]), x[0, 1:3, 1:4])


def test_center_crop_of_a_smaller_image_crops_to_aspect_ratio_and_resizes(rng):
    x = images(rng, 2, 3, 6, 2)
    expected = layers.Resizing(5, 4, crop_to_aspect_ratio=True)(x)
    np.testing.assert_allclose(layers.CenterCrop(5, 4)(x), expected, rtol=1e-6)


def test_center_crop_outputs_floats():
    assert layers.CenterCrop(1, 1)(np.ones((1, 3, 3, 1), "uint8")).dtype == np.float32


# --------------------------------------------------------------- RandomFlip
def _distinct_batch(n, height=3, width=4, channels=2):
    return np.arange(n * height * width * channels, dtype="float32").reshape(
        n, height, width, channels)


@pytest.mark.parametrize("mode, axes", [
    ("horizontal", (2,)), ("vertical", (1,)), ("horizontal_and_vertical", (1, 2)),
])
def test_random_flip_flips_about_half_of_the_images_along_the_mode_axes(mode, axes):
    x = _distinct_batch(400)
    out = layers.RandomFlip(mode, seed=3)(x, training=True)
    flipped = np.flip(x, axis=axes)
    kept = np.all(out == x, axis=(1, 2, 3))
    turned = np.all(out == flipped, axis=(1, 2, 3))
    assert np.all(kept ^ turned)  # each image whole: unchanged or flipped on every axis
    assert 150 < turned.sum() < 250


def test_random_flip_channels_first_and_single_images():
    x = _distinct_batch(200).transpose(0, 3, 1, 2)
    out = layers.RandomFlip("horizontal", seed=0, data_format="channels_first")(
        x, training=True)
    assert np.all(np.all(out == x, axis=(1, 2, 3)) | np.all(out == x[..., ::-1], axis=(1, 2, 3)))
    single = _distinct_batch(1)[0]
    results = {layers.RandomFlip("vertical", seed=s)(single, training=True).tobytes()
               for s in range(20)}
    assert results == {single.tobytes(), single[::-1].tobytes()}


def test_random_flip_is_the_identity_outside_training():
    x = _distinct_batch(4)
    np.testing.assert_array_equal(layers.RandomFlip(seed=0)(x, training=False), x)
    # As in Keras 3, a direct call without `training` augments (its default is True).
    assert not np.array_equal(layers.RandomFlip("horizontal", seed=0)(
        np.repeat(x, 20, axis=0)), np.repeat(x, 20, axis=0))
    assert layers.RandomFlip()(x.astype("uint8")).dtype == np.float32


def test_random_layers_are_reproducible_from_their_seed_or_the_global_seed():
    x = _distinct_batch(16)
    a = layers.RandomFlip(seed=5)(x, training=True)
    np.testing.assert_array_equal(layers.RandomFlip(seed=5)(x, training=True), a)
    set_random_seed(11)
    b = layers.RandomCrop(2, 2)(x, training=True)
    set_random_seed(11)
    np.testing.assert_array_equal(layers.RandomCrop(2, 2)(x, training=True), b)


def test_random_flip_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="RandomFlip.*Received: mode='diagonal'"):
        layers.RandomFlip("diagonal")


# --------------------------------------------------------------- RandomCrop
def test_random_crop_takes_one_uniform_window_per_batch():
    x = _distinct_batch(3, height=5, width=4, channels=1)
    layer = layers.RandomCrop(3, 2, seed=2)
    seen = set()
    for _ in range(200):
        out = layer(x, training=True)
        top, left = (int(v) for v in np.argwhere(x[0, :, :, 0] == out[0, 0, 0, 0])[0])
        np.testing.assert_array_equal(out, x[:, top:top + 3, left:left + 2])  # whole batch
        seen.add((top, left))
    assert seen == {(t, w) for t in range(3) for w in range(3)}


def test_random_crop_outside_training_is_a_centre_crop_to_aspect_ratio_resized(rng):
    x = images(rng, 2, 5, 9, 2)
    expected = layers.Resizing(4, 3, crop_to_aspect_ratio=True)(x)
    np.testing.assert_allclose(layers.RandomCrop(4, 3)(x, training=False), expected, rtol=1e-6)
    symbolic = layers.RandomCrop(4, 3)(hikeras.Input((5, 9, 2)))
    assert tuple(symbolic.shape) == (None, 4, 3, 2)


def test_random_crop_in_training_of_a_small_image_crops_centrally_and_resizes(rng):
    # Keras slices the target size from the centred aspect window's start and
    # resizes what that leaves: rows 0:3 (all there are), columns 3:7.
    x = images(rng, 2, 3, 8, 1)
    out = layers.RandomCrop(5, 4, seed=0)(x, training=True)
    np.testing.assert_allclose(out, layers.Resizing(5, 4)(x[:, :, 3:7]), rtol=1e-6)
    # Equal height, larger width: a centred crop, no randomness.
    x = images(rng, 2, 5, 8, 1)
    np.testing.assert_array_equal(layers.RandomCrop(5, 4, seed=0)(x, training=True),
                                  x[:, :, 2:6])


def test_random_crop_channels_first_single_image():
    x = _distinct_batch(1, height=6, width=5, channels=2)[0].transpose(2, 0, 1)
    out = layers.RandomCrop(2, 3, seed=4, data_format="channels_first")(x, training=True)
    top, left = (int(v) for v in np.argwhere(x[0] == out[0, 0, 0])[0])
    np.testing.assert_array_equal(out, x[:, top:top + 2, left:left + 3])


# --------------------------------------------------------- RandomBrightness
def test_random_brightness_shifts_each_image_uniformly_within_the_factor(rng):
    x = images(rng, 300, 3, 3, 2, low=100, high=150)
    out = layers.RandomBrightness(0.2, seed=0)(x, training=True)
    shift = (out - x).reshape(300, -1)
    np.testing.assert_allclose(shift, shift[:, :1].repeat(shift.shape[1], 1), atol=1e-4)
    delta = shift[:, 0]
    assert np.all(np.abs(delta) <= 0.2 * 255 + 1e-3)
    assert delta.min() < -40 and delta.max() > 40  # spread over [-51, 51]
    assert len(np.unique(np.round(delta, 3))) > 250  # one draw per image


def test_random_brightness_pair_factor_clipping_and_inference(rng):
    x = images(rng, 50, 2, 2, 1, low=0, high=1)
    out = layers.RandomBrightness((0.1, 0.4), value_range=(0, 1), seed=1)(x, training=True)
    assert np.all(out >= np.minimum(x + 0.1, 1) - 1e-6) and np.all(out <= 1)
    layer = layers.RandomBrightness(0.3)
    assert layer.factor == (-0.3, 0.3)
    np.testing.assert_array_equal(layer(x, training=False), x)
    single = layers.RandomBrightness((0.5, 0.5), value_range=(0, 10))(
        np.zeros((2, 2, 1), "float32"), training=True)
    np.testing.assert_allclose(single, np.full((2, 2, 1), 5.0))


@pytest.mark.parametrize("kwargs, match", [
    (dict(factor=1.5), "factor=1.5"),
    (dict(factor=(0.1, 0.2, 0.3)), "factor"),
    (dict(factor="big"), "factor='big'"),
    (dict(factor=0.1, value_range=(0, 1, 2)), "value_range"),
])
def test_random_brightness_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=f"RandomBrightness.*Received: {match}"):
        layers.RandomBrightness(**kwargs)


# ----------------------------------------------------------- RandomContrast
def _contrast_factors(x, out, axes=(1, 2)):
    """Each image's factor `c` in `out - mean = c * (x - mean)`, checking that it fits."""
    centred = (x - x.mean(axis=axes, keepdims=True)).reshape(len(x), -1)
    moved = (out - x.mean(axis=axes, keepdims=True)).reshape(len(x), -1)
    factors = np.sum(moved * centred, axis=1) / np.sum(centred * centred, axis=1)
    np.testing.assert_allclose(moved, factors[:, None] * centred, atol=1e-3)
    return factors


def test_random_contrast_scales_around_each_images_mean(rng):
    x = images(rng, 300, 4, 4, 3, low=100, high=150)
    out = layers.RandomContrast(0.5, seed=0)(x, training=True)
    factors = _contrast_factors(x, out)  # one per image, the same for every channel
    # Keras reads a single factor f as the range [1, 1 + f].
    assert factors.min() >= 1 - 1e-4 and factors.max() <= 1.5 + 1e-4
    assert factors.min() < 1.05 and factors.max() > 1.45
    np.testing.assert_allclose(out.mean(axis=(1, 2)), x.mean(axis=(1, 2)), rtol=1e-5)


def test_random_contrast_pair_factor_and_channels_first(rng):
    x = images(rng, 200, 3, 4, 4, low=100, high=150)  # channels first
    out = layers.RandomContrast((0.2, 0.6), seed=1, data_format="channels_first")(
        x, training=True)
    factors = _contrast_factors(x, out, axes=(2, 3))
    assert factors.min() >= 0.8 - 1e-4 and factors.max() <= 1.6 + 1e-4
    assert factors.min() < 0.85 and factors.max() > 1.55


def test_random_contrast_clips_and_is_the_identity_outside_training():
    x = np.array([[[0.0], [1.0]]], "float32")
    out = layers.RandomContrast((1.0, 1.0), value_range=(0, 1), seed=0)(
        np.repeat(x[None], 50, 0)[:, 0], training=True)
    assert np.all((out >= 0) & (out <= 1))
    np.testing.assert_array_equal(layers.RandomContrast(0.5)(x, training=False), x)


@pytest.mark.parametrize("factor", [-0.1, 1.5, (0.5, 2.0)])
def test_random_contrast_rejects_factors_outside_zero_one(factor):
    with pytest.raises(ValueError, match=r"RandomContrast.*\[0, 1\].*Received: factor="):
        layers.RandomContrast(factor)


# ------------------------------------------------ RandomRotation, Translation, Zoom
def _square(n=1, size=4, channels=2):
    return _distinct_batch(n, size, size, channels)


@pytest.mark.parametrize("turns, k", [(0.25, 1), (-0.25, -1), (0.5, 2)])
def test_rotation_by_quarter_turns_is_rot90_counter_clockwise(turns, k):
    x = _square(2)
    out = layers.RandomRotation((turns, turns), interpolation="nearest")(x)
    np.testing.assert_array_equal(out, np.rot90(x, k, axes=(1, 2)))
    bilinear = layers.RandomRotation((turns, turns))(x)  # float32 cos(pi / 2) is not 0
    np.testing.assert_allclose(bilinear, np.rot90(x, k, axes=(1, 2)), atol=1e-4)


def test_rotation_keeps_the_centre_and_fills_uncovered_corners():
    # A 45-degree turn of a 5x5 image uncovers its corners; the centre stays.
    x = np.ones((1, 5, 5, 1), "float32")
    x[0, 2, 2, 0] = 7.0
    out = layers.RandomRotation((0.125, 0.125), fill_mode="constant", fill_value=-1.0,
                                interpolation="nearest")(x)[0, :, :, 0]
    assert out[2, 2] == 7.0
    assert out[0, 0] == out[0, 4] == out[4, 0] == out[4, 4] == -1.0
    assert np.all(out[1:4, 1:4][[0, 0, 1, 2, 2], [0, 2, 0, 0, 2]] == 1.0)


@pytest.mark.parametrize("fill_mode, expected", [
    ("constant", [9.0, 9.0, 0.0, 1.0]),
    ("reflect", [1.0, 0.0, 0.0, 1.0]),
    ("wrap", [2.0, 3.0, 0.0, 1.0]),
    ("nearest", [0.0, 0.0, 0.0, 1.0]),
])
def test_whole_pixel_translation_shifts_and_fills(fill_mode, expected):
    row = np.arange(4.0, dtype="float32").reshape(1, 1, 4, 1)
    for interpolation in ("bilinear", "nearest"):
        out = layers.RandomTranslation(0, (0.5, 0.5), fill_mode=fill_mode, fill_value=9.0,
                                       interpolation=interpolation)(row)
        assert out.ravel().tolist() == expected


def test_translation_moves_down_and_left_in_both_axes():
    x = _distinct_batch(2, 4, 4, 2)
    out = layers.RandomTranslation((0.25, 0.25), (-0.5, -0.5), fill_mode="constant",
                                   fill_value=-3.0)(x)
    expected = np.full_like(x, -3.0)
    expected[:, 1:, :2] = x[:, :-1, 2:]
    np.testing.assert_array_equal(out, expected)


def test_zoom_out_and_in_about_the_centre():
    row = np.arange(5.0, dtype="float32").reshape(1, 1, 5, 1)
    # Zooming out by 2 reads input 2x - 2 for output x, so every other pixel.
    out = layers.RandomZoom(0, (1.0, 1.0), fill_mode="constant", fill_value=-1.0)(row)
    assert out.ravel().tolist() == [-1.0, 0.0, 2.0, 4.0, -1.0]
    # Zooming in by 2 reads x / 2 + 1: the middle half stretched.
    out = layers.RandomZoom(0, (-0.5, -0.5))(row)
    assert out.ravel().tolist() == [1.0, 1.5, 2.0, 2.5, 3.0]
    # Without width_factor both axes take the height's zoom.
    square = _square(1, 5, 1)
    out = layers.RandomZoom((-0.5, -0.5), interpolation="nearest")(square)
    np.testing.assert_array_equal(out[0, 2, :, 0], [11.0, 12.0, 12.0, 13.0, 13.0])
    np.testing.assert_array_equal(out[0, :, 2, 0], [7.0, 12.0, 12.0, 17.0, 17.0])


def _angles(layer, n):
    transforms = layer._transforms(n, (6, 8))
    return np.degrees(np.arctan2(transforms[:, 3], transforms[:, 0]))


def test_random_draws_are_per_image_and_uniform_within_the_factor_range():
    n = 4000
    angles = _angles(layers.RandomRotation((-0.1, 0.2), seed=0), n)
    assert -36.0 <= angles.min() < -34 and 70 < angles.max() <= 72.0
    assert abs(angles.mean() - 18.0) < 2.0 and abs(angles.std() - 108 / 12 ** 0.5) < 2.0
    symmetric = _angles(layers.RandomRotation(0.05, seed=0), n)
    assert -18.0 <= symmetric.min() < -17 and 17 < symmetric.max() <= 18.0

    t = layers.RandomTranslation((-0.5, 0.25), 0.1, seed=0)._transforms(n, (6, 8))
    dy, dx = -t[:, 5] / 6, -t[:, 2] / 8
    assert -0.5 <= dy.min() < -0.48 and 0.23 < dy.max() <= 0.25
    assert -0.1 <= dx.min() < -0.09 and 0.09 < dx.max() <= 0.1
    assert abs(np.corrcoef(dx, dy)[0, 1]) < 0.1  # independent draws
    np.testing.assert_array_equal(t[:, [0, 4]], 1.0)

    z = layers.RandomZoom((-0.3, 0.5), seed=0)._transforms(n, (6, 8))
    np.testing.assert_array_equal(z[:, 0], z[:, 4])  # one draw for both axes
    assert 0.7 <= z[:, 0].min() < 0.72 and 1.48 < z[:, 0].max() <= 1.5
    z = layers.RandomZoom(0.2, (0.1, 0.4), seed=0)._transforms(n, (6, 8))
    assert 0.8 <= z[:, 4].min() and z[:, 4].max() <= 1.2
    assert 1.1 <= z[:, 0].min() and z[:, 0].max() <= 1.4
    # Each image of a batch gets its own draw.
    same = np.repeat(_square(1), 8, axis=0)
    out = layers.RandomRotation(0.2, seed=1)(same)
    assert len({o.tobytes() for o in out}) == 8


def test_geometric_layers_are_seeded_and_the_identity_outside_training():
    x = _distinct_batch(4, 5, 6, 2)
    for make in (lambda **k: layers.RandomRotation(0.2, **k),
                 lambda **k: layers.RandomTranslation(0.2, 0.3, **k),
                 lambda **k: layers.RandomZoom(0.3, **k)):
        np.testing.assert_array_equal(make(seed=4)(x), make(seed=4)(x))
        assert not np.array_equal(make(seed=4)(x), make(seed=5)(x))
        set_random_seed(3)
        a = make()(x)
        set_random_seed(3)
        np.testing.assert_array_equal(make()(x), a)
        np.testing.assert_array_equal(make(seed=0)(x, training=False), x)
        assert make(seed=0)(x.astype("uint8")).dtype == np.float32


def test_geometric_layers_on_single_images_and_channels_first():
    x = _distinct_batch(1, 5, 6, 3)
    for make in (lambda **k: layers.RandomRotation((0.1, 0.1), **k),
                 lambda **k: layers.RandomTranslation((0.2, 0.2), (-0.3, -0.3), **k),
                 lambda **k: layers.RandomZoom((0.3, 0.3), (-0.2, -0.2), **k)):
        batch = make()(x)
        np.testing.assert_array_equal(make()(x[0]), batch[0])
        first = make(data_format="channels_first")(x.transpose(0, 3, 1, 2))
        np.testing.assert_array_equal(first, batch.transpose(0, 3, 1, 2))


@pytest.mark.parametrize("make, match", [
    (lambda: layers.RandomRotation(1.5), r"RandomRotation.*Received: factor=1.5"),
    (lambda: layers.RandomRotation((0.1, 0.2, 0.3)), r"RandomRotation.*Received: factor="),
    (lambda: layers.RandomRotation(0.1, fill_mode="mirror"),
     r"RandomRotation.*Received: fill_mode='mirror'"),
    (lambda: layers.RandomRotation(0.1, interpolation="bicubic"),
     r"RandomRotation.*Received: interpolation='bicubic'"),
    (lambda: layers.RandomRotation(0.1, fill_value="black"),
     r"RandomRotation.*Received: fill_value='black'"),
    (lambda: layers.RandomTranslation(1.2, 0.1),
     r"RandomTranslation.*\[-1, 1\].*Received: height_factor=1.2"),
    (lambda: layers.RandomTranslation(0.1, (0.1,)),
     r"RandomTranslation.*Received: width_factor=\(0.1,\)"),
    (lambda: layers.RandomTranslation(0.1, "wide"),
     r"RandomTranslation.*Received: width_factor='wide'"),
    (lambda: layers.RandomZoom((-1.0, 0.2)),
     r"RandomZoom.*\(-1, 1\].*Received: height_factor=\(-1.0, 0.2\)"),
    (lambda: layers.RandomZoom(0.2, width_factor=2),
     r"RandomZoom.*Received: width_factor=2"),
    (lambda: layers.RandomZoom(0.2, fill_mode="mirror"),
     r"RandomZoom.*Received: fill_mode='mirror'"),
])
def test_geometric_layers_reject_bad_arguments(make, match):
    with pytest.raises(ValueError, match=match):
        make()


# -------------------------------------------------------------- in a model
def test_augmentation_runs_in_fit_and_not_in_predict(rng):
    model = hikeras.Sequential([
        hikeras.Input((6, 6, 1)),
        layers.RandomFlip(seed=0), layers.RandomCrop(4, 4, seed=0),
        layers.RandomBrightness(0.1, value_range=(-5, 5), seed=0),
        layers.RandomContrast(0.2, value_range=(-5, 5), seed=0),
        layers.RandomRotation(0.1, seed=0), layers.RandomTranslation(0.1, 0.1, seed=0),
        layers.RandomZoom(0.2, seed=0),
        layers.Resizing(2, 2), layers.Flatten(), layers.Dense(1),
    ])
    model.compile(optimizer="sgd", loss="mse")
    x, y = images(rng, 8, 6, 6, 1), images(rng, 8, 1)
    model.fit(x, y, epochs=1, batch_size=4, verbose=0)
    np.testing.assert_array_equal(model.predict(x, verbose=0), model.predict(x, verbose=0))
    assert not np.array_equal(model(x, training=True), model(x, training=True))


def test_configs_round_trip_through_serialize():
    for layer in [layers.Resizing(3, 4, interpolation="nearest", pad_to_aspect_ratio=True),
                  layers.CenterCrop(2, 2, data_format="channels_first"),
                  layers.RandomFlip("vertical", seed=3), layers.RandomCrop(2, 3, seed=1),
                  layers.RandomBrightness((-0.2, 0.1), value_range=(0, 1)),
                  layers.RandomContrast(0.3, value_range=(0, 1), seed=2),
                  layers.RandomRotation((-0.1, 0.2), fill_mode="wrap", seed=4),
                  layers.RandomTranslation(0.1, (0.0, 0.3), interpolation="nearest"),
                  layers.RandomZoom(0.2, fill_mode="constant", fill_value=1.5),
                  layers.RandomZoom((-0.2, 0.1), (0.3, 0.4), data_format="channels_first")]:
        clone = layers.deserialize(layers.serialize(layer))
        assert type(clone) is type(layer) and clone.get_config() == layer.get_config()


