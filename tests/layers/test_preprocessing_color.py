"""Colour augmentation layers.

Keras's own outputs for deterministic settings (probabilities 1 or 0,
one-point ranges) are in `keras_layer_fixtures.py`; here are the layer
harness, values worked out by hand, statistics of the random draws, seeding,
inference mode, gradients and argument errors.
"""


import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.utils import set_random_seed
from tests.helpers.layer_test import run_layer_test


def pixels(rng, *shape, low=0.0, high=255.0):
    return rng.uniform(low, high, size=shape).astype("float32")


# ------------------------------------------------------------------ harness
@pytest.mark.parametrize("layer_cls, kwargs, shape", [
    (layers.RandomGrayscale, dict(seed=1), (2, 4, 5, 3)),
    (layers.RandomInvert, dict(seed=1), (2, 4, 5, 3)),
    (layers.Solarization, dict(addition_factor=0.2, threshold_factor=0.5, seed=1), (2, 4, 5, 3)),
    (layers.RandomPosterization, dict(factor=(2, 6), seed=1), (2, 4, 5, 3)),
    (layers.AutoContrast, dict(value_range=(-1, 1)), (2, 4, 5, 3)),
    (layers.RandomSaturation, dict(factor=0.5, seed=1), (2, 4, 5, 3)),
    (layers.RandomHue, dict(factor=0.5, value_range=(-3, 3), seed=1), (2, 4, 5, 3)),
    (layers.RandomHue, dict(factor=0.5, data_format="channels_first", seed=1), (2, 3, 4, 5)),
])
def test_harness(layer_cls, kwargs, shape):
    """Seeded layers reload with the same draws; gradients are checked in inference."""
    run_layer_test(layer_cls, kwargs, input_shape=shape, expected_output_shape=shape,
                   expected_num_trainable_weights=0)


def _numeric_gradient_check(rng, layer, x):
    """Tape gradient of a random projection against central differences (float64)."""
    direction = rng.standard_normal(x.shape)
    with hikeras.GradientTape() as tape:
        tape.watch(x)
        total = hikeras.ops.sum(hikeras.ops.multiply(layer(x), direction))
    grad = np.asarray(tape.gradient(total, x))
    step = rng.standard_normal(x.shape)
    eps = 1e-6
    plus = np.sum(np.asarray(layer(x + eps * step)) * direction)
    minus = np.sum(np.asarray(layer(x - eps * step)) * direction)
    np.testing.assert_allclose(np.sum(grad * step), (plus - minus) / (2 * eps), rtol=1e-5)


@pytest.mark.parametrize("layer", [
    layers.RandomGrayscale(1.0, dtype="float64"),
    layers.RandomInvert((1, 1), value_range=(0, 1), dtype="float64"),
    layers.Solarization(threshold_factor=(0.5, 0.5), value_range=(0, 1), dtype="float64"),
    layers.AutoContrast(value_range=(0, 1), dtype="float64"),
    layers.RandomSaturation((0.35, 0.35), value_range=(0, 1), dtype="float64"),
    layers.RandomHue((1, 1), value_range=(0, 1), dtype="float64"),  # either way: same
], ids=lambda layer: type(layer).__name__)
def test_deterministic_settings_have_the_gradients_of_their_formulas(layer, rng):
    x = rng.uniform(0.05, 0.95, size=(2, 3, 4, 3))
    _numeric_gradient_check(rng, layer, x)


# ---------------------------------------------------------- by hand
def test_grayscale_of_a_known_pixel_and_layouts(rng):
    x = np.array([[[[100.0, 50.0, 200.0], [0.0, 255.0, 0.0]]]], "float32")
    out = layers.RandomGrayscale(1.0)(x)
    np.testing.assert_allclose(out[0, 0, 0], [82.04] * 3, rtol=1e-6)
    np.testing.assert_allclose(out[0, 0, 1], [0.587 * 255] * 3, rtol=1e-6)
    first = layers.RandomGrayscale(1.0, data_format="channels_first")(
        np.transpose(x, (0, 3, 1, 2)))
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)), out, rtol=1e-6)
    single = layers.RandomGrayscale(1.0)(x[0])
    np.testing.assert_allclose(single, out[0], rtol=1e-6)
    grey = pixels(rng, 2, 3, 3, 1)
    np.testing.assert_array_equal(layers.RandomGrayscale(1.0)(grey), grey)
    np.testing.assert_array_equal(layers.RandomGrayscale(0.0)(x), x)


