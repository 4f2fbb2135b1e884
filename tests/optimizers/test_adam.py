"""Adam against a hand-written numpy reference of Keras 3's update rule."""

import math
import tracemalloc

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(1)
SHAPES = [(4, 3), (3,), (2, 2, 2)]
START = [_TABLE_RNG.standard_normal(s) for s in SHAPES]
GRADS = [[_TABLE_RNG.standard_normal(s) for s in SHAPES] for _ in range(6)]


def reference_adam(steps, lr=0.01, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                   weight_decay=None):
    """Keras 3's Adam, written out directly, in float64."""
    weights = [w.copy() for w in START]
    m = [np.zeros_like(w) for w in START]
    v = [np.zeros_like(w) for w in START]
    v_hat = [np.zeros_like(w) for w in START]
    for t, grads in enumerate(GRADS[:steps], start=1):
        alpha = lr * math.sqrt(1 - beta_2**t) / (1 - beta_1**t)
        for i, g in enumerate(grads):
            if weight_decay:
                weights[i] = weights[i] - weights[i] * weight_decay * lr
            m[i] = m[i] + (g - m[i]) * (1 - beta_1)
            v[i] = v[i] + (g * g - v[i]) * (1 - beta_2)
            denom = v[i]
            if amsgrad:
                v_hat[i] = np.maximum(v_hat[i], v[i])
                denom = v_hat[i]
            weights[i] = weights[i] - alpha * m[i] / (np.sqrt(denom) + epsilon)
    return weights, m, v, v_hat


def make_variables(dtype=np.float64):
    return [Variable(w.astype(dtype), name=f"w{i}", path=f"layer/w{i}")
            for i, w in enumerate(START)]


def run(optimizer, variables, steps=len(GRADS)):
    for grads in GRADS[:steps]:
        optimizer.apply(grads, variables)


@pytest.mark.parametrize("amsgrad", [False, True])
def test_matches_reference_over_several_steps(amsgrad):
    opt = optimizers.Adam(learning_rate=0.01, beta_1=0.8, beta_2=0.95, epsilon=1e-6,
                          amsgrad=amsgrad)
    variables = make_variables()
    run(opt, variables)
    weights, m, v, v_hat = reference_adam(len(GRADS), lr=0.01, beta_1=0.8, beta_2=0.95,
                                          epsilon=1e-6, amsgrad=amsgrad)
    for var, expected in zip(variables, weights):
        np.testing.assert_allclose(var.value, expected, rtol=1e-12, atol=1e-14)
    n = len(SHAPES)
    slots = opt.variables[2:]
    for i in range(n):
        np.testing.assert_allclose(slots[2 * i].value, m[i], rtol=1e-12)
        np.testing.assert_allclose(slots[2 * i + 1].value, v[i], rtol=1e-12)
        if amsgrad:
            np.testing.assert_allclose(slots[2 * n + i].value, v_hat[i], rtol=1e-12)


def test_amsgrad_differs_once_velocity_shrinks():
    w_plain, w_ams = Variable(np.array([0.0])), Variable(np.array([0.0]))
    plain, ams = optimizers.Adam(0.1), optimizers.Adam(0.1, amsgrad=True)
    for g in (10.0, 0.1, 0.1):  # v decays after the big gradient; v_hat keeps the peak
        plain.apply([np.array([g])], [w_plain])
        ams.apply([np.array([g])], [w_ams])
    assert w_ams.value[0] > w_plain.value[0]  # smaller steps downhill with v_hat


def test_first_step_moves_by_learning_rate():
    # t = 1: alpha = lr * sqrt(1 - b2) / (1 - b1), m = (1 - b1) g, v = (1 - b2) g^2,
    # so the step is lr * sign(g) * s / (s + eps), s = sqrt(1 - b2) |g|: about lr
    # whatever the gradient's size.
    w = Variable(np.array([1.0, 1.0]))
    optimizers.Adam(learning_rate=0.1).apply([np.array([3.0, -0.02])], [w])
    s = math.sqrt(0.001) * np.array([3.0, 0.02])
    np.testing.assert_allclose(w.value, [1.0 - 0.1 * s[0] / (s[0] + 1e-7),
                                         1.0 + 0.1 * s[1] / (s[1] + 1e-7)], rtol=1e-12)
    np.testing.assert_allclose(w.value, [0.9, 1.1], rtol=1e-4)


