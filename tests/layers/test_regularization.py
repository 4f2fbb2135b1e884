"""Regularisation layers: SpatialDropout1D/2D/3D, GaussianNoise, GaussianDropout,
AlphaDropout and ActivityRegularization (`Dropout` itself is in test_core.py).

The statistical checks draw many samples and allow five standard errors,
computed from the distribution each layer should produce.
"""

import math

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

ALPHA_PRIME = -1.7580993408473766  # Keras's -scale * alpha of SELU


@pytest.mark.parametrize("layer_cls, kwargs, shape", [
    (layers.Dropout, {"rate": 0.5}, (3, 4)),
    (layers.Dropout, {"rate": 0.3, "noise_shape": (None, 1, 4), "seed": 3}, (2, 3, 4)),
    (layers.SpatialDropout1D, {"rate": 0.3}, (2, 5, 3)),
    (layers.SpatialDropout2D, {"rate": 0.3, "seed": 4}, (2, 3, 4, 2)),
    (layers.SpatialDropout2D, {"rate": 0.3, "data_format": "channels_first"}, (2, 2, 3, 4)),
    (layers.SpatialDropout3D, {"rate": 0.5}, (2, 2, 3, 2, 3)),
    (layers.SpatialDropout3D, {"rate": 0.5, "data_format": "channels_first"}, (2, 3, 2, 3, 2)),
    (layers.GaussianNoise, {"stddev": 0.4, "seed": 2}, (3, 4)),
    (layers.GaussianDropout, {"rate": 0.25}, (3, 4)),
    (layers.AlphaDropout, {"rate": 0.1, "noise_shape": (None, 1, 4)}, (2, 3, 4)),
    (layers.ActivityRegularization, {"l1": 0.01, "l2": 0.02}, (3, 4)),
])
def test_regularization_harness(layer_cls, kwargs, shape):
    run_layer_test(layer_cls, kwargs, input_shape=shape, expected_output_shape=shape,
                   expected_num_trainable_weights=0, expected_num_non_trainable_weights=0)


# ------------------------------------------------------------ SpatialDropout
@pytest.mark.parametrize("layer_cls, data_format, shape, channel_axis", [
    (layers.SpatialDropout1D, None, (64, 5, 16), 2),
    (layers.SpatialDropout2D, "channels_last", (32, 3, 4, 16), 3),
    (layers.SpatialDropout2D, "channels_first", (32, 16, 3, 4), 1),
    (layers.SpatialDropout3D, "channels_last", (32, 2, 3, 2, 16), 4),
    (layers.SpatialDropout3D, "channels_first", (32, 16, 2, 3, 2), 1),
])
def test_spatial_dropout_drops_whole_feature_maps(layer_cls, data_format, shape, channel_axis, rng):
    rate = 0.4
    kwargs = {} if data_format is None else {"data_format": data_format}
    layer = layer_cls(rate, seed=5, **kwargs)
    x = rng.uniform(0.5, 1.5, shape).astype("float32")
    np.testing.assert_array_equal(layer(x), x)  # inference: the identity
    factor = np.asarray(layer(x, training=True)) / x
    # One factor per (sample, channel), the same at every spatial position.
    per_map = np.moveaxis(factor, channel_axis, 1).reshape(shape[0], shape[channel_axis], -1)
    np.testing.assert_allclose(per_map, per_map[:, :, :1].repeat(per_map.shape[2], axis=2),
                               rtol=1e-6)
    kept = per_map[:, :, 0]
    assert np.all((kept == 0) | np.isclose(kept, 1 / (1 - rate), rtol=1e-6))
    maps = kept.size
    assert abs((kept == 0).mean() - rate) < 5 * math.sqrt(rate * (1 - rate) / maps)


def test_spatial_dropout_configs_have_keras_keys_and_round_trip():
    one = layers.SpatialDropout1D(0.2, seed=3, name="sd")
    assert one.get_config() == {"name": "sd", "dtype": "float32", "rate": 0.2, "seed": 3}
    three = layers.SpatialDropout3D(0.1, data_format="channels_first")
    assert set(three.get_config()) == {"name", "dtype", "rate", "seed", "data_format"}
    clone = layers.deserialize(layers.serialize(three))
    assert isinstance(clone, layers.SpatialDropout3D) and clone.data_format == "channels_first"
    x = np.ones((1, 2, 2, 2, 2), "float32")
    np.testing.assert_array_equal(clone(x), x)


def test_spatial_dropout_checks_the_input_rank():
    with pytest.raises(ValueError, match="ndim"):
        layers.SpatialDropout2D(0.5)(np.ones((2, 3, 4), "float32"))


