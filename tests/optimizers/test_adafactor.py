"""Adafactor: hand-worked steps, the factored and plain slots, errors and config.

Trajectories against real Keras 3 are in `test_keras_golden.py`.
"""

import json
import math

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable


def _rms(x):
    return np.sqrt(np.mean(x * x))


def _reference_steps(w, grads, lr=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                     clip_threshold=1.0):
    """Keras 3's Adafactor rule in float64, one variable."""
    w = np.array(w, dtype="float64")
    factored = w.ndim >= 2
    r = np.zeros(w.shape[:-1]) if factored else None
    c = np.zeros(w.shape[:-2] + w.shape[-1:]) if factored else None
    v = np.zeros_like(w)
    for t, g in enumerate(grads, start=1):
        alpha = max(epsilon_2, _rms(w)) * min(lr, 1 / math.sqrt(t))
        beta = 1 - t ** beta_2_decay
        g2 = g * g + epsilon_1
        if factored:
            r = beta * r + (1 - beta) * g2.mean(axis=-1)
            c = beta * c + (1 - beta) * g2.mean(axis=-2)
            v = (r / r.mean(axis=-1, keepdims=True))[..., None] * c[..., None, :]
        else:
            v = beta * v + (1 - beta) * g2
        u = g / np.sqrt(v)
        w = w - alpha * u / max(1.0, _rms(u) / clip_threshold)
    return w


def test_first_step_by_hand():
    # Step 1: beta = 0, so v = g**2 (+ epsilon_1) and u = sign(g), of rms 1 (no
    # clipping); alpha = rms(w) * min(lr, 1) = sqrt(12.5) * 0.1.
    w = Variable(np.array([3.0, 4.0]))
    optimizers.Adafactor(learning_rate=0.1).apply([np.array([0.5, -2.0])], [w])
    step = 0.1 * math.sqrt(12.5)
    np.testing.assert_allclose(w.value, [3.0 - step, 4.0 + step], rtol=1e-12)


def test_factored_first_step_by_hand():
    # g**2 = [[1, 4], [9, 16]]: row means r = [2.5, 12.5], column means c = [5, 10],
    # v = r / mean(r) * c = [[5/3, 10/3], [25/3, 50/3]].
    w = Variable(np.ones((2, 2)))
    g = np.array([[1.0, 2.0], [3.0, 4.0]])
    opt = optimizers.Adafactor(learning_rate=0.5)
    opt.apply([g], [w])
    v = np.array([[5.0, 10.0], [25.0, 50.0]]) / 3
    u = g / np.sqrt(v)
    expected = 1.0 - 0.5 * u / max(1.0, _rms(u))
    np.testing.assert_allclose(w.value, expected, rtol=1e-12)
    r, c, velocity = opt.variables[2:]
    np.testing.assert_allclose(r.value, [2.5, 12.5])
    np.testing.assert_allclose(c.value, [5.0, 10.0])
    np.testing.assert_allclose(velocity.value, v)


@pytest.mark.parametrize("shape", [(5,), (4, 3), (2, 3, 4)])
def test_several_steps_match_the_formula(shape):
    rng = np.random.default_rng(7)
    start = rng.normal(size=shape)
    grads = [rng.normal(size=shape) * (i + 1) for i in range(6)]
    w = Variable(start.copy())
    kwargs = dict(beta_2_decay=-0.6, epsilon_1=1e-8, epsilon_2=0.01, clip_threshold=0.7)
    opt = optimizers.Adafactor(learning_rate=0.3, **kwargs)
    for g in grads:
        opt.apply([g], [w])
    np.testing.assert_allclose(w.value, _reference_steps(start, grads, 0.3, **kwargs),
                               rtol=1e-12)


def test_step_is_relative_with_a_floor_and_capped_by_one_over_sqrt_step():
    # A zero variable moves by epsilon_2 * min(lr, 1/sqrt(t)) per element on step 1.
    w = Variable(np.zeros(3))
    optimizers.Adafactor(learning_rate=5.0, epsilon_2=0.01).apply([np.ones(3)], [w])
    np.testing.assert_allclose(w.value, [-0.01] * 3)


def test_slots_follow_keras_order_names_and_shapes():
    kernel = Variable(np.zeros((2, 3, 4), dtype="float32"), name="kernel", path="dense/kernel")
    bias = Variable(np.zeros(4, dtype="float32"), name="bias", path="dense/bias")
    opt = optimizers.Adafactor()
    opt.build([kernel, bias])
    assert [(v.name, v.value.shape) for v in opt.variables] == [
        ("iteration", ()), ("learning_rate", ()),
        ("kernel", (2, 3)), ("kernel", (2, 4)), ("dense_kernel_velocity", (2, 3, 4)),
        ("dense_bias_velocity", (4,)),
    ]
    assert all(v.value.dtype == np.float32 for v in opt.variables[2:])


def test_float32_variables_stay_float32():
    w = Variable(np.array([[0.5, -1.0], [2.0, 0.1]], dtype="float32"))
    g = np.array([[0.2, 0.3], [-0.1, 0.0]], dtype="float32")
    optimizers.Adafactor(learning_rate=0.1).apply([g], [w])
    assert w.value.dtype == np.float32


@pytest.mark.parametrize("kwargs, name", [
    ({"beta_2_decay": 0.5}, "beta_2_decay"), ({"beta_2_decay": "x"}, "beta_2_decay"),
    ({"epsilon_1": -1.0}, "epsilon_1"), ({"epsilon_2": -0.1}, "epsilon_2"),
    ({"clip_threshold": 0.0}, "clip_threshold"), ({"clip_threshold": True}, "clip_threshold"),
    ({"relative_step": "yes"}, "relative_step"),
])
def test_argument_errors(kwargs, name):
    with pytest.raises(ValueError, match="Adafactor") as info:
        optimizers.Adafactor(**kwargs)
    assert str(info.value).endswith(f"Received: {name}={kwargs[name]!r}")


def test_config_matches_keras_keys_and_round_trips():
    opt = optimizers.Adafactor(learning_rate=0.05, beta_2_decay=-0.5, clip_threshold=2.0,
                               relative_step=False, weight_decay=0.01)
    config = opt.get_config()
    assert config["name"] == "adafactor"
    keys = ("beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold", "relative_step")
    assert {k: config[k] for k in keys} == {
        "beta_2_decay": -0.5, "epsilon_1": 1e-30, "epsilon_2": 1e-3, "clip_threshold": 2.0,
        "relative_step": False}
    rebuilt = optimizers.deserialize(json.loads(json.dumps(optimizers.serialize(opt))))
    assert type(rebuilt) is optimizers.Adafactor and rebuilt.get_config() == config
    assert isinstance(optimizers.get("Adafactor"), optimizers.Adafactor)
