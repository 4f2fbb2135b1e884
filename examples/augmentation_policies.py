"""Strong augmentation with RandAugment and AugMix, and CLAHE as preprocessing.

Uses the 8x8 digits shipped with hikeras (raw counts 0..16, scaled to
0..255 and enlarged to 16x16), so it runs offline in seconds:

    python examples/augmentation_policies.py

- **RandAugment in the data pipeline.** A `Dataset` maps each training batch
  through `RandAugment`, which applies two operations picked at random
  (shear, rotation, contrast, equalisation, ...) per batch. The model never
  sees it: evaluation data goes in untouched.
- **AugMix and RandomPerspective in the model.** An augmentation block inside
  the model runs in `fit` only; `evaluate` and `predict` pass images through.
- **CLAHE in the model.** `ContrastLimitedAdaptiveHistogramEqualization` is not
  random: it evens out the contrast of each image tile in training and
  inference alike, so the saved model carries it.
"""

import os
import tempfile

import numpy as np

import hikeras
from hikeras import layers
from hikeras.data import Dataset
from hikeras.datasets import digits

SIZE = 16


def load_images():
    """The digits as (n, 16, 16, 1) float images on [0, 255], with their labels."""
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    enlarge = layers.Resizing(SIZE, SIZE)
    prepare = lambda x: np.asarray(enlarge(x[..., None].astype("float32") * (255 / 16)))
    return (prepare(x_train), y_train), (prepare(x_test), y_test)


def training_pipeline(images, labels, batch_size=64):
    rand_augment = layers.RandAugment(value_range=(0, 255), num_ops=2, factor=0.3, seed=1)
    return (Dataset.from_tensor_slices((images, labels))
            .shuffle(len(images), seed=1)
            .batch(batch_size)
            .map(lambda x, y: (rand_augment(x), y)))


def build_model():
    augment = hikeras.Sequential([
        layers.AugMix(value_range=(0, 255), num_chains=2, chain_depth=2, seed=2),
        layers.RandomPerspective(factor=0.5, scale=0.2, seed=3),
    ], name="augment")
    inputs = hikeras.Input((SIZE, SIZE, 1))
    x = layers.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2))(inputs)
    x = layers.Rescaling(1 / 255.0)(augment(x))
    x = layers.MaxPooling2D(2)(layers.Conv2D(16, 3, activation="relu")(x))
    outputs = layers.Dense(10)(layers.Flatten()(x))
    return hikeras.Model(inputs, outputs)


def main(epochs=6):
    hikeras.utils.set_random_seed(7)
    (x_train, y_train), (x_test, y_test) = load_images()
    model = build_model()
    model.compile(optimizer=hikeras.optimizers.Adam(3e-3),
                  loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(training_pipeline(x_train, y_train), epochs=epochs, verbose=0)
    accuracy = model.evaluate(x_test, y_test, return_dict=True, verbose=0)["accuracy"]
    print(f"test accuracy {accuracy:.3f} after {epochs} epochs of RandAugment + AugMix")

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "digits.keras")
        model.save(path)
        reloaded = hikeras.models.load_model(path)
    same = np.allclose(model.predict(x_test, verbose=0), reloaded.predict(x_test, verbose=0))
    print(f"reloaded model (with its CLAHE step) predicts the same: {same}")
    return accuracy, same


if __name__ == "__main__":
    main()
