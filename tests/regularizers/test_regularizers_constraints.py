"""Regularisers and constraints: Keras's values, closed forms, gradients, configs."""

import numpy as np
import pytest

import hikeras
from hikeras import constraints, layers, ops, regularizers
from tests.fixtures.keras_training import f32, golden

GOLDEN = golden()["regularization"]
W = f32(GOLDEN["weights"])


@pytest.mark.parametrize("name", sorted(GOLDEN["regularizers"]))
def test_regularizer_matches_keras(name):
    entry = GOLDEN["regularizers"][name]
    reg = regularizers.deserialize({"class_name": entry["class_name"], "config": entry["config"]})
    np.testing.assert_allclose(float(reg(W)), entry["value"], rtol=1e-5)
    assert regularizers.get(regularizers.serialize(reg)).get_config() == reg.get_config()


@pytest.mark.parametrize("name", sorted(GOLDEN["constraints"]))
def test_constraint_matches_keras(name):
    entry = GOLDEN["constraints"][name]
    con = constraints.get({"class_name": entry["class_name"], "config": entry["config"]})
    np.testing.assert_allclose(con(W), entry["value"], rtol=1e-5, atol=1e-7)
    rebuilt = constraints.deserialize(constraints.serialize(con))
    assert type(rebuilt) is type(con) and rebuilt.get_config() == con.get_config()


def test_orthogonal_regularizer_closed_form_and_gradient():
    rows = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    # normalised rows: e1, (e1+e2)/sqrt2, e2: |dots| = 1/sqrt2, 0, 1/sqrt2 over 3 pairs
    expected = 0.3 * (2 / np.sqrt(2)) / 3
    reg = regularizers.OrthogonalRegularizer(0.3)
    assert np.isclose(float(reg(rows)), expected)
    assert float(regularizers.OrthogonalRegularizer(1.0, mode="columns")(np.eye(2))) == 0.0
    x = np.random.default_rng(0).normal(size=(3, 4))
    with hikeras.GradientTape() as tape:
        tape.watch(x)
        value = reg(x)
    grad = tape.gradient(value, x)
    eps, direction = 1e-6, np.random.default_rng(1).normal(size=x.shape)
    numeric = (float(reg(x + eps * direction)) - float(reg(x - eps * direction))) / (2 * eps)
    assert np.isclose(np.sum(grad * direction), numeric, rtol=1e-5)
    with pytest.raises(ValueError, match="mode"):
        regularizers.OrthogonalRegularizer(mode="diagonal")
    with pytest.raises(ValueError, match="rank 2"):
        reg(np.ones(3))


def test_invalid_factors_are_rejected():
    with pytest.raises(ValueError, match="l2"):
        regularizers.L2(-1.0)
    with pytest.raises(ValueError, match="factor"):
        regularizers.OrthogonalRegularizer(float("nan"))


def test_regularizer_penalty_is_in_model_losses_and_the_training_loss():
    model = hikeras.Sequential([
        hikeras.Input((3,)),
        layers.Dense(2, kernel_initializer="ones", use_bias=False,
                     kernel_regularizer=regularizers.L1L2(l1=0.1, l2=0.01)),
    ])
    x = np.zeros((4, 3), dtype="float32")
    model(x)
    penalties = [float(p) for p in model.losses]
    assert np.isclose(sum(penalties), 0.1 * 6 + 0.01 * 6)
    model.compile(optimizer=hikeras.optimizers.SGD(0.0), loss="mse")
    loss = model.evaluate(x, np.zeros((4, 2), "float32"), verbose=0)
    assert np.isclose(loss, 0.66, rtol=1e-6)  # zero prediction error: only the penalty


def test_constraints_are_applied_after_each_update_in_fit():
    model = hikeras.Sequential([
        hikeras.Input((2,)),
        layers.Dense(3, use_bias=False, kernel_constraint=constraints.MaxNorm(0.5)),
    ])
    model.compile(optimizer=hikeras.optimizers.SGD(1.0), loss="mse")
    rng = np.random.default_rng(0)
    model.fit(rng.normal(size=(16, 2)).astype("float32") * 10,
              rng.normal(size=(16, 3)).astype("float32") * 10, epochs=2, verbose=0)
    norms = np.linalg.norm(model.layers[0].kernel.numpy(), axis=0)
    assert np.all(norms <= 0.5 + 1e-5)