def test_invert_maps_low_to_high():
    x = np.array([[[10.0, 12.0, 20.0]]], "float32")
    out = layers.RandomInvert((1, 1), value_range=(10, 20))(x)
    np.testing.assert_allclose(out, [[[20.0, 18.0, 10.0]]])
    np.testing.assert_array_equal(layers.RandomInvert((0, 0))(x), x)


def test_solarization_with_an_addition_and_a_threshold(rng):
    # On [0, 1]: add 0.2, clip to 1, invert what reaches 0.5.
    layer = layers.Solarization(addition_factor=(0.2, 0.2), threshold_factor=(0.5, 0.5),
                                value_range=(0, 1))
    out = layer(np.array([[[0.1, 0.29, 0.3, 0.4, 0.9]]], "float32"))
    np.testing.assert_allclose(out, [[[0.3, 0.49, 0.5, 0.4, 0.0]]], atol=1e-6)
    # The defaults invert everything; the scale follows value_range.
    x = pixels(rng, 2, 3, 3, 3, low=-1.0, high=1.0)
    np.testing.assert_allclose(layers.Solarization(value_range=(-1, 1))(x), -x, atol=1e-6)


def test_posterization_keeps_the_top_bits():
    x = np.array([[[10.0, 100.0, 255.0, 63.9]]], "float32")
    np.testing.assert_array_equal(layers.RandomPosterization((2, 2))(x),
                                  [[[0.0, 64.0, 192.0, 0.0]]])
    np.testing.assert_array_equal(layers.RandomPosterization((8, 8))(x),
                                  [[[10.0, 100.0, 255.0, 63.0]]])
    unit = layers.RandomPosterization((4, 4), value_range=(0, 1))(
        np.array([[[0.5, 1.0, 0.0]]], "float32"))
    np.testing.assert_allclose(unit, [[[112 / 255, 240 / 255, 0.0]]], rtol=1e-6)
    # Out-of-range values are clipped first.
    np.testing.assert_array_equal(
        layers.RandomPosterization((1, 1))(np.array([[[-3.0, 300.0]]], "float32")),
        [[[0.0, 128.0]]])


def test_auto_contrast_stretches_each_channel_of_each_image():
    x = np.zeros((2, 3, 1, 2), "float32")
    x[0, :, 0, 0] = [50.0, 100.0, 150.0]
    x[0, :, 0, 1] = 7.0  # constant: kept
    x[1, :, 0, 0] = [1.0, 2.0, 5.0]
    x[1, :, 0, 1] = [0.0, 10.0, 20.0]
    out = layers.AutoContrast()(x)
    np.testing.assert_allclose(out[0, :, 0, 0], [0.0, 127.5, 255.0])
    np.testing.assert_allclose(out[0, :, 0, 1], [7.0, 7.0, 7.0])
    np.testing.assert_allclose(out[1, :, 0, 0], [0.0, 63.75, 255.0])
    np.testing.assert_allclose(out[1, :, 0, 1], [0.0, 127.5, 255.0])
    first = layers.AutoContrast(data_format="channels_first")(np.transpose(x, (0, 3, 1, 2)))
    np.testing.assert_allclose(np.transpose(first, (0, 2, 3, 1)), out)
    # Not random: applies in inference too, and into other value ranges.
    np.testing.assert_allclose(layers.AutoContrast()(x, training=False), out)
    unit = layers.AutoContrast(value_range=(-1, 1))(x)
    np.testing.assert_allclose(unit[1, :, 0, 1], [-1.0, 0.0, 1.0])


def test_saturation_moves_channels_towards_the_maximum(rng):
    # Hue and value kept: a channel x becomes V - (V - x) * scale while the
    # saturation stays within [0, 1]; u = 0.25 gives scale 1/3.
    x = pixels(rng, 3, 4, 5, 3, low=0.0, high=1.0)
    out = np.asarray(layers.RandomSaturation((0.25, 0.25), value_range=(0, 1))(x))
    top = x.max(axis=-1, keepdims=True)
    np.testing.assert_allclose(out, top - (top - x) / 3, atol=1e-5)
    np.testing.assert_allclose(
        layers.RandomSaturation((0.5, 0.5), value_range=(0, 1))(x), x, atol=1e-5)
    grey = layers.RandomSaturation((-0.4, 0.0), value_range=(0, 1))(x)
    np.testing.assert_allclose(grey, np.broadcast_to(top, x.shape), atol=1e-6)
    # Full saturation: the smallest channel reaches 0 (not below).
    full = np.asarray(layers.RandomSaturation((1, 1), value_range=(0, 255))(255 * x))
    np.testing.assert_allclose(full.min(axis=-1), 0.0, atol=1e-3)
    np.testing.assert_allclose(full.max(axis=-1), 255 * top[..., 0], rtol=1e-5)


