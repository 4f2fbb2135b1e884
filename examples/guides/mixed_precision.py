"""Mixed precision: float32 weights, float16 computations, and loss scaling.

Set the global policy to `"mixed_float16"`, keep the model's last layer in
float32, and train: `compile` wraps the optimizer in a `LossScaleOptimizer`.
A training loop from scratch scales the loss itself. On numpy this is for
reproducing mixed-precision models, not for speed (docs/mixed_precision.md).
"""

import numpy as np

import hikeras as keras
from hikeras import layers


def data(rng, n):
    x = rng.standard_normal((n, 20)).astype("float32")
    y = (x[:, :3].sum(axis=1) > 0).astype("int64") + (x[:, 3] > 1).astype("int64")
    return x, y


def build():
    inputs = keras.Input((20,))
    h = layers.Dense(64, activation="relu")(inputs)
    h = layers.BatchNormalization()(h)
    h = layers.Dense(64, activation="relu")(h)
    logits = layers.Dense(3)(h)
    # A float16 softmax rounds probabilities to 11 bits: keep the last layer in float32.
    outputs = layers.Activation("softmax", dtype="float32")(logits)
    return keras.Model(inputs, outputs)


def main(small=False):
    keras.utils.set_random_seed(31)
    rng = np.random.default_rng(31)
    x, y = data(rng, 512 if small else 4096)
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = build()
        dense = model.layers[1]
        assert (dense.compute_dtype, dense.variable_dtype) == ("float16", "float32")
        assert dense.output.dtype == np.float16 and model.output.dtype == np.float32

        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        assert isinstance(model.optimizer, keras.optimizers.LossScaleOptimizer)
        history = model.fit(x, y, batch_size=64, epochs=5 if small else 10, verbose=0)
        losses, accuracy = history.history["loss"], history.history["accuracy"][-1]
        assert losses[-1] < 0.7 * losses[0], losses
        assert all(w.dtype == np.float32 for w in model.weights)

        # From scratch: differentiate the scaled loss; `apply` unscales the gradients
        # and skips a step whose float16 gradients overflowed.
        scratch = build()
        optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam())
        loss_fn = keras.losses.SparseCategoricalCrossentropy()
        first = float(loss_fn(y, scratch(x)))
        for start in list(range(0, len(x), 64)) * 3:
            xb, yb = x[start:start + 64], y[start:start + 64]
            with keras.GradientTape() as tape:
                loss = loss_fn(yb, scratch(xb, training=True))
                scaled = optimizer.scale_loss(loss)
            grads = tape.gradient(scaled, scratch.trainable_weights)
            optimizer.apply(grads, scratch.trainable_weights)
        assert int(optimizer.iterations) > 0
        assert float(loss_fn(y, scratch(x))) < first
    finally:
        keras.mixed_precision.set_global_policy(None)
    return accuracy


if __name__ == "__main__":
    print("accuracy", main())
