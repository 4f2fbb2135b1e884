"""Preprocessing inside the model: raw strings and raw pixel counts in, predictions out.

Two small models, each carrying its own preprocessing so that a saved file
is all a user needs:

1. **Text.** `StringLookup` learns a vocabulary from raw words (`adapt`), maps
   each word to an index (0 for padding, 1 for unknown words), and an
   `Embedding` + pooling classifier learns which made-up "reviews" are
   positive. The adapted vocabulary is part of the layer's config, so the
   model saved to HDF5 and loaded back maps words exactly as before.
2. **Images.** The 8x8 digits that ship with hikeras, as raw counts 0..16:
   `Rescaling` scales them, `Resizing` doubles their size, and
   `RandomCrop`/`RandomContrast`, a `Sequential` block applied to the
   functional model's input, augment them in `fit` only; `evaluate` and
   `predict` see the centre crop and the unchanged contrast.

    python examples/preprocessing_layers.py
"""

import os
import tempfile

import numpy as np

import hikeras
from hikeras import layers
from hikeras.datasets import digits

POSITIVE = ["great", "superb", "lovely", "fun", "brilliant"]
NEGATIVE = ["dull", "awful", "boring", "bad", "tedious"]
FILLER = ["the", "film", "was", "plot", "and", "acting", "really", "quite", "a", "story"]
LENGTH = 8


def make_reviews(count, rng):
    """`count` reviews of `LENGTH` words (padded with ""), and whether each is positive."""
    reviews, labels = [], []
    for i in range(count):
        positive = i % 2 == 0
        words = list(rng.choice(FILLER, rng.integers(3, LENGTH - 1)))
        words.insert(int(rng.integers(0, len(words) + 1)),
                     rng.choice(POSITIVE if positive else NEGATIVE))
        reviews.append(words + [""] * (LENGTH - len(words)))
        labels.append(float(positive))
    return np.array(reviews), np.array(labels, "float32")


def text_model(vocabulary_source):
    lookup = layers.StringLookup(mask_token="")  # "" pads; unseen words -> index 1
    lookup.adapt(vocabulary_source)
    return hikeras.Sequential([
        hikeras.Input(shape=(LENGTH,), dtype="string"),
        lookup,
        layers.Embedding(lookup.vocabulary_size(), 8, mask_zero=True),
        layers.GlobalAveragePooling1D(),
        layers.Dense(1, activation="sigmoid"),
    ])


def run_text(rng, epochs):
    x_train, y_train = make_reviews(600, rng)
    x_test, y_test = make_reviews(200, rng)
    model = text_model(x_train)
    model.compile(optimizer=hikeras.optimizers.Adam(0.02), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=epochs, verbose=0)
    accuracy = model.evaluate(x_test, y_test, return_dict=True, verbose=0)["accuracy"]
    print(f"text: vocabulary of {model.layers[0].vocabulary_size()} "
          f"({model.layers[0].get_vocabulary()[:4]} ...), test accuracy {accuracy:.3f}")

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "reviews.h5")
        model.save(path)
        reloaded = hikeras.models.load_model(path)
    unseen = np.array([["a", "superb", "story", "", "", "", "", ""],
                       ["the", "plot", "was", "tedious", "zzz", "", "", ""]])
    same = np.array_equal(model.predict(unseen, verbose=0), reloaded.predict(unseen, verbose=0))
    print(f"text: reloaded model predicts the same: {same}; "
          f"P(positive) for two new reviews: {model.predict(unseen, verbose=0).ravel().round(3)}")
    return accuracy, same


def image_model():
    # The augmentation is a block of its own, applied to the symbolic input like any layer.
    augment = hikeras.Sequential([
        layers.RandomCrop(14, 14),                       # fit: random window; else centre
        layers.RandomContrast(0.2, value_range=(0, 1)),  # fit only
    ], name="augment")
    inputs = hikeras.Input(shape=(8, 8, 1))
    x = layers.Rescaling(1 / 16.0)(inputs)               # counts 0..16 -> [0, 1]
    x = layers.Resizing(16, 16)(x)                       # bilinear, as Keras
    x = augment(x)
    x = layers.MaxPooling2D(2)(layers.Conv2D(16, 3, activation="relu")(x))
    outputs = layers.Dense(10)(layers.Flatten()(x))
    return hikeras.Model(inputs, outputs)


def run_images(epochs):
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    x_train = x_train[..., None].astype("float32")
    x_test = x_test[..., None].astype("float32")
    model = image_model()
    model.compile(optimizer=hikeras.optimizers.Adam(3e-3),
                  loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=64, epochs=epochs, verbose=0)
    accuracy = model.evaluate(x_test, y_test, return_dict=True, verbose=0)["accuracy"]
    print(f"images: test accuracy {accuracy:.3f} after {epochs} epochs with augmentation")
    return accuracy


def main(text_epochs=15, image_epochs=8):
    hikeras.utils.set_random_seed(11)
    rng = np.random.default_rng(11)
    text_accuracy, reload_same = run_text(rng, text_epochs)
    image_accuracy = run_images(image_epochs)
    return text_accuracy, reload_same, image_accuracy


if __name__ == "__main__":
    main()
