"""Normalisation layers: BatchNormalization, LayerNormalization, GroupNormalization,
UnitNormalization, RMSNormalization."""


import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test


def _data(rng, *shape, loc=0.0, scale=1.0):
    return rng.normal(loc, scale, size=shape).astype("float32")


# ------------------------------------------------------------------ harness
@pytest.mark.parametrize("kwargs, shape, trainable", [
    ({}, (4, 3), 2),
    ({"axis": 1}, (3, 2, 4), 2),
    ({"center": False}, (4, 3), 1),
    ({"scale": False, "momentum": 0.5}, (2, 3, 3, 2), 1),
])
def test_batch_normalization_harness(kwargs, shape, trainable):
    layer = run_layer_test(layers.BatchNormalization, kwargs, input_shape=shape,
                           expected_output_shape=shape,
                           expected_num_trainable_weights=trainable,
                           expected_num_non_trainable_weights=2,
                           non_trainable_may_change=True)
    names = [w.name for w in layer.weights]
    expected = ["gamma"] * ("scale" not in kwargs) + ["beta"] * ("center" not in kwargs)
    assert names == expected + ["moving_mean", "moving_variance"]


@pytest.mark.parametrize("kwargs, shape, trainable", [
    ({}, (3, 4), 2),
    ({"axis": [1, 2]}, (2, 3, 4), 2),
    ({"axis": 1}, (2, 3, 4), 2),
    ({"center": False}, (3, 4), 1),
    ({"scale": False}, (3, 4), 1),
    ({"rms_scaling": True}, (3, 4), 1),
])
def test_layer_normalization_harness(kwargs, shape, trainable):
    run_layer_test(layers.LayerNormalization, kwargs, input_shape=shape,
                   expected_output_shape=shape, expected_num_trainable_weights=trainable,
                   expected_num_non_trainable_weights=0)


@pytest.mark.parametrize("kwargs, shape", [
    ({"groups": 2}, (2, 3, 4)),
    ({"groups": -1}, (2, 3, 4)),
    ({"groups": 3, "axis": 1}, (2, 6, 2, 2)),
    ({"groups": 1, "center": False}, (3, 4)),
])
def test_group_normalization_harness(kwargs, shape):
    run_layer_test(layers.GroupNormalization, kwargs, input_shape=shape,
                   expected_output_shape=shape,
                   expected_num_trainable_weights=1 if "center" in kwargs else 2,
                   expected_num_non_trainable_weights=0)


@pytest.mark.parametrize("kwargs, shape", [({}, (3, 4)), ({"axis": [1, 2]}, (2, 3, 4))])
def test_unit_normalization_harness(kwargs, shape):
    run_layer_test(layers.UnitNormalization, kwargs, input_shape=shape,
                   expected_output_shape=shape, expected_num_trainable_weights=0)


@pytest.mark.parametrize("kwargs, shape", [
    ({}, (3, 4)),
    ({"axis": [1, 2], "epsilon": 0.1}, (2, 3, 4)),
    ({"axis": 1}, (2, 3, 4)),
    ({"axis": [-1, -3]}, (2, 3, 2, 4)),
])
def test_rms_normalization_harness(kwargs, shape):
    layer = run_layer_test(layers.RMSNormalization, kwargs, input_shape=shape,
                           expected_output_shape=shape, expected_num_trainable_weights=1,
                           expected_num_non_trainable_weights=0)
    assert [w.name for w in layer.weights] == ["scale"]


# ------------------------------------------------------- BatchNormalization
def _set_random_affine(rng, layer, channels):
    gamma = rng.uniform(0.5, 2.0, channels).astype("float32")
    beta = rng.normal(size=channels).astype("float32")
    layer.gamma.assign(gamma)
    layer.beta.assign(beta)
    return gamma.astype("float64"), beta.astype("float64")


def test_batch_normalization_training_uses_batch_statistics_and_updates_moving_ones(rng):
    x = _data(rng, 16, 3, loc=2.0, scale=3.0)
    layer = layers.BatchNormalization(momentum=0.9)
    layer.build((None, 3))
    gamma, beta = _set_random_affine(rng, layer, 3)
    x64 = x.astype("float64")
    moving_mean, moving_var = np.zeros(3), np.ones(3)
    for step in range(2):
        batch = x64 + step  # a second, shifted batch
        out = layer(batch.astype("float32"), training=True)
        mean = batch.sum(axis=0) / 16
        var = ((batch - mean) ** 2).sum(axis=0) / 16  # biased, as Keras
        expected = gamma * (batch - mean) / np.sqrt(var + 1e-3) + beta
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
        moving_mean = 0.9 * moving_mean + 0.1 * mean
        moving_var = 0.9 * moving_var + 0.1 * var
        np.testing.assert_allclose(layer.moving_mean.numpy(), moving_mean, rtol=1e-6)
        np.testing.assert_allclose(layer.moving_variance.numpy(), moving_var, rtol=1e-6)


