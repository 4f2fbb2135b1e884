"""Optimizer update ops against plain-numpy transcriptions of each update rule.

Each reference below is the rule as written in the papers / Keras's
docstrings, with fresh arrays and no in-place tricks, so it shares no code
with the kernels. The harness (`check_update_op`) checks that the kernels
write their results into the arrays they were given.
"""

import numpy as np
import pytest

from hikeras.backend import apply
from tests.helpers.check_op import params
from tests.helpers.check_update_op import update_case

ADAM = {"learning_rate": 0.01, "step": 3.0, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7}


def _adam_moments(m, v, g, beta_1, beta_2):
    return beta_1 * m + (1 - beta_1) * g, beta_2 * v + (1 - beta_2) * g * g


def _adam_ref(w, g, m, v, *, learning_rate, step, beta_1, beta_2, epsilon, v_hat=None):
    m, v = _adam_moments(m, v, g, beta_1, beta_2)
    alpha = learning_rate * np.sqrt(1 - beta_2 ** step) / (1 - beta_1 ** step)
    denominator_v = v if v_hat is None else np.maximum(v_hat, v)
    w = w - alpha * m / (np.sqrt(denominator_v) + epsilon)
    return (w, m, v) if v_hat is None else (w, m, v, denominator_v)


def _nadam_ref(w, g, m, v, *, learning_rate, step, beta_1, beta_2, epsilon, momentum,
               next_momentum, momentum_product):
    m, v = _adam_moments(m, v, g, beta_1, beta_2)
    m_hat = (next_momentum * m / (1 - momentum_product * next_momentum)
             + (1 - momentum) * g / (1 - momentum_product))
    v_hat = v / (1 - beta_2 ** step)
    return w - learning_rate * m_hat / (np.sqrt(v_hat) + epsilon), m, v


