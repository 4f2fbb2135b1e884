"""Nested tapes end to end: the patterns users write for second-order gradients.

Hand-computed derivatives for scalar functions, and finite differences of
first-order gradients for models (gradient penalty, Hessian-vector
products). Models run in float64 so the differences are accurate.
"""

import numpy as np
import pytest

import hikeras
from hikeras import layers, ops
from hikeras.backend import Tensor


@pytest.fixture
def float64():
    previous = hikeras.backend.floatx()
    hikeras.backend.set_floatx("float64")
    yield
    hikeras.backend.set_floatx(previous)


def _array(x):
    return x.value if isinstance(x, Tensor) else np.asarray(x)


def test_second_and_third_derivative_of_a_cubic_through_watched_arrays():
    x = np.array([-1.5, 0.5, 2.0])
    with hikeras.GradientTape() as t3:
        t3.watch(x)
        with hikeras.GradientTape() as t2:
            t2.watch(x)
            with hikeras.GradientTape() as t1:
                t1.watch(x)
                y = ops.sum(ops.power(x, 3) - 2.0 * ops.square(x))
            dy = t1.gradient(y, x)
        d2y = t2.gradient(dy, x)
    d3y = t3.gradient(d2y, x)
    np.testing.assert_allclose(_array(dy), 3 * x ** 2 - 4 * x)
    np.testing.assert_allclose(_array(d2y), 6 * x - 4)
    np.testing.assert_allclose(_array(d3y), [6.0, 6.0, 6.0])


def test_a_persistent_tape_differentiates_its_own_gradient():
    x = hikeras.backend.Variable(np.array(3.0), name="x")
    with hikeras.GradientTape(persistent=True) as tape:
        y = ops.exp(x) * x
        dy = tape.gradient(y, x)
    d2y = tape.gradient(dy, x)
    e = np.exp(3.0)
    np.testing.assert_allclose(_array(dy), e * 4.0)
    np.testing.assert_allclose(_array(d2y), e * 5.0)


def _mlp(activation):
    hikeras.utils.set_random_seed(3)
    return hikeras.Sequential([hikeras.Input((3,)), layers.Dense(5, activation=activation),
                               layers.Dense(4, activation=activation), layers.Dense(1)])


def _gradient_penalty(model, x):
    """WGAN-GP's term: mean((|d model / d x| - 1)^2), differentiable in the weights."""
    with hikeras.GradientTape() as inner:
        inner.watch(x)
        out = model(x)
    g = inner.gradient(out, x)
    norms = ops.sqrt(ops.sum(ops.square(g), axis=1))
    return ops.mean(ops.square(norms - 1.0))


@pytest.mark.parametrize("activation", ["tanh", "sigmoid", "relu", "softplus", "elu"])
def test_gradient_penalty_weight_gradients_match_finite_differences(float64, activation):
    model = _mlp(activation)
    x = np.random.default_rng(0).standard_normal((6, 3))
    with hikeras.GradientTape() as outer:
        penalty = _gradient_penalty(model, x)
    grads = outer.gradient(penalty, model.trainable_weights)
    rng = np.random.default_rng(1)
    for variable, grad in zip(model.trainable_weights, grads):
        direction = rng.standard_normal(variable.shape)
        original = variable.numpy().copy()
        values = []
        for step in (1e-6, -1e-6):
            variable.assign(original + step * direction)
            values.append(float(_array(_gradient_penalty(model, x))))
        variable.assign(original)
        numeric = (values[0] - values[1]) / 2e-6
        analytic = 0.0 if grad is None else float(np.sum(_array(grad) * direction))
        assert abs(numeric - analytic) <= 1e-6 * max(1.0, abs(numeric)), (
            f"{activation} {variable.path}: {analytic} vs {numeric}")


def test_hessian_vector_product_of_a_compiled_loss(float64):
    model = _mlp("tanh")
    model.layers[-1].activation = hikeras.activations.get("linear")
    loss_fn = hikeras.losses.MeanSquaredError()
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((8, 3)), rng.standard_normal((8, 1))
    weights = model.trainable_weights
    v = [rng.standard_normal(w.shape) for w in weights]

    def gradient():
        with hikeras.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        return tape.gradient(loss, weights)

    with hikeras.GradientTape() as outer:
        grads = gradient()
        grad_dot_v = sum(ops.sum(g * vk) for g, vk in zip(grads, v))
    hvp = outer.gradient(grad_dot_v, weights)

    originals = [w.numpy().copy() for w in weights]
    shifted = []
    for step in (1e-5, -1e-5):
        for w, o, vk in zip(weights, originals, v):
            w.assign(o + step * vk)
        shifted.append([_array(g) for g in gradient()])
    for w, o in zip(weights, originals):
        w.assign(o)
    for h, plus, minus in zip(hvp, *shifted):
        np.testing.assert_allclose(_array(h), (plus - minus) / 2e-5, rtol=1e-5, atol=1e-8)