def test_batch_normalization_inference_uses_moving_statistics(rng):
    x = _data(rng, 5, 2, 2, 4)
    layer = layers.BatchNormalization(epsilon=0.01)
    layer.build((None, 2, 2, 4))
    gamma, beta = _set_random_affine(rng, layer, 4)
    mean, var = rng.normal(size=4), rng.uniform(0.5, 3.0, 4)
    layer.moving_mean.assign(mean)
    layer.moving_variance.assign(var)
    before = [w.copy() for w in layer.get_weights()]
    expected = gamma * (x - mean) / np.sqrt(var + 0.01) + beta
    for training in (None, False):
        np.testing.assert_allclose(layer(x, training=training), expected, rtol=1e-5, atol=1e-5)
    for w, b in zip(layer.get_weights(), before):
        np.testing.assert_array_equal(w, b)


def test_batch_normalization_channels_first_statistics_are_per_channel(rng):
    x = _data(rng, 4, 3, 2, 2, loc=1.0)
    layer = layers.BatchNormalization(axis=1, center=False, scale=False)
    out = layer(x, training=True)
    np.testing.assert_allclose(out.mean(axis=(0, 2, 3)), 0, atol=1e-5)
    var = x.astype("float64").var(axis=(0, 2, 3))
    np.testing.assert_allclose(out.astype("float64").var(axis=(0, 2, 3)),
                               var / (var + 1e-3), rtol=1e-4)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.01 * x.mean(axis=(0, 2, 3)),
                               rtol=1e-5)


def test_batch_normalization_in_fit_updates_moving_statistics(rng):
    x, y = _data(rng, 32, 4, loc=5.0), _data(rng, 32, 1)
    model = hikeras.Sequential([hikeras.Input((4,)), layers.BatchNormalization(),
                                layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False)
    bn = model.layers[0]
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.01 * x.mean(axis=0), rtol=1e-5)


def _frozen_bn_setup(rng):
    hikeras.utils.set_random_seed(7)
    base = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(6),
                               layers.BatchNormalization(), layers.Dense(3)], name="base")
    x, y = _data(rng, 64, 4, loc=3.0, scale=2.0), _data(rng, 64, 1)
    base.compile(optimizer="adam", loss="mse")
    base.fit(x, rng.normal(size=(64, 3)).astype("float32"), epochs=2, verbose=0)
    return base, x, y


