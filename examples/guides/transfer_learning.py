"""Transfer learning and fine-tuning: freeze a trained base, train a new head, then unfreeze.

The base is trained on digits 0-4, reused frozen for digits 5-9, then fine-tuned
end to end with a small learning rate. BatchNormalization in the base stays in
inference mode because the base is called with `training=False`.
"""

import numpy as np

import hikeras as keras
from hikeras import layers
from hikeras.datasets import digits


def main(small=False):
    keras.utils.set_random_seed(9)
    (x, y), _ = digits.load_data()
    x = x.reshape(len(x), 8, 8, 1).astype("float32") / 16.0
    if small:
        x, y = x[:600], y[:600]
    low, high = y < 5, y >= 5

    base = keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(8, 3, activation="relu"),
                             layers.BatchNormalization(), layers.Flatten(),
                             layers.Dense(32, activation="relu")], name="base")
    source = keras.Sequential([base, layers.Dense(5, activation="softmax")])
    source.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    source.fit(x[low], y[low], epochs=2 if small else 10, verbose=0)

    base.trainable = False
    inputs = keras.Input((8, 8, 1))
    features = base(inputs, training=False)
    target = keras.Model(inputs, layers.Dense(5, activation="softmax")(features))
    target.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    frozen = [w.value.copy() for w in base.weights]
    bn = base.layers[1]
    moving_mean = bn.moving_mean.value.copy()
    assert len(target.trainable_weights) == 2  # the new head only
    target.fit(x[high], y[high] - 5, epochs=2 if small else 10, verbose=0)
    assert all(np.array_equal(w.value, f) for w, f in zip(base.weights, frozen))

    # Fine-tuning: unfreeze, recompile (so the change takes effect), small steps.
    base.trainable = True
    target.compile(keras.optimizers.Adam(1e-4), "sparse_categorical_crossentropy",
                   metrics=["accuracy"])
    history = target.fit(x[high], y[high] - 5, epochs=1 if small else 5, verbose=0)
    assert not all(np.array_equal(w.value, f) for w, f in zip(base.trainable_weights, frozen))
    # The moving statistics did not move: the base runs in inference mode.
    assert np.array_equal(bn.moving_mean.value, moving_mean)
    return history.history["accuracy"][-1]


if __name__ == "__main__":
    print("fine-tuned accuracy", main())
