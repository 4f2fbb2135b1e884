"""ScheduleFreeAdamW: hand-worked steps, warmup, slots, errors and config.

Trajectories against real Keras 3 (PyTorch backend) are in `test_keras_golden.py`.
"""

import json

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable


def _reference_steps(w, grads, lr=0.0025, beta_2=0.999, epsilon=1e-8, warmup_steps=0):
    """Keras 3's rule on TensorFlow/PyTorch in float64, one variable."""
    w = np.array(w, dtype="float64")
    z, v = w.copy(), np.zeros_like(w)
    for t, g in enumerate(grads, start=1):
        lr_t = lr * min(t / warmup_steps, 1.0) if warmup_steps else lr
        v = beta_2 * v + (1 - beta_2) * g * g
        z = z - lr_t * g / (np.sqrt(v / (1 - beta_2 ** t)) + epsilon)
        w = (1 - 1 / t) * w + z / t
    return w


def test_two_steps_by_hand():
    # Step 1: v_hat = g**2, so z moves by lr * sign(g), and w = z (weight 1/1).
    # Step 2: w is the mean of the two z's.
    w = Variable(np.array([1.0, -2.0]))
    opt = optimizers.ScheduleFreeAdamW(learning_rate=0.1, epsilon=0.0)
    opt.apply([np.array([0.5, 0.25])], [w])
    np.testing.assert_allclose(w.value, [0.9, -2.1], rtol=1e-12)
    g = np.array([-1.0, 0.5])
    v = 0.999 * 0.001 * np.array([0.25, 0.0625]) + 0.001 * g * g
    z = np.array([0.9, -2.1]) - 0.1 * g / np.sqrt(v / (1 - 0.999 ** 2))
    opt.apply([g], [w])
    np.testing.assert_allclose(w.value, (np.array([0.9, -2.1]) + z) / 2, rtol=1e-12)
    np.testing.assert_allclose(opt.variables[2].value, z, rtol=1e-12)


@pytest.mark.parametrize("kwargs", [{}, {"beta_2": 0.9, "epsilon": 1e-3, "warmup_steps": 4}])
def test_several_steps_match_the_formula(kwargs):
    rng = np.random.default_rng(3)
    start = rng.normal(size=(4, 3))
    grads = [rng.normal(size=(4, 3)) * (i + 1) for i in range(7)]
    w = Variable(start.copy())
    opt = optimizers.ScheduleFreeAdamW(learning_rate=0.05, **kwargs)
    for g in grads:
        opt.apply([g], [w])
    np.testing.assert_allclose(w.value, _reference_steps(start, grads, 0.05, **kwargs),
                               rtol=1e-12)


def test_beta_1_does_not_change_the_steps_as_in_keras_on_torch_and_tensorflow():
    grads = [np.array([0.3, -1.0]), np.array([2.0, 0.5]), np.array([-0.7, 0.1])]
    results = []
    for beta_1 in (0.2, 0.9, 1.0):
        w = Variable(np.array([0.5, 1.5]))
        opt = optimizers.ScheduleFreeAdamW(learning_rate=0.1, beta_1=beta_1)
        for g in grads:
            opt.apply([g], [w])
        results.append(w.value)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)
    np.testing.assert_allclose(results[0], results[2], rtol=1e-12)


def test_warmup_scales_the_first_steps():
    w = Variable(np.array([0.0]))
    opt = optimizers.ScheduleFreeAdamW(learning_rate=0.4, warmup_steps=4, epsilon=0.0)
    opt.apply([np.array([1.0])], [w])
    np.testing.assert_allclose(w.value, [-0.1])  # lr * 1/4


def test_momentum_starts_as_a_copy_of_the_variable_in_keras_order():
    kernel = Variable(np.full((2, 2), 3.0, dtype="float32"), name="kernel", path="d/kernel")
    bias = Variable(np.array([1.0, 2.0], dtype="float32"), name="bias", path="d/bias")
    opt = optimizers.ScheduleFreeAdamW()
    opt.build([kernel, bias])
    assert [v.name for v in opt.variables] == [
        "iteration", "learning_rate", "d_kernel_momentum", "d_kernel_velocity",
        "d_bias_momentum", "d_bias_velocity"]
    np.testing.assert_array_equal(opt.variables[2].value, kernel.value)
    np.testing.assert_array_equal(opt.variables[4].value, bias.value)
    assert opt.variables[2].value is not kernel.value
    np.testing.assert_array_equal(opt.variables[3].value, 0.0)


def test_float32_variables_stay_float32():
    w = Variable(np.array([[0.5, -1.0]], dtype="float32"))
    opt = optimizers.ScheduleFreeAdamW(learning_rate=0.1, warmup_steps=2)
    opt.apply([np.array([[0.2, 0.3]], dtype="float32")], [w])
    assert w.value.dtype == np.float32


@pytest.mark.parametrize("kwargs, name", [
    ({"beta_1": 0.0}, "beta_1"), ({"beta_1": 1.5}, "beta_1"), ({"beta_2": 1.0}, "beta_2"),
    ({"beta_2": "0.9"}, "beta_2"), ({"epsilon": -1e-8}, "epsilon"),
    ({"warmup_steps": -1}, "warmup_steps"), ({"warmup_steps": 2.5}, "warmup_steps"),
])
def test_argument_errors(kwargs, name):
    with pytest.raises(ValueError, match="ScheduleFreeAdamW") as info:
        optimizers.ScheduleFreeAdamW(**kwargs)
    assert str(info.value).endswith(f"Received: {name}={kwargs[name]!r}")


def test_config_matches_keras_keys_and_round_trips():
    opt = optimizers.ScheduleFreeAdamW(learning_rate=0.01, beta_2=0.99, warmup_steps=10,
                                       weight_decay=0.01)
    config = opt.get_config()
    assert config["name"] == "schedule_free_adam_w"
    assert {k: config[k] for k in ("beta_1", "beta_2", "epsilon", "warmup_steps")} == {
        "beta_1": 0.9, "beta_2": 0.99, "epsilon": 1e-8, "warmup_steps": 10}
    rebuilt = optimizers.deserialize(json.loads(json.dumps(optimizers.serialize(opt))))
    assert type(rebuilt) is optimizers.ScheduleFreeAdamW and rebuilt.get_config() == config
    assert isinstance(optimizers.get("schedulefreeadamw"), optimizers.ScheduleFreeAdamW)