def test_frozen_batch_normalization_is_bit_identical_through_fit(rng):
    base, x, y = _frozen_bn_setup(rng)
    bn = base.layers[1]
    bn.trainable = False
    model = hikeras.Sequential([hikeras.Input((4,)), base.layers[0], bn, base.layers[2],
                                layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    frozen = [w.copy() for w in bn.get_weights()]
    others = [w.copy() for w in base.layers[0].get_weights()]
    # A frozen BN runs in inference mode even when the model is training.
    hidden = base.layers[0](x)
    np.testing.assert_array_equal(bn(hidden, training=True), bn(hidden, training=False))
    model.fit(x, y, batch_size=16, epochs=2, verbose=0)
    assert len(bn.get_weights()) == 4
    for before, after in zip(frozen, bn.get_weights()):
        assert np.array_equal(before, after)
    assert not all(np.array_equal(b, a) for b, a in zip(others, base.layers[0].get_weights()))


def test_frozen_nested_base_model_keeps_every_batch_normalization_weight(rng):
    base, x, y = _frozen_bn_setup(rng)
    base.trainable = False
    inputs = hikeras.Input((4,))
    model = hikeras.Model(inputs, layers.Dense(1)(base(inputs)))
    model.compile(optimizer="sgd", loss="mse")
    before = [w.copy() for w in base.get_weights()]
    model.fit(x, y, batch_size=16, epochs=2, verbose=0)
    for b, a in zip(before, base.get_weights()):
        assert np.array_equal(b, a)
    assert len(model.trainable_weights) == 2


def test_batch_normalization_accepts_keras2_config():
    config = {"class_name": "BatchNormalization",
              "config": {"name": "bn", "axis": [3], "momentum": 0.9, "fused": True,
                         "renorm": False, "virtual_batch_size": None, "trainable": True}}
    layer = layers.deserialize(config)
    assert layer.axis == 3 and layer.momentum == 0.9
    with pytest.raises(ValueError, match="renorm"):
        layers.BatchNormalization(renorm=True)


def test_batch_normalization_rejects_unknown_feature_size():
    with pytest.raises(ValueError, match="known size"):
        layers.BatchNormalization()(hikeras.Input((None,)))


# ------------------------------------------------------- LayerNormalization
def _layer_norm_reference(x, axes, epsilon, gamma=1.0, beta=0.0):
    x = x.astype("float64")
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + epsilon) + beta


def test_layer_normalization_values(rng):
    x = _data(rng, 3, 2, 5, loc=1.0, scale=4.0)
    layer = layers.LayerNormalization(axis=[1, 2], epsilon=0.01)
    layer.build((None, 2, 5))
    gamma = rng.uniform(0.5, 2.0, (2, 5))
    beta = rng.normal(size=(2, 5))
    layer.set_weights([gamma, beta])
    np.testing.assert_allclose(layer(x), _layer_norm_reference(x, (1, 2), 0.01, gamma, beta),
                               rtol=1e-5, atol=1e-5)


def test_layer_normalization_rms_scaling_follows_keras_variance_formula(rng):
    x = _data(rng, 2, 6, loc=2.0)
    layer = layers.LayerNormalization(rms_scaling=True)
    layer.build((None, 6))
    gamma = rng.uniform(0.5, 2.0, 6)
    layer.set_weights([gamma])
    x64 = x.astype("float64")
    expected = x64 / np.sqrt(x64.var(axis=-1, keepdims=True) + 1e-3) * gamma
    np.testing.assert_allclose(layer(x), expected, rtol=1e-5)


# ------------------------------------------------------- GroupNormalization
def test_group_normalization_values_match_a_per_group_loop(rng):
    x = _data(rng, 2, 3, 6, loc=1.0, scale=2.0)
    layer = layers.GroupNormalization(groups=3, epsilon=0.01)
    layer.build((None, 3, 6))
    gamma, beta = rng.uniform(0.5, 2.0, 6), rng.normal(size=6)
    layer.set_weights([gamma, beta])
    expected = np.empty((2, 3, 6))
    for n in range(2):
        for g in range(3):
            block = x[n, :, 2 * g:2 * g + 2].astype("float64")
            expected[n, :, 2 * g:2 * g + 2] = (block - block.mean()) / np.sqrt(block.var() + 0.01)
    expected = expected * gamma + beta
    np.testing.assert_allclose(layer(x), expected, rtol=1e-5, atol=1e-5)


def test_group_normalization_with_one_group_per_channel_is_instance_normalization(rng):
    x = _data(rng, 2, 4, 3)
    layer = layers.GroupNormalization(groups=-1, center=False, scale=False)
    np.testing.assert_allclose(layer(x), _layer_norm_reference(x, 1, 1e-3), rtol=1e-5,
                               atol=1e-5)
    assert layer.get_config()["groups"] == 3


@pytest.mark.parametrize("groups", [4, 5])
def test_group_normalization_rejects_groups_that_do_not_divide_channels(groups):
    with pytest.raises(ValueError, match=r"'gn'.*3 channels.*groups=" + str(groups)):
        layers.GroupNormalization(groups=groups, name="gn")(np.zeros((1, 3), "float32"))


# ------------------------------------------------------- UnitNormalization
def test_unit_normalization_values_and_zero_vector(rng):
    x = np.array([[3.0, 4.0], [0.0, 0.0]], "float32")
    out = layers.UnitNormalization()(x)
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
    x3 = _data(rng, 2, 3, 4)
    out3 = layers.UnitNormalization(axis=[1, 2])(x3)
    np.testing.assert_allclose(np.sum(out3.astype("float64") ** 2, axis=(1, 2)), 1, rtol=1e-5)


# ------------------------------------------------------- RMSNormalization
def _rms_reference(x, axes, epsilon, scale):
    x = x.astype("float64")
    return x / np.sqrt(np.mean(x ** 2, axis=axes, keepdims=True) + epsilon) * scale


@pytest.mark.parametrize("axis, axes, scale_shape, broadcast", [
    (-1, (2,), (5,), (5,)),
    ([1, 2], (1, 2), (3, 5), (3, 5)),
    ([2, 1], (1, 2), (3, 5), (3, 5)),  # the scale follows the sorted axes, as Keras
    (1, (1,), (3,), (3, 1)),
])
def test_rms_normalization_values(axis, axes, scale_shape, broadcast, rng):
    x = _data(rng, 4, 3, 5, loc=0.5, scale=2.0)
    layer = layers.RMSNormalization(axis=axis, epsilon=0.01)
    layer.build((None, 3, 5))
    np.testing.assert_array_equal(layer.scale.numpy(), np.ones(scale_shape))  # initial value
    scale = rng.uniform(-2.0, 2.0, scale_shape)
    layer.set_weights([scale])
    expected = _rms_reference(x, axes, 0.01, scale.reshape(broadcast))
    np.testing.assert_allclose(layer(x), expected, rtol=1e-5, atol=1e-6)
    assert layer.get_config()["axis"] == axis


def test_rms_normalization_does_not_centre_and_uses_keras_default_epsilon():
    x = np.array([[1.0, 7.0], [2.0, 2.0]], "float32")  # root mean squares 5 and 2
    out = layers.RMSNormalization()(x)
    np.testing.assert_allclose(out, [[1 / 5, 7 / 5], [1.0, 1.0]], rtol=1e-6)
    tiny = np.full((1, 4), 1e-4, "float32")  # mean square 1e-8, against epsilon 1e-6
    np.testing.assert_allclose(layers.RMSNormalization()(tiny), tiny / np.sqrt(1e-8 + 1e-6),
                               rtol=1e-5)


def test_rms_normalization_ends_the_mask_as_keras():
    inputs = hikeras.Input((4,), dtype="int32")
    outputs = layers.RMSNormalization()(layers.Embedding(5, 3, mask_zero=True)(inputs))
    assert outputs._keras_mask is None