def test_half_a_hue_turn_gives_the_complementary_colour(rng):
    # Rotating the hue by half a turn maps each channel x to max + min - x.
    x = pixels(rng, 2, 3, 4, 3)
    out = layers.RandomHue((1, 1))(x)
    expected = x.max(axis=-1, keepdims=True) + x.min(axis=-1, keepdims=True) - x
    np.testing.assert_allclose(out, expected, atol=1e-3)
    np.testing.assert_allclose(
        layers.RandomHue((1, 1), value_range=(0, 1))(np.array([[[0.8, 0.4, 0.2]]])),
        [[[0.2, 0.6, 0.8]]], atol=1e-6)
    np.testing.assert_allclose(layers.RandomHue((0, 0))(x), x, rtol=1e-5, atol=1e-4)


# ------------------------------------------------------------ distributions
def _count(mask):
    return float(np.mean(mask))


def test_grayscale_probability():
    x = np.tile(np.array([10.0, 100.0, 200.0], "float32"), (4000, 1, 1, 1))
    out = np.asarray(layers.RandomGrayscale(0.3, seed=0)(x))
    grey = out[:, 0, 0, 0] == out[:, 0, 0, 2]
    assert abs(_count(grey) - 0.3) < 0.03
    np.testing.assert_array_equal(out[~grey], x[~grey])


@pytest.mark.parametrize("factor, probability", [(1.0, 0.5), ((0.2, 0.6), 0.4), (0.4, 0.2)])
def test_invert_draws_a_probability_per_image(factor, probability):
    x = np.full((4000, 1, 1, 1), 30.0, "float32")
    out = np.asarray(layers.RandomInvert(factor, seed=0)(x))
    assert set(np.unique(out)) <= {30.0, 225.0}
    assert abs(_count(out == 225.0) - probability) < 0.03


def test_solarization_thresholds_and_additions_are_uniform():
    x = np.full((4000, 1, 1, 1), 100.0, "float32")
    out = np.asarray(layers.Solarization(threshold_factor=1.0, seed=0)(x))
    # Inverted where the threshold t ~ U(0, 255) is at most 100.
    assert abs(_count(out == 155.0) - 100 / 255) < 0.03
    added = np.asarray(layers.Solarization(addition_factor=(0.1, 0.3),
                                           threshold_factor=(1, 1), seed=0)(x)).ravel()
    assert added.min() >= 100 + 25.5 - 1e-3 and added.max() <= 100 + 76.5 + 1e-3
    assert abs(added.mean() - (100 + 51.0)) < 1.0


@pytest.mark.parametrize("factor, bits", [((2, 5), {2, 3, 4}), (4, {1, 2, 3}), ((6, 6), {6})])
def test_posterization_bits_exclude_the_upper_bound(factor, bits):
    x = np.full((3000, 1, 1, 1), 255.0, "float32")
    out = np.asarray(layers.RandomPosterization(factor, seed=0)(x)).ravel()
    kept = {int(8 - np.log2(256 - v)) for v in np.unique(out)}
    assert kept == bits
    counts = [np.mean(out == 256 - 2 ** (8 - b)) for b in sorted(bits)]
    assert max(counts) - min(counts) < 0.05


def test_saturation_factor_number_is_symmetric():
    """As in Keras 3, a number `f` draws from [-f, f]: about half the images turn grey."""
    x = np.tile(np.array([0.8, 0.4, 0.2], "float32"), (4000, 1, 1, 1))
    out = np.asarray(layers.RandomSaturation(0.5, value_range=(0, 1), seed=0)(x))
    grey = np.ptp(out[:, 0, 0], axis=-1) < 1e-6
    assert abs(_count(grey) - 0.5) < 0.03
    # The rest keep at most their saturation (u <= 0.5 gives scale <= 1).
    assert np.all(out[:, 0, 0, 2] >= 0.2 - 1e-6)


def test_hue_shift_magnitude_and_direction():
    # Pure red has hue 0: a shift d in (0, 1/6) gives green 6d, a shift -d blue 6d.
    x = np.tile(np.array([1.0, 0.0, 0.0], "float32"), (4000, 1, 1, 1))
    out = np.asarray(layers.RandomHue((0.1, 0.3), value_range=(0, 1), seed=0)(x))[:, 0, 0]
    forward = out[:, 1] > 0
    assert np.all((out[:, 1] > 0) ^ (out[:, 2] > 0))
    assert abs(_count(forward) - 0.5) < 0.03
    shift = np.where(forward, out[:, 1], out[:, 2]) / 6
    assert shift.min() >= 0.05 - 1e-6 and shift.max() <= 0.15 + 1e-6
    assert abs(shift.mean() - 0.1) < 0.003


