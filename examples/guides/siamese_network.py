"""Shared layers, siamese style: one encoder applied to two inputs, compared by distance."""

import numpy as np

import hikeras as keras
from hikeras import layers, ops
from hikeras.datasets import digits


def main(small=False):
    keras.utils.set_random_seed(15)
    (x, y), _ = digits.load_data()
    x = x.reshape(len(x), 64).astype("float32") / 16.0
    rng = np.random.default_rng(15)
    n = 256 if small else 2048
    a, b = rng.integers(0, len(x), n), rng.integers(0, len(x), n)
    same = (y[a] == y[b]).astype("float32")

    encoder = keras.Sequential([keras.Input((64,)), layers.Dense(32, activation="relu"),
                                layers.Dense(8)], name="encoder")
    left, right = keras.Input((64,)), keras.Input((64,))
    distance = layers.Lambda(lambda t: ops.sqrt(ops.sum(ops.square(t[0] - t[1]), axis=1,
                                                        keepdims=True) + 1e-6),
                             output_shape=(1,))([encoder(left), encoder(right)])
    similarity = layers.Dense(1, activation="sigmoid")(distance)
    model = keras.Model([left, right], similarity)
    assert len(model.trainable_weights) == 6  # the encoder's four, once, and the head's two
    model.compile("adam", "binary_crossentropy")
    history = model.fit([x[a], x[b]], same, epochs=2 if small else 10, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    return history.history["loss"][-1]


if __name__ == "__main__":
    print("final loss", main())