def test_cross_entropy_hessian_vector_product(float64):
    logits_weights = hikeras.backend.Variable(np.random.default_rng(4).standard_normal((3, 4)))
    x = np.random.default_rng(5).standard_normal((7, 3))
    labels = np.array([0, 3, 1, 1, 2, 0, 3])
    loss_fn = hikeras.losses.SparseCategoricalCrossentropy(from_logits=True)
    v = np.random.default_rng(6).standard_normal((3, 4))

    def gradient():
        with hikeras.GradientTape() as tape:
            loss = loss_fn(labels, ops.matmul(x, logits_weights))
        return tape.gradient(loss, logits_weights)

    with hikeras.GradientTape() as outer:
        grad_dot_v = ops.sum(gradient() * v)
    hvp = _array(outer.gradient(grad_dot_v, logits_weights))
    original = logits_weights.numpy().copy()
    logits_weights.assign(original + 1e-5 * v)
    plus = _array(gradient())
    logits_weights.assign(original - 1e-5 * v)
    minus = _array(gradient())
    logits_weights.assign(original)
    np.testing.assert_allclose(hvp, (plus - minus) / 2e-5, rtol=1e-5, atol=1e-9)


def test_an_op_without_higher_order_gradients_raises_naming_it_only_when_reached():
    model = hikeras.Sequential([hikeras.Input((6, 6, 1)), layers.Conv2D(2, 3),
                                layers.Flatten(), layers.Dense(1)])
    x = np.random.default_rng(0).standard_normal((2, 6, 6, 1)).astype("float32")
    with hikeras.GradientTape() as plain:
        expected = plain.gradient(ops.sum(model(x)), model.trainable_weights)
    with hikeras.GradientTape() as outer:
        with hikeras.GradientTape() as inner:
            loss = ops.sum(model(x))
        grads = inner.gradient(loss, model.trainable_weights)
        penalty = ops.sum(ops.square(grads[0]))
    # First-order values are right even though conv's gradient is numpy-only.
    for got, want in zip(grads, expected):
        np.testing.assert_allclose(_array(got), want, rtol=1e-6)
    with pytest.raises(NotImplementedError, match="op 'conv'.*second-order"):
        outer.gradient(penalty, model.trainable_weights)


def test_gradients_computed_inside_the_tape_train_a_model():
    """Keras guides compute gradients inside the `with` block; that still trains."""
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(8, activation="tanh"),
                                layers.Dense(1)])
    optimizer = hikeras.optimizers.SGD(0.1)
    x = np.random.default_rng(0).standard_normal((32, 2)).astype("float32")
    y = (x[:, :1] * x[:, 1:]).astype("float32")
    reference = [w.numpy().copy() for w in model.trainable_weights]
    with hikeras.GradientTape() as tape:
        loss = ops.mean(ops.square(model(x) - y))
    plain = tape.gradient(loss, model.trainable_weights)
    with hikeras.GradientTape(persistent=True) as tape:
        loss = ops.mean(ops.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_weights)
    assert all(isinstance(g, Tensor) for g in grads)  # recorded: the tape is persistent
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    for w, before, g in zip(model.trainable_weights, reference, plain):
        np.testing.assert_allclose(w.numpy(), before - 0.1 * g, rtol=1e-6, atol=1e-7)


def test_one_array_watched_by_nested_tapes_is_one_source():
    x = np.array([1.0, 2.0])
    with hikeras.GradientTape() as outer:
        outer.watch(x)
        with hikeras.GradientTape() as inner:
            inner.watch(x)
            y = ops.sum(ops.multiply(x, x))
        assert inner.gradient(y, x) is not None
    np.testing.assert_allclose(outer.gradient(y, x), 2 * x)


def test_jacobian_of_a_model_matches_finite_differences(float64):
    model = _mlp("tanh")
    x = np.random.default_rng(7).standard_normal((2, 3))
    with hikeras.GradientTape() as tape:
        tape.watch(x)
        out = model(x)
    jac = tape.jacobian(out, x)
    assert jac.shape == (2, 1, 2, 3)
    numeric = np.zeros_like(jac)
    for idx in np.ndindex(*x.shape):
        step = np.zeros_like(x)
        step[idx] = 1e-6
        numeric[(..., *idx)] = (_array(model(x + step)) - _array(model(x - step))) / 2e-6
    np.testing.assert_allclose(jac, numeric, rtol=1e-6, atol=1e-9)
    with pytest.raises(RuntimeError, match="only once"):
        tape.jacobian(out, x)


def test_batch_jacobian_is_the_per_sample_block_of_the_jacobian(float64):
    model = _mlp("sigmoid")
    model.layers[-1].activation = hikeras.activations.get("linear")
    x = np.random.default_rng(8).standard_normal((4, 3))
    with hikeras.GradientTape(persistent=True) as tape:
        tape.watch(x)
        out = model(x)
    full = tape.jacobian(out, x)
    per_sample = tape.batch_jacobian(out, x)
    assert per_sample.shape == (4, 1, 3)
    for b in range(4):
        np.testing.assert_allclose(per_sample[b], full[b, :, b], rtol=1e-12)
    with pytest.raises(ValueError, match="same leading"):
        tape.batch_jacobian(out, x[:2])


def test_hessian_as_the_jacobian_of_a_gradient():
    a = np.array([[2.0, 1.0], [0.5, 3.0]])
    x = np.array([0.3, -1.2])
    with hikeras.GradientTape() as outer:
        outer.watch(x)
        with hikeras.GradientTape() as inner:
            inner.watch(x)
            y = ops.sum(ops.multiply(x, ops.matmul(a, x)))   # x^T A x
        g = inner.gradient(y, x)
    np.testing.assert_allclose(outer.jacobian(g, x), a + a.T)
    unconnected = hikeras.GradientTape()
    with unconnected:
        unconnected.watch(x)
        z = ops.multiply(np.ones(2), 3.0)
    assert unconnected.jacobian(ops.convert_to_tensor(z), x) is None