# --------------------------------------------------- seeding and inference
_RANDOM = [
    lambda **kw: layers.RandomGrayscale(**kw),
    lambda **kw: layers.RandomInvert(**kw),
    lambda **kw: layers.Solarization(addition_factor=0.3, threshold_factor=0.6, **kw),
    lambda **kw: layers.RandomPosterization((1, 8), **kw),
    lambda **kw: layers.RandomSaturation(0.8, **kw),
    lambda **kw: layers.RandomHue(0.9, **kw),
]


@pytest.mark.parametrize("make", _RANDOM)
def test_seeding_inference_and_dtypes(make, rng):
    x = pixels(rng, 6, 3, 4, 3)
    a = make(seed=5)(x)
    np.testing.assert_array_equal(make(seed=5)(x), a)
    assert not np.allclose(a, make(seed=6)(x))
    set_random_seed(3)
    b = make()(x)
    set_random_seed(3)
    np.testing.assert_array_equal(make()(x), b)
    np.testing.assert_array_equal(make(seed=0)(x, training=False), x)
    model = hikeras.Sequential([hikeras.Input((3, 4, 3)), make(seed=0)])
    np.testing.assert_allclose(model.predict(x, verbose=0), x)
    assert make(seed=0)(x.astype("uint8")).dtype == np.float32


def test_symbolic_shapes_and_rank_errors():
    out = layers.RandomHue(0.5)(hikeras.Input((4, 5, 3)))
    assert tuple(out.shape) == (None, 4, 5, 3)
    with pytest.raises(ValueError, match=r"rank 3.*rank 4.*Received: input_shape=\(2, 3\)"):
        layers.Solarization()(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"RandomHue.*3 channels.*Received: input_shape="):
        layers.RandomHue(0.5)(np.zeros((2, 3, 3, 4)))
    with pytest.raises(ValueError, match=r"RandomGrayscale.*Received: input_shape="):
        layers.RandomGrayscale(1.0)(np.zeros((2, 3, 3, 2)))


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("make, match", [
    (lambda: layers.RandomGrayscale(1.5), r"RandomGrayscale.*\[0, 1\].*Received: factor=1.5"),
    (lambda: layers.RandomGrayscale((0.1, 0.2)), r"RandomGrayscale.*Received: factor=\("),
    (lambda: layers.RandomInvert(-0.5), r"RandomInvert.*Received: factor=-0.5"),
    (lambda: layers.RandomInvert(value_range=(0,)),
     r"RandomInvert.*value_range.*Received: value_range=\(0,\)"),
    (lambda: layers.Solarization(addition_factor=1.2),
     r"Solarization.*addition_factor.*Received: addition_factor=1.2"),
    (lambda: layers.Solarization(threshold_factor=(0.1, 0.2, 0.3)),
     r"Solarization.*threshold_factor.*Received: threshold_factor="),
    (lambda: layers.RandomPosterization(9), r"RandomPosterization.*\[1, 8\].*Received: factor=9"),
    (lambda: layers.RandomPosterization(2.5), r"RandomPosterization.*Received: factor=2.5"),
    (lambda: layers.RandomPosterization((0, 4)), r"RandomPosterization.*Received: factor=\("),
    (lambda: layers.AutoContrast(value_range="0-255"),
     r"AutoContrast.*Received: value_range='0-255'"),
    (lambda: layers.RandomSaturation(1.5), r"RandomSaturation.*Received: factor=1.5"),
    (lambda: layers.RandomHue((-0.2, 0.5)), r"RandomHue.*\[0, 1\].*Received: factor=\("),
])
def test_argument_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_configs_use_keras_names():
    config = layers.Solarization(addition_factor=0.3, threshold_factor=(0.6, 0.2), seed=4,
                                 value_range=(255, 0)).get_config()
    assert config["addition_factor"] == (0, 0.3) and config["threshold_factor"] == (0.2, 0.6)
    assert config["value_range"] == [0, 255] and config["seed"] == 4
    assert layers.RandomPosterization(4).get_config()["factor"] == (1, 4)
    assert layers.RandomSaturation(0.5).get_config()["factor"] == (-0.5, 0.5)
    assert layers.RandomHue(0.5).get_config()["factor"] == (0, 0.5)
    assert layers.RandomInvert().get_config()["factor"] == (0, 1.0)
    restored = layers.deserialize(layers.serialize(layers.RandomGrayscale(0.2, seed=1)))
    assert isinstance(restored, layers.RandomGrayscale) and restored.factor == 0.2