def test_defaults():
    opt = optimizers.Adam()
    assert opt.learning_rate == 0.001
    assert (opt.beta_1, opt.beta_2, opt.epsilon, opt.amsgrad) == (0.9, 0.999, 1e-7, False)
    assert opt.name == "adam"


def test_variable_order_is_keras3():
    opt = optimizers.Adam(amsgrad=True)
    run(opt, make_variables(), steps=1)
    assert [v.path for v in opt.variables] == [
        "adam/iteration", "adam/learning_rate",
        "adam/layer_w0_momentum", "adam/layer_w0_velocity",
        "adam/layer_w1_momentum", "adam/layer_w1_velocity",
        "adam/layer_w2_momentum", "adam/layer_w2_velocity",
        "adam/layer_w0_velocity_hat", "adam/layer_w1_velocity_hat",
        "adam/layer_w2_velocity_hat",
    ]
    assert opt.variables[0].value.dtype == np.int64
    assert [v.value.shape for v in opt.variables[2:8:2]] == SHAPES


def test_in_place_and_float32():
    opt = optimizers.Adam(learning_rate=0.01, amsgrad=True)
    variables = make_variables(np.float32)
    arrays = [v.value for v in variables]
    run(opt, variables, steps=1)
    slots = [v.value for v in opt.variables]
    run(opt, variables)
    assert all(v.value is a for v, a in zip(variables, arrays))
    assert all(v.value is a for v, a in zip(opt.variables, slots))
    assert all(v.value.dtype == np.float32 for v in variables + opt.variables[2:])
    assert int(opt.iterations) == 1 + len(GRADS)


def test_step_allocates_no_arrays_the_size_of_the_weights():
    w = Variable(np.zeros((512, 512), dtype=np.float32))  # 1 MiB
    grad = np.ones((512, 512), dtype=np.float32)
    opt = optimizers.Adam(amsgrad=True)
    opt.apply([grad], [w])  # builds slots and scratch space
    tracemalloc.start()
    try:
        opt.apply([grad], [w])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < w.value.nbytes // 8


def test_weight_decay_matches_reference():
    opt = optimizers.Adam(learning_rate=0.01, weight_decay=0.1)
    variables = make_variables()
    run(opt, variables)
    weights, *_ = reference_adam(len(GRADS), lr=0.01, weight_decay=0.1)
    for var, expected in zip(variables, weights):
        np.testing.assert_allclose(var.value, expected, rtol=1e-12, atol=1e-14)


def test_config_round_trip():
    opt = optimizers.Adam(learning_rate=0.02, beta_1=0.8, beta_2=0.99, epsilon=1e-5,
                          amsgrad=True, weight_decay=0.01, global_clipnorm=2.0)
    config = optimizers.serialize(opt)
    assert config["class_name"] == "Adam"
    rebuilt = optimizers.deserialize(config)
    assert isinstance(rebuilt, optimizers.Adam)
    assert rebuilt.get_config() == opt.get_config()
    assert rebuilt.get_config()["learning_rate"] == 0.02


def test_reads_a_keras3_config():
    keras_config = {
        "class_name": "Adam",
        "config": {"name": "adam", "learning_rate": 0.0010000000474974513,
                   "weight_decay": None, "clipnorm": None, "global_clipnorm": None,
                   "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                   "ema_overwrite_frequency": None, "loss_scale_factor": None,
                   "gradient_accumulation_steps": None, "beta_1": 0.9, "beta_2": 0.999,
                   "epsilon": 1e-07, "amsgrad": False},
    }
    opt = optimizers.get(keras_config)
    assert isinstance(opt, optimizers.Adam)
    assert opt.learning_rate == 0.001


def test_get():
    for name in ("adam", "Adam", "ADAM"):
        assert isinstance(optimizers.get(name), optimizers.Adam)
    assert isinstance(optimizers.get(optimizers.Adam), optimizers.Adam)
    assert optimizers.get(None) is None
    with pytest.raises(ValueError) as info:
        optimizers.get("adma")
    assert "'adam'" in str(info.value) and "'sgd'" in str(info.value)
    assert str(info.value).endswith("Received: optimizer='adma'")
    with pytest.raises(ValueError, match="Received: optimizer="):
        optimizers.get(lambda x: x)
