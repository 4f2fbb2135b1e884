"""Lamb: hand-worked steps, the trust ratio's edge cases, errors and config.

Trajectories against real Keras 3 are in `test_keras_golden.py`.
"""

import json
import math

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable


def _reference_steps(w, grads, lr=0.01, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    """Keras 3's Lamb rule in float64, one variable."""
    w = np.array(w, dtype="float64")
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t, g in enumerate(grads, start=1):
        m = beta_1 * m + (1 - beta_1) * g
        v = beta_2 * v + (1 - beta_2) * g * g
        update = (m / (1 - beta_1 ** t)) / (np.sqrt(v / (1 - beta_2 ** t)) + epsilon)
        w_norm, u_norm = np.linalg.norm(w), np.linalg.norm(update)
        ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
        w = w - lr * ratio * update
    return w


def test_first_step_by_hand():
    # Step 1: m_hat = g and v_hat = g**2, so update = g / (|g| + eps) ~ sign(g), of
    # norm sqrt(2); the trust ratio scales it to lr * norm(w) = 0.1 * 5.
    w = Variable(np.array([3.0, 4.0]))
    optimizers.Lamb(learning_rate=0.1).apply([np.array([0.5, -2.0])], [w])
    step = 0.5 / math.sqrt(2.0)
    np.testing.assert_allclose(w.value, [3.0 - step, 4.0 + step], rtol=1e-6)


def test_several_steps_match_the_formula():
    rng = np.random.default_rng(5)
    start = rng.normal(size=(4, 3))
    grads = [rng.normal(size=(4, 3)) * (i + 1) for i in range(6)]
    w = Variable(start.copy())
    opt = optimizers.Lamb(learning_rate=0.02, beta_1=0.8, beta_2=0.95, epsilon=1e-4)
    for g in grads:
        opt.apply([g], [w])
    np.testing.assert_allclose(
        w.value, _reference_steps(start, grads, 0.02, 0.8, 0.95, 1e-4), rtol=1e-12)


def test_each_variable_gets_its_own_trust_ratio():
    big, small = Variable(np.full((2,), 100.0)), Variable(np.full((2,), 0.01))
    optimizers.Lamb(learning_rate=0.1).apply([np.ones(2), np.ones(2)], [big, small])
    # Both move by 10% of their norm, despite equal gradients.
    np.testing.assert_allclose(big.value, [90.0, 90.0], rtol=1e-6)
    np.testing.assert_allclose(small.value, [0.009, 0.009], rtol=1e-6)


def test_zero_weights_or_zero_update_use_a_ratio_of_one():
    w = Variable(np.zeros(3))
    optimizers.Lamb(learning_rate=0.1).apply([np.array([1.0, -1.0, 0.0])], [w])
    np.testing.assert_allclose(w.value, [-0.1, 0.1, 0.0], rtol=1e-6)
    w = Variable(np.array([1.0, 2.0]))
    optimizers.Lamb(learning_rate=0.1).apply([np.zeros(2)], [w])
    np.testing.assert_array_equal(w.value, [1.0, 2.0])


def test_float32_variables_stay_float32():
    w = Variable(np.array([[0.5, -1.0]], dtype="float32"))
    optimizers.Lamb(learning_rate=0.1).apply([np.array([[0.2, 0.3]], dtype="float32")], [w])
    assert w.value.dtype == np.float32


@pytest.mark.parametrize("kwargs, name", [
    ({"beta_1": 1.0}, "beta_1"), ({"beta_1": -0.1}, "beta_1"), ({"beta_2": 1.5}, "beta_2"),
    ({"beta_2": "0.9"}, "beta_2"), ({"epsilon": -1e-7}, "epsilon"),
])
def test_argument_errors(kwargs, name):
    with pytest.raises(ValueError, match="Lamb") as info:
        optimizers.Lamb(**kwargs)
    assert str(info.value).endswith(f"Received: {name}={kwargs[name]!r}")


def test_config_matches_keras_keys_and_round_trips():
    opt = optimizers.Lamb(learning_rate=0.05, beta_1=0.8, epsilon=1e-6, weight_decay=0.01)
    config = opt.get_config()
    assert config["name"] == "lamb"
    assert {k: config[k] for k in ("beta_1", "beta_2", "epsilon")} == {
        "beta_1": 0.8, "beta_2": 0.999, "epsilon": 1e-6}
    rebuilt = optimizers.deserialize(json.loads(json.dumps(optimizers.serialize(opt))))
    assert type(rebuilt) is optimizers.Lamb and rebuilt.get_config() == config
    assert isinstance(optimizers.get("Lamb"), optimizers.Lamb)
