"""LossScaleOptimizer: the scale is undone exactly, bad steps are skipped, the scale adapts."""

import numpy as np
import pytest

import hikeras
from hikeras import layers, mixed_precision, optimizers
from hikeras.variables import Variable


def trained_kernel(optimizer, x, y):
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2, kernel_initializer="ones")])
    model.compile(optimizer, "mse")
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return model.layers[-1].kernel.value


@pytest.mark.parametrize("make", [
    lambda: optimizers.LossScaleOptimizer(optimizers.SGD(0.1), initial_scale=2.0 ** 10,
                                          dynamic_growth_steps=3),
    lambda: optimizers.SGD(0.1, loss_scale_factor=8.0),
])
def test_fit_with_a_scaled_loss_matches_plain_training(rng, make):
    x, y = rng.standard_normal((16, 3)), rng.standard_normal((16, 2))
    np.testing.assert_allclose(trained_kernel(make(), x, y),
                               trained_kernel(optimizers.SGD(0.1), x, y), rtol=1e-5)


def test_scale_grows_after_finite_steps_and_halves_on_overflow():
    w = Variable(np.array([1.0], "float32"))
    lso = optimizers.LossScaleOptimizer(optimizers.SGD(1.0), initial_scale=8.0,
                                        dynamic_growth_steps=2)
    assert lso.scale_loss(1.0) == 8.0
    lso.apply([np.array([8.0], "float32")], [w])  # unscaled: 1.0
    np.testing.assert_allclose(w.value, [0.0])
    lso.apply([np.array([8.0], "float32")], [w])  # second finite step: scale doubles
    assert float(lso.dynamic_scale.value) == 16.0
    lso.apply([np.array([np.inf], "float32")], [w])  # skipped, scale halves
    np.testing.assert_allclose(w.value, [-1.0])
    assert float(lso.dynamic_scale.value) == 8.0
    assert int(lso.iterations) == 2


def test_config_round_trip_and_learning_rate():
    lso = optimizers.LossScaleOptimizer(optimizers.Adam(0.01), initial_scale=4.0, name="lso")
    again = optimizers.deserialize(optimizers.serialize(lso))
    assert isinstance(again.inner_optimizer, optimizers.Adam)
    assert (again.initial_scale, again.name, again.learning_rate) == (4.0, "lso", 0.01)
    again.learning_rate = 0.5
    assert again.inner_optimizer.learning_rate == 0.5
    assert mixed_precision.LossScaleOptimizer is optimizers.LossScaleOptimizer


def test_bad_arguments():
    with pytest.raises(TypeError, match="Received: inner_optimizer=.sgd."):
        optimizers.LossScaleOptimizer("sgd")
    with pytest.raises(ValueError, match="Received: dynamic_growth_steps=0"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), dynamic_growth_steps=0)
    with pytest.raises(ValueError, match="Received: initial_scale=-1"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), initial_scale=-1)
