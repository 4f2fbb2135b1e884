import numpy as np
import pytest

import hikeras
from hikeras import layers, ops


def test_gradient_tape_training_loop_reduces_loss():
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(8, activation="tanh"),
                                layers.Dense(1)])
    optimizer = hikeras.optimizers.Adam(0.05)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 3)).astype("float32")
    y = np.sin(x.sum(axis=1, keepdims=True)).astype("float32")
    losses = []
    for _ in range(60):
        with hikeras.GradientTape() as tape:
            pred = model(x, training=True)
            loss = ops.mean(ops.square(y - pred))
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        losses.append(float(loss))
    assert losses[-1] < 0.2 * losses[0]


def test_tape_gradient_matches_finite_differences_for_dense_model():
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2, activation="sigmoid"),
                                layers.Dense(1)], )
    x = np.random.default_rng(1).standard_normal((5, 3)).astype("float32")
    with hikeras.GradientTape() as tape:
        loss = ops.sum(model(x))
    (g_kernel,) = tape.gradient(loss, [model.layers[0].kernel])
    kernel = model.layers[0].kernel
    eps = 1e-2
    numeric = np.zeros_like(kernel.numpy())
    for idx in np.ndindex(*kernel.shape):
        orig = kernel.numpy()[idx]
        kernel.numpy()[idx] = orig + eps
        up = float(np.sum(model(x)))
        kernel.numpy()[idx] = orig - eps
        down = float(np.sum(model(x)))
        kernel.numpy()[idx] = orig
        numeric[idx] = (up - down) / (2 * eps)
    np.testing.assert_allclose(g_kernel, numeric, rtol=1e-2, atol=1e-3)


def test_watch_inputs_and_persistent_tape():
    x = np.array([1.0, 2.0, 3.0])
    with hikeras.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = ops.sum(ops.multiply(x, x))
        z = ops.sum(ops.exp(x))
    np.testing.assert_allclose(tape.gradient(y, x), 2 * x)
    np.testing.assert_allclose(tape.gradient(z, x), np.exp(x))
    with hikeras.GradientTape() as once:
        once.watch(x)
        y = ops.sum(x)
    once.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent"):
        once.gradient(y, x)


def test_frozen_variables_get_no_gradient():
    layer = layers.Dense(2)
    x = np.ones((1, 3), "float32")
    layer(x)
    layer.trainable = False
    with hikeras.GradientTape() as tape:
        y = ops.sum(layer(x))
    assert tape.gradient(y, [layer.kernel]) == [None]
