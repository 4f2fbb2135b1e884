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


def test_gradient_mask_updates_only_the_unmasked_entries():
    """The classic partial-update recipe: `grads = [g * m ...]` then `apply_gradients`."""
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2)])
    kernel, bias = model.trainable_weights
    masks = [np.array([[1, 0], [0, 1], [1, 1]], "float32"), np.zeros(2, "float32")]
    before = [kernel.numpy().copy(), bias.numpy().copy()]
    optimizer = hikeras.optimizers.Adam(0.1)
    x = np.random.default_rng(0).normal(size=(8, 3)).astype("float32")
    for _ in range(3):
        with hikeras.GradientTape() as tape:
            loss = ops.mean(ops.square(model(x) - 1.0))
        grads = tape.gradient(loss, model.trainable_weights)
        grads = [g * m for g, m in zip(grads, masks)]
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
    changed = [w.numpy() != b for w, b in zip((kernel, bias), before)]
    np.testing.assert_array_equal(changed[0], masks[0].astype(bool))
    assert not changed[1].any()


def test_add_loss_from_call_is_minimised_and_reset_every_call():
    class Shrink(layers.Layer):
        def call(self, x):
            self.add_loss(0.5 * ops.sum(ops.square(x)))
            return x

    hikeras.utils.set_random_seed(0)
    inputs = hikeras.Input((2,))
    outputs = Shrink()(layers.Dense(2, use_bias=False)(inputs))
    model = hikeras.Model(inputs, outputs)
    x = np.ones((4, 2), "float32")
    out = model(x)
    assert len(model.losses) == 1
    np.testing.assert_allclose(float(model.losses[0]), 0.5 * np.sum(np.square(out)), rtol=1e-6)
    model(x)
    assert len(model.losses) == 1  # replaced, not appended
    model.compile(optimizer=hikeras.optimizers.SGD(0.1))  # no compiled loss: add_loss only
    history = model.fit(x, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    with pytest.raises(ValueError, match="scalar"):
        Shrink().add_loss(np.ones(3))


def test_training_loop_with_a_loss_object_and_sample_weights():
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(3, activation="softmax")])
    loss_fn = hikeras.losses.SparseCategoricalCrossentropy()
    accuracy = hikeras.metrics.SparseCategoricalAccuracy()
    optimizer = hikeras.optimizers.RMSprop(0.05)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(30, 3)).astype("float32")
    y = np.argmax(x, axis=1)
    weight = np.where(y == 0, 2.0, 1.0).astype("float32")
    for _ in range(40):
        with hikeras.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True), sample_weight=weight)
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
    accuracy.update_state(y[:20], model(x[:20]))
    accuracy.update_state(y[20:], model(x[20:]))
    expected = np.mean(np.argmax(model.predict(x, verbose=0), axis=1) == y)
    assert float(accuracy.result()) == pytest.approx(expected)
    assert expected > 0.8