def _lamb_ref(w, g, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    m, v = _adam_moments(m, v, g, beta_1, beta_2)
    update = (m / (1 - beta_1 ** step)) / (np.sqrt(v / (1 - beta_2 ** step)) + epsilon)
    ratio = np.linalg.norm(w) / np.linalg.norm(update)
    return w - learning_rate * ratio * update, m, v


def _schedule_free_ref(w, g, z, v, *, learning_rate, step, beta_2, epsilon):
    v = beta_2 * v + (1 - beta_2) * g * g
    z = z - learning_rate * g / (np.sqrt(v / (1 - beta_2 ** step)) + epsilon)
    return (1 - 1 / step) * w + z / step, z, v


def _rmsprop_ref(w, g, v, a, s, *, learning_rate, rho, momentum, epsilon):
    v = rho * v + (1 - rho) * g * g
    if a is not None:
        a = rho * a + (1 - rho) * g
        step = learning_rate * g / np.sqrt(v - a * a + epsilon)
    else:
        step = learning_rate * g / np.sqrt(v + epsilon)
    if s is not None:
        s = momentum * s + step
        return w - s, v, a, s
    return w - step, v, a, s


def _adadelta_ref(w, g, acc_g, acc_d, *, learning_rate, rho, epsilon):
    acc_g = rho * acc_g + (1 - rho) * g * g
    delta = -np.sqrt(acc_d + epsilon) * g / np.sqrt(acc_g + epsilon)
    acc_d = rho * acc_d + (1 - rho) * delta * delta
    return w + learning_rate * delta, acc_g, acc_d


def _ftrl_ref(w, g, n, z, *, learning_rate, learning_rate_power, l1, l2, l2_shrinkage, beta):
    p = -learning_rate_power
    l2 = l2 + beta / (2 * learning_rate)
    n_new = n + g * g
    z = z + g + 2 * l2_shrinkage * w - (n_new ** p - n ** p) / learning_rate * w
    w = (np.clip(z, -l1, l1) - z) / (n_new ** p / learning_rate + 2 * l2)
    return w, n_new, z


def _adafactor_ref(w, g, r, c, v, *, learning_rate, step, beta_2_decay, epsilon_1, epsilon_2,
                   clip_threshold):
    def rms(x):
        return np.sqrt(np.mean(x * x))

    rho = min(learning_rate, 1 / np.sqrt(step))
    alpha = max(epsilon_2, rms(w)) * rho
    beta = 1 - step ** beta_2_decay
    g2 = g * g + epsilon_1
    if r is not None:
        r = beta * r + (1 - beta) * g2.mean(axis=-1)
        c = beta * c + (1 - beta) * g2.mean(axis=-2)
        v = (r / r.mean(axis=-1, keepdims=True))[..., :, None] * c[..., None, :]
    else:
        v = beta * v + (1 - beta) * g2
    u = g / np.sqrt(v)
    return w - alpha * u / max(1.0, rms(u) / clip_threshold), r, c, v


def _muon_ref(w, g, m, *, learning_rate, momentum, nesterov, ns_steps, muon_a, muon_b,
              muon_c, rms_rate):
    m = momentum * m + g
    x = g + momentum * m if nesterov else m
    transposed = x.shape[0] > x.shape[1]
    if transposed:
        x = x.T
    x = x / (np.sqrt(np.sum(x * x)) + 1e-7)
    for _ in range(ns_steps):
        gram = x @ x.T
        x = muon_a * x + muon_b * gram @ x + muon_c * gram @ gram @ x
    if transposed:
        x = x.T
    scale = 1.0 if rms_rate is None else np.sqrt(max(w.shape)) * rms_rate
    return w - learning_rate * x * scale, m


def _cases():
    rng = np.random.default_rng(21)

    def r(*shape, low=-1.0, high=1.0):
        return rng.uniform(low, high, size=shape)

    def pos(*shape):
        return rng.uniform(0.1, 1.0, size=shape)

    w, g = r(4, 3), r(4, 3)
    cases = [
        update_case("weight_decay_update", r(4, 3), attrs={"learning_rate": 0.1,
                                                           "weight_decay": 0.05},
                    reference=lambda w, *, learning_rate, weight_decay:
                    (w - w * weight_decay * learning_rate,)),
        update_case("ema_update", r(4, 3), r(4, 3), attrs={"momentum": 0.99},
                    reference=lambda a, w, *, momentum: (momentum * a + (1 - momentum) * w,)),
        update_case("sgd_update", w, g, attrs={"learning_rate": 0.1},
                    reference=lambda w, g, *, learning_rate: (w - learning_rate * g,)),
        update_case("sgd_update", r(), r(), attrs={"learning_rate": 0.1}, label="scalar",
                    reference=lambda w, g, *, learning_rate: (w - learning_rate * g,)),
    ]
    for nesterov in (False, True):
        def sgd_momentum(w, g, velocity, *, learning_rate, momentum, nesterov):
            velocity = momentum * velocity - learning_rate * g
            if nesterov:
                return w + momentum * velocity - learning_rate * g, velocity
            return w + velocity, velocity

        cases.append(update_case(
            "sgd_momentum_update", w, g, r(4, 3), label=f"nesterov={nesterov}",
            attrs={"learning_rate": 0.1, "momentum": 0.9, "nesterov": nesterov},
            reference=sgd_momentum))
    cases += [
        update_case("adam_update", w, g, r(4, 3), pos(4, 3), attrs=ADAM,
                    reference=lambda w, g, m, v, **a: _adam_ref(w, g, m, v, **a)),
        update_case("adam_update", r(5), r(5), np.zeros(5), np.zeros(5),
                    attrs={**ADAM, "step": 1.0}, label="first_step",
                    reference=lambda w, g, m, v, **a: _adam_ref(w, g, m, v, **a)),
        update_case("amsgrad_update", w, g, r(4, 3), pos(4, 3), pos(4, 3), attrs=ADAM,
                    reference=lambda w, g, m, v, v_hat, **a: _adam_ref(w, g, m, v, v_hat=v_hat,
                                                                       **a)),
        update_case("adamax_update", w, g, r(4, 3), pos(4, 3), attrs=ADAM,
                    reference=lambda w, g, m, u, *, learning_rate, step, beta_1, beta_2, epsilon:
                    _adamax_ref(w, g, m, u, learning_rate, step, beta_1, beta_2, epsilon)),
        update_case("nadam_update", w, g, r(4, 3), pos(4, 3),
                    attrs={**ADAM, "momentum": 0.86, "next_momentum": 0.87,
                           "momentum_product": 0.6},
                    reference=_nadam_ref),
        update_case("lamb_update", w, g, r(4, 3), pos(4, 3), attrs=ADAM, reference=_lamb_ref),
        update_case("muon_update", w, g, r(4, 3), label="tall-nesterov",
                    attrs={"learning_rate": 0.01, "momentum": 0.95, "nesterov": True,
                           "ns_steps": 5, "muon_a": 3.4445, "muon_b": -4.775,
                           "muon_c": 2.0315, "rms_rate": 0.2},
                    reference=_muon_ref),
        update_case("muon_update", r(2, 5), r(2, 5), r(2, 5), label="wide-plain",
                    attrs={"learning_rate": 0.1, "momentum": 0.9, "nesterov": False,
                           "ns_steps": 3, "muon_a": 3.4445, "muon_b": -4.775,
                           "muon_c": 2.0315, "rms_rate": None},
                    reference=_muon_ref),
        update_case("schedule_free_adamw_update", w, g, r(4, 3), pos(4, 3),
                    attrs={"learning_rate": 0.01, "step": 3.0, "beta_2": 0.999,
                           "epsilon": 1e-8},
                    reference=_schedule_free_ref),
    ]
    for centered in (False, True):
        for momentum in (0.0, 0.5):
            average = r(4, 3) * 0.1 if centered else None
            slot = r(4, 3) if momentum else None
            cases.append(update_case(
                "rmsprop_update", w, g, pos(4, 3), average, slot,
                label=f"centered={centered}-momentum={momentum}",
                attrs={"learning_rate": 0.01, "rho": 0.9, "momentum": momentum,
                       "epsilon": 1e-7},
                reference=_rmsprop_ref))
    cases += [
        update_case("adagrad_update", w, g, pos(4, 3),
                    attrs={"learning_rate": 0.1, "epsilon": 1e-7},
                    reference=lambda w, g, acc, *, learning_rate, epsilon: (
                        w - learning_rate * g / np.sqrt(acc + g * g + epsilon), acc + g * g)),
        update_case("adadelta_update", w, g, pos(4, 3), pos(4, 3),
                    attrs={"learning_rate": 1.0, "rho": 0.95, "epsilon": 1e-7},
                    reference=_adadelta_ref),
        update_case("lion_update", w, g, r(4, 3),
                    attrs={"learning_rate": 0.01, "beta_1": 0.9, "beta_2": 0.99},
                    reference=lambda w, g, m, *, learning_rate, beta_1, beta_2: (
                        w - learning_rate * np.sign(beta_1 * m + (1 - beta_1) * g),
                        beta_2 * m + (1 - beta_2) * g)),
        update_case("ftrl_update", w, g, pos(4, 3), r(4, 3),
                    attrs={"learning_rate": 0.1, "learning_rate_power": -0.5, "l1": 0.01,
                           "l2": 0.02, "l2_shrinkage": 0.03, "beta": 0.1},
                    reference=_ftrl_ref, rtol=1e-4, atol=1e-5),
        update_case("adafactor_update", r(2, 4, 3), r(2, 4, 3), pos(2, 4), pos(2, 3),
                    pos(2, 4, 3), label="factored",
                    attrs={"learning_rate": 0.01, "step": 3.0, "beta_2_decay": -0.8,
                           "epsilon_1": 1e-30, "epsilon_2": 1e-3, "clip_threshold": 1.0},
                    reference=_adafactor_ref),
        update_case("adafactor_update", r(5), r(5), None, None, pos(5), label="vector",
                    attrs={"learning_rate": 0.01, "step": 3.0, "beta_2_decay": -0.8,
                           "epsilon_1": 1e-30, "epsilon_2": 1e-3, "clip_threshold": 0.5},
                    reference=_adafactor_ref),
    ]
    return cases


def _adamax_ref(w, g, m, u, learning_rate, step, beta_1, beta_2, epsilon):
    m = beta_1 * m + (1 - beta_1) * g
    u = np.maximum(beta_2 * u, np.abs(g))
    return w - learning_rate * m / ((1 - beta_1 ** step) * (u + epsilon)), m, u


CASES = _cases()


@pytest.mark.parametrize("op_case", params(CASES))
def test_optimizer_update_op(op_case):
    op_case.run()


# -- values worked out by hand --------------------------------------------------

def test_sgd_momentum_two_steps_by_hand():
    w, velocity = np.array([1.0, 2.0]), np.zeros(2)
    for expected in ([0.9, 2.1], [0.71, 2.29]):  # v = -0.1 g, then 0.9 v - 0.1 g
        apply("sgd_momentum_update", w, np.array([1.0, -1.0]), velocity, learning_rate=0.1,
              momentum=0.9, nesterov=False)
        np.testing.assert_allclose(w, expected)
    w, velocity = np.array([1.0, 2.0]), np.zeros(2)
    apply("sgd_momentum_update", w, np.array([1.0, -1.0]), velocity, learning_rate=0.1,
          momentum=0.9, nesterov=True)
    np.testing.assert_allclose(w, [1.0 - 0.09 - 0.1, 2.0 + 0.09 + 0.1])


@pytest.mark.parametrize("op", ["adam_update", "amsgrad_update", "adamax_update",
                                "schedule_free_adamw_update"])
def test_first_adam_like_step_moves_each_weight_by_learning_rate(op):
    # With zero moments, the bias-corrected first step is lr * g / |g| (up to epsilon).
    g = np.array([0.5, -2.0, 0.05, -30.0], dtype=np.float32)
    w = np.ones(4, np.float32)
    slots = [np.zeros(4, np.float32) for _ in range(3 if op == "amsgrad_update" else 2)]
    if op == "schedule_free_adamw_update":
        slots[0] = w.copy()  # z starts as a copy of w
        attrs = {"learning_rate": 0.1, "step": 1.0, "beta_2": 0.999, "epsilon": 1e-8}
    else:
        attrs = {**ADAM, "learning_rate": 0.1, "step": 1.0}
    apply(op, w, g, *slots, **attrs)
    np.testing.assert_allclose(w, 1.0 - 0.1 * np.sign(g), rtol=1e-4)


def test_rmsprop_with_rho_zero_steps_by_learning_rate():
    w, g = np.ones(3), np.array([2.0, -0.5, 4.0])
    apply("rmsprop_update", w, g, np.zeros(3), None, None, learning_rate=0.1, rho=0.0,
          momentum=0.0, epsilon=1e-7)
    np.testing.assert_allclose(w, 1.0 - 0.1 * np.sign(g), rtol=1e-6)


def test_adagrad_first_step_by_hand():
    w, accumulator = np.array([1.0]), np.array([0.0])
    apply("adagrad_update", w, np.array([3.0]), accumulator, learning_rate=0.1, epsilon=0.0)
    assert w.tolist() == [0.9] and accumulator.tolist() == [9.0]


def test_lion_steps_by_exactly_learning_rate():
    w = np.array([1.0, 1.0])
    apply("lion_update", w, np.array([3.0, -0.01]), np.zeros(2), learning_rate=0.25,
          beta_1=0.9, beta_2=0.99)
    assert w.tolist() == [0.75, 1.25]


def test_update_ops_write_through_views():
    # Slots may be views (e.g. of a flat buffer); the kernels must write into them.
    buffer = np.zeros(24)
    m, v = buffer[:12].reshape(4, 3), buffer[12:].reshape(4, 3)
    w = np.ones((4, 3))
    apply("adam_update", w, np.full((4, 3), 0.5), m, v, **ADAM)
    np.testing.assert_allclose(buffer[:12], 0.05)
    np.testing.assert_allclose(buffer[12:], 0.001 * 0.25)


def test_muon_step_on_a_multiple_of_the_identity_by_hand():
    # d = 2 g = 2 I: normalised to I / sqrt(2), then each Newton-Schulz step maps the
    # (shared) singular value s to a s + b s**3 + c s**5.
    s = 1 / np.sqrt(2)
    for _ in range(5):
        s = 3.4445 * s - 4.775 * s ** 3 + 2.0315 * s ** 5
    w, m = np.zeros((2, 2)), np.zeros((2, 2))
    apply("muon_update", w, np.eye(2), m, learning_rate=0.1, momentum=1.0, nesterov=True,
          ns_steps=5, muon_a=3.4445, muon_b=-4.775, muon_c=2.0315, rms_rate=0.5)
    np.testing.assert_allclose(m, np.eye(2))
    np.testing.assert_allclose(w, -0.1 * s * np.sqrt(2) * 0.5 * np.eye(2), rtol=1e-6)
