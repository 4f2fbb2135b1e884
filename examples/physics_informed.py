"""Higher-order gradients: a physics-informed network solves u'' = -pi^2 sin(pi x).

The network u(x) is trained so that its *second derivative with respect to
its input* satisfies the differential equation on [0, 1], with u(0) = u(1) =
0; the exact solution is sin(pi x). Three tapes nest: two differentiate u
with respect to x, the outermost differentiates the residual with respect to
the weights. Nothing else is special: the model is an ordinary Sequential.

    python examples/physics_informed.py
"""

import numpy as np

import hikeras
from hikeras import layers, ops


def build_model():
    return hikeras.Sequential([
        hikeras.Input((1,)),
        layers.Dense(24, activation="tanh"),
        layers.Dense(24, activation="tanh"),
        layers.Dense(1),
    ])


def second_derivative(model, x):
    """u(x) and d2u/dx2 at the points `x` (one per row), differentiable in the weights."""
    with hikeras.GradientTape() as outer:
        outer.watch(x)
        with hikeras.GradientTape() as inner:
            inner.watch(x)
            u = model(x)
        du = inner.gradient(u, x)   # rows are independent, so this is du/dx per point
    return u, outer.gradient(du, x)


def main(steps=1500, verbose=True):
    hikeras.utils.set_random_seed(0)
    model = build_model()
    optimizer = hikeras.optimizers.Adam(0.01)
    x = np.linspace(0.0, 1.0, 32, dtype="float32")[:, None]
    boundary = np.array([[0.0], [1.0]], dtype="float32")
    source = -np.pi ** 2 * np.sin(np.pi * x)
    for step in range(steps + 1):
        with hikeras.GradientTape() as tape:
            _, u_xx = second_derivative(model, x)
            residual = ops.mean(ops.square(u_xx - source))
            loss = residual + 10.0 * ops.mean(ops.square(model(boundary)))
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        if verbose and step % 300 == 0:
            print(f"step {step:5d}  loss {float(loss):.5f}")
    grid = np.linspace(0.0, 1.0, 101, dtype="float32")[:, None]
    error = float(np.max(np.abs(model.predict(grid, verbose=0) - np.sin(np.pi * grid))))
    if verbose:
        print(f"max |u - sin(pi x)| on [0, 1]: {error:.4f}")
    return error


if __name__ == "__main__":
    main()
