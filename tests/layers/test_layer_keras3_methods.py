"""Keras 3 Layer methods: build configs, stateless_call, quantize."""

import numpy as np
import pytest

from hikeras import layers


def test_build_config_round_trip():
    dense = layers.Dense(2)
    assert dense.get_build_config() is None
    dense(np.ones((5, 3), "float32"))
    assert dense.get_build_config() == {"input_shape": (None, 3)}
    again = layers.Dense(2)
    again.build_from_config(dense.get_build_config())
    assert again.built and [w.shape for w in again.weights] == [(3, 2), (2,)]
    built_by_hand = layers.Dense(2)
    built_by_hand.build((None, 4))
    assert built_by_hand.get_build_config() == {"input_shape": (None, 4)}
    layers.Dense(2).build_from_config(None)  # nothing to build
    with pytest.raises(ValueError, match="Received: config={'shape': 3}"):
        layers.Dense(2).build_from_config({"shape": 3})


def test_stateless_call_uses_given_values_and_keeps_its_own(rng):
    bn = layers.BatchNormalization(momentum=0.5)
    x = rng.standard_normal((8, 3)).astype("float32")
    bn(x)
    before = [np.copy(v.value) for v in bn.weights]
    gamma, beta = np.full(3, 2.0, "float32"), np.ones(3, "float32")
    moving = [np.copy(v.value) for v in bn.non_trainable_variables]
    out, new_moving = bn.stateless_call([gamma, beta], moving, x, training=True)
    expected = 2.0 * (x - x.mean(0)) / np.sqrt(x.var(0) + bn.epsilon) + 1.0
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(new_moving[0], 0.5 * x.mean(0), rtol=1e-5)
    for v, b in zip(bn.weights, before):
        np.testing.assert_array_equal(v.value, b)
    with pytest.raises(ValueError, match="has 2 trainable_variables. Received: 1 values"):
        bn.stateless_call([gamma], moving, x)


def test_stateless_call_returns_losses():
    dense = layers.Dense(1, kernel_initializer="ones", activity_regularizer="l2")
    dense(np.ones((1, 2), "float32"))
    weights = [np.full((2, 1), 3.0, "float32"), np.zeros(1, "float32")]
    out, _, losses = dense.stateless_call(weights, [], np.ones((1, 2), "float32"),
                                          return_losses=True)
    np.testing.assert_allclose(out, [[6.0]])
    assert float(losses[0]) == pytest.approx(0.01 * 36.0)


def test_quantize_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="Quantization is not supported.*int8"):
        layers.Dense(2).quantize("int8")