# ----------------------------------------------------- noise statistics
def test_gaussian_noise_adds_zero_mean_noise_of_stddev_in_training_only(rng):
    stddev, n = 0.3, 200_000
    x = rng.standard_normal((n // 100, 100)).astype("float32")
    layer = layers.GaussianNoise(stddev, seed=1)
    np.testing.assert_array_equal(layer(x), x)
    noise = (np.asarray(layer(x, training=True)) - x).astype("float64")
    assert abs(noise.mean()) < 5 * stddev / math.sqrt(n)
    # The sample variance of a normal has standard error sigma**2 * sqrt(2 / n).
    assert abs(noise.var() - stddev ** 2) < 5 * stddev ** 2 * math.sqrt(2 / n)


def test_gaussian_dropout_multiplies_by_noise_of_mean_one(rng):
    rate, n = 0.3, 200_000
    stddev = math.sqrt(rate / (1 - rate))
    x = rng.uniform(0.5, 2.0, (n // 100, 100)).astype("float32")
    layer = layers.GaussianDropout(rate, seed=2)
    np.testing.assert_array_equal(layer(x), x)
    factor = (np.asarray(layer(x, training=True)) / x).astype("float64")
    assert abs(factor.mean() - 1) < 5 * stddev / math.sqrt(n)
    assert abs(factor.var() - stddev ** 2) < 5 * stddev ** 2 * math.sqrt(2 / n)


def _alpha_dropout_affine(rate):
    a = ((1 - rate) * (1 + rate * ALPHA_PRIME ** 2)) ** -0.5
    return a, -a * ALPHA_PRIME * rate


def test_alpha_dropout_sets_dropped_units_to_the_saturation_value_then_maps_affinely(rng):
    rate = 0.25
    a, b = _alpha_dropout_affine(rate)
    x = rng.standard_normal((400, 50)).astype("float32")
    layer = layers.AlphaDropout(rate, seed=3)
    np.testing.assert_array_equal(layer(x), x)
    out = np.asarray(layer(x, training=True)).astype("float64")
    dropped = np.isclose(out, a * ALPHA_PRIME + b, rtol=0, atol=1e-6)
    np.testing.assert_allclose(out[~dropped], a * x[~dropped] + b, rtol=1e-5, atol=1e-6)
    assert abs(dropped.mean() - rate) < 5 * math.sqrt(rate * (1 - rate) / x.size)


def test_alpha_dropout_keeps_mean_zero_and_variance_one(rng):
    rate, n = 0.2, 400_000
    a, b = _alpha_dropout_affine(rate)
    x = rng.standard_normal((n // 100, 100)).astype("float32")
    out = np.asarray(layers.AlphaDropout(rate, seed=4)(x, training=True)).astype("float64")
    # The output mixes N(b, a**2) (kept, weight 1 - rate) and the constant
    # c = a * alpha' + b (dropped); its mean is 0 and its variance 1, and
    # its fourth moment gives the standard error of the sample variance.
    c = a * ALPHA_PRIME + b
    fourth = (1 - rate) * (b ** 4 + 6 * a ** 2 * b ** 2 + 3 * a ** 4) + rate * c ** 4
    assert abs(out.mean()) < 5 / math.sqrt(n)
    assert abs(out.var() - 1) < 5 * math.sqrt((fourth - 1) / n)


def test_alpha_dropout_noise_shape_shares_the_mask_along_broadcast_axes():
    layer = layers.AlphaDropout(0.5, noise_shape=(None, 1, 6), seed=6)
    x = np.zeros((8, 5, 6), "float32")
    out = np.asarray(layer(x, training=True))
    np.testing.assert_array_equal(out, np.broadcast_to(out[:, :1], out.shape))
    assert len(np.unique(out)) == 2


@pytest.mark.parametrize("layer_cls", [layers.GaussianNoise, layers.GaussianDropout,
                                       layers.AlphaDropout, layers.SpatialDropout1D])
def test_zero_rate_or_stddev_is_the_identity_in_training(layer_cls, rng):
    x = rng.standard_normal((2, 3, 4)).astype("float32")
    np.testing.assert_array_equal(layer_cls(0.0)(x, training=True), x)


# ----------------------------------------------------------- reproducibility
RANDOM_LAYERS = [
    (layers.SpatialDropout1D, (0.5,), (4, 3, 8)),
    (layers.SpatialDropout2D, (0.5,), (4, 2, 3, 8)),
    (layers.SpatialDropout3D, (0.5,), (4, 2, 2, 2, 8)),
    (layers.GaussianNoise, (0.5,), (4, 8)),
    (layers.GaussianDropout, (0.5,), (4, 8)),
    (layers.AlphaDropout, (0.5,), (4, 8)),
]


@pytest.mark.parametrize("layer_cls, args, shape", RANDOM_LAYERS)
def test_the_same_seed_gives_the_same_noise(layer_cls, args, shape):
    x = np.ones(shape, "float32")

    def draws(layer):
        return [np.asarray(layer(x, training=True)) for _ in range(2)]

    first, again = draws(layer_cls(*args, seed=11)), draws(layer_cls(*args, seed=11))
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first[0], first[1])  # a fresh draw at every call
    assert not np.array_equal(first[0], draws(layer_cls(*args, seed=12))[0])


@pytest.mark.parametrize("layer_cls, args, shape", RANDOM_LAYERS)
def test_without_a_seed_the_global_seed_makes_noise_reproducible(layer_cls, args, shape):
    x = np.ones(shape, "float32")

    def draw(global_seed):
        hikeras.utils.set_random_seed(global_seed)
        return np.asarray(layer_cls(*args)(x, training=True))

    np.testing.assert_array_equal(draw(5), draw(5))
    assert not np.array_equal(draw(5), draw(6))


# ------------------------------------------------------ ActivityRegularization
def test_activity_regularization_adds_the_penalty_per_sample():
    x = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]], "float32")
    layer = layers.ActivityRegularization(l1=0.1, l2=0.5)
    np.testing.assert_array_equal(layer(x), x)
    # (0.1 * 7.5 + 0.5 * 15.25) / 2 samples, as Keras 3.15 (which divides by the batch size).
    [loss] = layer.losses
    np.testing.assert_allclose(float(loss), (0.1 * 7.5 + 0.5 * 15.25) / 2, rtol=1e-6)
    unpenalised = layers.ActivityRegularization()  # Keras's defaults: l1 = l2 = 0
    unpenalised(x)
    assert [float(v) for v in unpenalised.losses] == [0.0]


def test_activity_regularization_penalty_reaches_the_training_loss(rng):
    x = rng.standard_normal((4, 3)).astype("float32")
    model = hikeras.Sequential([hikeras.Input((3,)),
                                layers.ActivityRegularization(l1=0.1, l2=0.5)])
    model.compile(optimizer="sgd", loss="mse")
    penalty = (0.1 * np.abs(x).sum() + 0.5 * np.square(x).sum()) / len(x)
    # The targets equal the outputs, so the whole loss is the penalty.
    np.testing.assert_allclose(model.evaluate(x, x, verbose=0), penalty, rtol=1e-5)
    np.testing.assert_allclose(model.train_on_batch(x, x), penalty, rtol=1e-5)


def test_activity_regularization_config_has_keras_keys():
    config = layers.ActivityRegularization(l1=0.25).get_config()
    assert {k: config[k] for k in ("l1", "l2")} == {"l1": 0.25, "l2": 0.0}
    assert "activity_regularizer" not in config


# ------------------------------------------------------------- masks, errors
@pytest.mark.parametrize("layer", [
    layers.SpatialDropout1D(0.5), layers.GaussianNoise(0.1), layers.GaussianDropout(0.1),
    layers.AlphaDropout(0.1), layers.ActivityRegularization(l2=0.1),
])
def test_the_mask_passes_through(layer):
    inputs = hikeras.Input((4,), dtype="int32")
    outputs = layer(layers.Embedding(5, 3, mask_zero=True)(inputs))
    model = hikeras.Model(inputs, outputs)
    ids = np.array([[3, 1, 0, 0], [2, 0, 2, 4]])
    np.testing.assert_array_equal(model.compute_mask(ids), ids != 0)


@pytest.mark.parametrize("make, match", [
    (lambda: layers.SpatialDropout1D(1.0), r"SpatialDropout1D.*Received: rate=1\.0"),
    (lambda: layers.SpatialDropout2D(-0.1), r"SpatialDropout2D.*Received: rate=-0\.1"),
    (lambda: layers.SpatialDropout3D("0.5"), r"SpatialDropout3D.*Received: rate='0\.5'"),
    (lambda: layers.GaussianDropout(1), r"GaussianDropout.*Received: rate=1"),
    (lambda: layers.AlphaDropout(float("nan")), r"AlphaDropout.*Received: rate=nan"),
    (lambda: layers.Dropout(True), r"Dropout.*Received: rate=True"),
    (lambda: layers.GaussianNoise(-0.5), r"GaussianNoise.*Received: stddev=-0\.5"),
    (lambda: layers.GaussianNoise(float("inf")), r"GaussianNoise.*Received: stddev=inf"),
    (lambda: layers.ActivityRegularization(l1=-1.0), r"ActivityRegularization.*Received: l1=-1"),
    (lambda: layers.SpatialDropout2D(0.5, data_format="nhwc"), "data_format='nhwc'"),
])
def test_invalid_arguments(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_spatial_dropout1d_takes_no_data_format_as_keras():
    with pytest.raises(TypeError, match="data_format"):
        layers.SpatialDropout1D(0.5, data_format="channels_first")


