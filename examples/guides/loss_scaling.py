"""Loss scaling: `LossScaleOptimizer` scales the loss up and the gradients back down.

With float16 that keeps small gradients from vanishing; with float32 it is
exact, and a step whose gradients overflow is skipped while the scale halves.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


def build(optimizer):
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer, "mse")
    return model


def main(small=False):
    keras.utils.set_random_seed(26)
    rng = np.random.default_rng(26)
    x = rng.standard_normal((64, 3)).astype("float32")
    y = x @ np.array([[0.5], [-1.0], [2.0]], "float32")
    plain = build(keras.optimizers.SGD(0.05))
    scaled = build(keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD(0.05),
                                                             initial_scale=2.0 ** 12))
    for model in (plain, scaled):
        model.fit(x, y, epochs=2 if small else 10, batch_size=16, shuffle=False, verbose=0)
    np.testing.assert_allclose(scaled.get_weights()[0], plain.get_weights()[0], rtol=1e-5)

    optimizer = scaled.optimizer
    before = float(optimizer.dynamic_scale.value)
    kernel = [np.copy(w.value) for w in scaled.trainable_weights]
    optimizer.apply([np.full((3, 1), np.inf, "float32"), np.zeros(1, "float32")],
                    scaled.trainable_weights)
    assert float(optimizer.dynamic_scale.value) == before / 2
    assert all(np.array_equal(w.value, k) for w, k in zip(scaled.trainable_weights, kernel))
    assert keras.mixed_precision.DTypePolicy("mixed_float16").compute_dtype == "float16"
    return before


if __name__ == "__main__":
    print("scale", main())
