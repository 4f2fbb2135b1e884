"""Preprocessing layers: adapt them to data, then put them in the model.

Normalization learns a mean and variance, StringLookup a vocabulary,
TextVectorization a token index; image augmentation runs only in training.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(12)
    rng = np.random.default_rng(12)

    numbers = rng.normal(5.0, 3.0, (200, 2)).astype("float32")
    norm = layers.Normalization()
    norm.adapt(numbers)
    scaled = np.asarray(norm(numbers))
    np.testing.assert_allclose(scaled.mean(axis=0), 0.0, atol=1e-4)
    np.testing.assert_allclose(scaled.std(axis=0), 1.0, atol=1e-3)

    lookup = layers.StringLookup()
    lookup.adapt(np.array(["cat", "dog", "cat", "bird", "cat", "dog"]))
    assert lookup.get_vocabulary() == ["[UNK]", "cat", "dog", "bird"]
    assert np.asarray(lookup(np.array(["dog", "fish"]))).tolist() == [2, 0]

    texts = np.array(["the cat sat", "the dog ran", "a cat ran far"])
    vectorize = layers.TextVectorization(max_tokens=20, output_sequence_length=4)
    vectorize.adapt(texts)
    tokens = np.asarray(vectorize(np.array(["the cat ran"])))
    assert tokens.shape == (1, 4) and tokens[0, 3] == 0 and (tokens[0, :3] > 1).all()

    augment = keras.Sequential([layers.RandomFlip("horizontal"), layers.RandomRotation(0.1)])
    images = rng.uniform(0, 1, (4, 8, 8, 1)).astype("float32")
    np.testing.assert_array_equal(augment(images, training=False), images)
    assert augment(images, training=True).shape == images.shape

    # Adapted layers inside a trained model: raw features in, predictions out.
    n = 128 if small else 1024
    raw = rng.normal(100.0, 20.0, (n, 3)).astype("float32")
    target = ((raw[:, 0] - 100.0) / 20.0 > 0).astype("float32")
    norm = layers.Normalization()
    norm.adapt(raw)
    model = keras.Sequential([keras.Input((3,)), norm, layers.Dense(1, activation="sigmoid")])
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(raw, target, epochs=10 if small else 20, verbose=0)
    assert history.history["accuracy"][-1] > 0.7
    return history.history["accuracy"][-1]


if __name__ == "__main__":
    print("accuracy", main())
