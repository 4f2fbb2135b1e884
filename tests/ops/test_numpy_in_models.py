"""`hikeras.ops.numpy` and the core ops inside functional models built on inputs
with unknown batch and time dimensions: the graph records them and runs them."""

import numpy as np

import hikeras
from hikeras import ops


def test_numpy_ops_build_and_run_a_functional_model(rng):
    inputs = hikeras.Input((None, 4))
    x = ops.sin(inputs)
    x = ops.cumsum(x, axis=1)
    x = ops.flip(x, axis=-1)
    x = ops.sort(x, axis=-1)
    x = ops.tril(ops.matmul(ops.swapaxes(x, 1, 2), x))
    y = ops.median(x, axis=-1)
    assert y.shape == (None, 4)
    model = hikeras.Model(inputs, [x, y])
    data = rng.standard_normal((2, 5, 4)).astype(np.float32)
    got_x, got_y = model(data)
    expected = np.sort(np.flip(np.cumsum(np.sin(data), axis=1), -1), -1)
    expected = np.tril(np.swapaxes(expected, 1, 2) @ expected)
    np.testing.assert_allclose(got_x, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_y, np.median(expected, axis=-1), rtol=1e-5, atol=1e-5)


def test_a_trained_model_gets_gradients_through_the_new_ops(rng):
    inputs = hikeras.Input((3,))
    hidden = hikeras.layers.Dense(4)(inputs)
    outputs = hikeras.layers.Dense(1)(ops.logaddexp(ops.sin(hidden), ops.cos(hidden)))
    model = hikeras.Model(inputs, outputs)
    model.compile(optimizer="sgd", loss="mse")
    before = [w.copy() for w in model.get_weights()]
    model.fit(rng.standard_normal((8, 3)), rng.standard_normal((8, 1)), epochs=1, verbose=0)
    assert all(not np.array_equal(a, b) for a, b in zip(before, model.get_weights()))
