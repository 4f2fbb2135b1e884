"""OptimizerMap and MultiOptimizer: each variable stepped by its own optimizer."""

import numpy as np
import pytest

import hikeras
from hikeras import layers, optimizers


def model_and_data(rng):
    inputs = hikeras.Input((3,))
    hidden = layers.Dense(4, name="encoder")(inputs)
    model = hikeras.Model(inputs, layers.Dense(1, name="head")(hidden))
    return model, rng.standard_normal((16, 3)), rng.standard_normal((16, 1))


def test_map_lookup_exact_then_pattern_then_default():
    adam, sgd, rms = optimizers.Adam(), optimizers.SGD(), optimizers.RMSprop()
    mapping = optimizers.OptimizerMap(rms, {"encoder/kernel": adam, "encoder/.*": sgd})
    assert mapping["encoder/kernel"] is adam
    assert mapping["encoder/bias"] is sgd
    assert mapping["head/kernel"] is rms
    mapping["head/.*"] = adam
    with pytest.raises(ValueError, match="already exists"):
        mapping["head/.*"] = sgd
    mapping["h.*"] = sgd
    with pytest.raises(ValueError, match="Multiple optimizers"):
        mapping["head/bias"]
    with pytest.raises(TypeError, match="cannot be a LossScaleOptimizer"):
        mapping["x"] = optimizers.LossScaleOptimizer(optimizers.SGD())


def test_each_variable_moves_as_its_optimizer_alone_would(rng):
    model, x, y = model_and_data(rng)
    reference, _, _ = model_and_data(rng)
    reference.set_weights(model.get_weights())
    frozen_lr = optimizers.SGD(0.0)
    model.compile(optimizers.MultiOptimizer(
        optimizers.OptimizerMap(optimizers.SGD(0.1), {"encoder/.*": frozen_lr})), "mse")
    before = [w.value.copy() for w in model.get_layer("encoder").weights]
    model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    for w, b in zip(model.get_layer("encoder").weights, before):
        np.testing.assert_array_equal(w.value, b)  # its optimizer's rate is 0
    assert not np.array_equal(model.get_layer("head").kernel.value,
                              reference.get_layer("head").kernel.value)
    assert int(model.optimizer.iterations) == 2
    assert int(frozen_lr.iterations) == 2
    with pytest.raises(AttributeError, match="no learning rate of its own"):
        model.optimizer.learning_rate  # noqa: B018


def test_config_round_trip():
    multi = optimizers.MultiOptimizer(optimizers.OptimizerMap(
        optimizers.Adam(0.01), {"encoder/.*": optimizers.SGD(0.5)}), name="multi")
    again = optimizers.deserialize(optimizers.serialize(multi))
    assert isinstance(again, optimizers.MultiOptimizer) and again.name == "multi"
    assert [type(o).__name__ for o in again.optimizers] == ["SGD", "Adam"]
    assert again.optimizers[0].learning_rate == 0.5
    with pytest.raises(TypeError, match="callable map cannot"):
        optimizers.MultiOptimizer(lambda v: optimizers.SGD()).get_config()
    with pytest.raises(TypeError, match="Received: optimizer_map=3"):
        optimizers.MultiOptimizer(3)
