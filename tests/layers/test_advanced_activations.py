"""Activation layers: ReLU, LeakyReLU, PReLU, ELU, Softmax."""


import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test


@pytest.mark.parametrize("layer_cls, kwargs, trainable", [
    (layers.ReLU, {}, 0),
    (layers.ReLU, {"max_value": 1.0, "negative_slope": 0.1, "threshold": 0.5}, 0),
    (layers.LeakyReLU, {}, 0),
    (layers.LeakyReLU, {"negative_slope": 0.05}, 0),
    (layers.ELU, {"alpha": 0.5}, 0),
    (layers.Softmax, {}, 0),
    (layers.Softmax, {"axis": 1}, 0),
    (layers.Softmax, {"axis": [1, 2]}, 0),
    (layers.PReLU, {}, 1),
    (layers.PReLU, {"alpha_initializer": "ones", "shared_axes": [1]}, 1),
])
def test_activation_harness(layer_cls, kwargs, trainable):
    run_layer_test(layer_cls, kwargs, input_shape=(2, 3, 4), expected_output_shape=(2, 3, 4),
                   expected_num_trainable_weights=trainable,
                   expected_num_non_trainable_weights=0)


def _x(rng):
    return rng.uniform(-3, 3, size=(4, 5)).astype("float32")


def test_relu_options_follow_the_keras_formula(rng):
    x = _x(rng).astype("float64")
    out = layers.ReLU(max_value=2.0, negative_slope=0.1, threshold=0.5)(x)
    expected = np.where(x >= 2.0, 2.0, np.where(x > 0.5, x, 0.1 * (x - 0.5)))
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_leaky_relu_default_and_keras2_alpha(rng):
    x = _x(rng)
    np.testing.assert_allclose(layers.LeakyReLU()(x), np.where(x > 0, x, 0.3 * x), rtol=1e-6)
    keras2 = layers.LeakyReLU(alpha=0.1)
    np.testing.assert_allclose(keras2(x), np.where(x > 0, x, 0.1 * x), rtol=1e-6)
    assert keras2.get_config()["negative_slope"] == 0.1
    restored = layers.deserialize({"class_name": "LeakyReLU",
                                   "config": {"alpha": 0.2, "name": "leaky"}})
    assert restored.negative_slope == 0.2


def test_prelu_learns_per_channel_slopes(rng):
    x = rng.normal(size=(2, 3, 3, 4)).astype("float32")
    layer = layers.PReLU(shared_axes=[1, 2])
    layer(x)
    assert layer.alpha.shape == (1, 1, 4)
    alpha = rng.uniform(0.1, 0.5, (1, 1, 4))
    layer.set_weights([alpha])
    np.testing.assert_allclose(layer(x), np.where(x > 0, x, alpha * x), rtol=1e-6)
    with pytest.raises(ValueError, match="shared axis 4"):
        layers.PReLU(shared_axes=4)(x)


def test_elu_values(rng):
    x = _x(rng).astype("float64")
    np.testing.assert_allclose(layers.ELU(alpha=0.5)(x),
                               np.where(x > 0, x, 0.5 * (np.exp(x) - 1)), rtol=1e-6)


def test_softmax_over_several_axes_and_with_a_mask(rng):
    x = rng.normal(size=(2, 3, 4))
    out = layers.Softmax(axis=[1, 2])(x)
    np.testing.assert_allclose(out, np.exp(x) / np.exp(x).sum(axis=(1, 2), keepdims=True),
                               rtol=1e-6)
    mask = rng.uniform(size=(2, 3, 4)) > 0.3
    mask[..., 0] = True  # no row fully masked: the reference below would divide 0 by 0
    masked = layers.Softmax()(x, mask=mask)
    expected = np.where(mask, np.exp(x), 0)
    expected /= expected.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(masked, expected, rtol=1e-6, atol=1e-12)


def test_softmax_mask_in_a_functional_model():
    logits, mask = hikeras.Input((4,)), hikeras.Input((4,), dtype="bool")
    model = hikeras.Model([logits, mask], layers.Softmax()(logits, mask=mask))
    out = model.predict([np.zeros((1, 4), "float32"), np.array([[1, 1, 0, 1]], bool)],
                        verbose=0)
    np.testing.assert_allclose(out, [[1 / 3, 1 / 3, 0, 1 / 3]], rtol=1e-6)


@pytest.mark.parametrize("make", [
    lambda: layers.ReLU(max_value=-1.0),
    lambda: layers.ReLU(negative_slope=-0.1),
    lambda: layers.ReLU(threshold=None),
    lambda: layers.LeakyReLU(negative_slope=-1),
])
def test_negative_arguments_are_rejected(make):
    with pytest.raises(ValueError, match="non-negative.*Received"):
        make()


