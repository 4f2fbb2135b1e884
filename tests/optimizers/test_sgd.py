"""SGD against a hand-written numpy reference of Keras 3's update rule."""

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(0)
GRADS = [(_TABLE_RNG.standard_normal((3, 2)), _TABLE_RNG.standard_normal(2)) for _ in range(5)]
START = (_TABLE_RNG.standard_normal((3, 2)), _TABLE_RNG.standard_normal(2))


def reference_sgd(lr, momentum, nesterov, steps):
    """Keras 3: m = momentum*m - lr*g; w += m (or w += momentum*m - lr*g for Nesterov)."""
    weights = [w.copy() for w in START]
    velocity = [np.zeros_like(w) for w in START]
    for grads in GRADS[:steps]:
        for w, m, g in zip(weights, velocity, grads):
            if momentum == 0:
                w -= lr * g
                continue
            m[...] = momentum * m - lr * g
            if nesterov:
                w += momentum * m - lr * g
            else:
                w += m
    return weights


def run(optimizer, steps=len(GRADS), dtype=np.float64):
    variables = [Variable(w.astype(dtype), name=name, path=f"dense/{name}")
                 for w, name in zip(START, ("kernel", "bias"))]
    for grads in GRADS[:steps]:
        optimizer.apply(list(grads), variables)
    return variables


@pytest.mark.parametrize("momentum, nesterov", [(0.0, False), (0.9, False), (0.5, True),
                                                (0.9, True)])
def test_matches_reference(momentum, nesterov):
    variables = run(optimizers.SGD(learning_rate=0.05, momentum=momentum, nesterov=nesterov))
    for var, expected in zip(variables, reference_sgd(0.05, momentum, nesterov, len(GRADS))):
        np.testing.assert_allclose(var.value, expected, rtol=1e-12, atol=1e-12)


def test_first_steps_by_hand():
    w = Variable(np.array([1.0]))
    opt = optimizers.SGD(learning_rate=0.1, momentum=0.9)
    opt.apply([np.array([1.0])], [w])  # m = -0.1; w = 0.9
    opt.apply([np.array([1.0])], [w])  # m = -0.09 - 0.1 = -0.19; w = 0.71
    np.testing.assert_allclose(w.value, [0.71])
    nesterov = optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=True)
    w = Variable(np.array([1.0]))
    nesterov.apply([np.array([1.0])], [w])  # m = -0.1; w += 0.9*-0.1 - 0.1 = -0.19
    np.testing.assert_allclose(w.value, [0.81])


def test_defaults():
    opt = optimizers.SGD()
    assert opt.learning_rate == 0.01
    assert opt.momentum == 0.0 and opt.nesterov is False
    assert opt.name == "SGD"


def test_slots_only_with_momentum():
    plain = optimizers.SGD(learning_rate=0.1)
    run(plain, steps=1)
    assert [v.name for v in plain.variables] == ["iteration", "learning_rate"]
    heavy = optimizers.SGD(learning_rate=0.1, momentum=0.9)
    run(heavy, steps=1)
    assert [v.path for v in heavy.variables] == [
        "SGD/iteration", "SGD/learning_rate", "SGD/dense_kernel_momentum",
        "SGD/dense_bias_momentum"]
    assert all(not v.trainable for v in heavy.variables)


def test_updates_in_place_and_keeps_float32():
    opt = optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=True)
    variables = run(opt, steps=1, dtype=np.float32)
    arrays = [v.value for v in variables]
    slots = [v.value for v in opt.variables]
    for grads in GRADS[1:]:
        opt.apply(list(grads), variables)  # float64 gradients into float32 weights
    assert all(v.value is a for v, a in zip(variables, arrays))
    assert all(v.value is a for v, a in zip(opt.variables, slots))
    assert all(v.value.dtype == np.float32 for v in variables)
    expected = reference_sgd(0.1, 0.9, True, len(GRADS))
    for var, want in zip(variables, expected):
        np.testing.assert_allclose(var.value, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("momentum", [-0.1, 1.5, "0.9", None])
def test_invalid_momentum(momentum):
    with pytest.raises(ValueError, match="momentum"):
        optimizers.SGD(momentum=momentum)


def test_config_round_trip():
    opt = optimizers.SGD(learning_rate=0.2, momentum=0.5, nesterov=True, clipnorm=1.0,
                         name="my_sgd")
    config = optimizers.serialize(opt)
    assert config["class_name"] == "SGD"
    rebuilt = optimizers.deserialize(config)
    assert isinstance(rebuilt, optimizers.SGD)
    assert rebuilt.get_config() == opt.get_config()
    assert rebuilt.get_config()["learning_rate"] == 0.2


def test_get():
    assert isinstance(optimizers.get("sgd"), optimizers.SGD)
    assert isinstance(optimizers.get("SGD"), optimizers.SGD)
    assert isinstance(optimizers.get(optimizers.SGD), optimizers.SGD)
    opt = optimizers.SGD()
    assert optimizers.get(opt) is opt
    from_dict = optimizers.get({"class_name": "SGD", "config": {"momentum": 0.3}})
    assert from_dict.momentum == 0.3
