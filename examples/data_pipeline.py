"""Feed a model from a `Dataset` pipeline and from a threaded `Sequence`.

Uses the 8x8 digits set shipped with hikeras, so it runs offline in seconds:

    python examples/data_pipeline.py

The pipeline shuffles, augments in two background threads (a random
occasional one-pixel shift and noise), batches and prefetches, so augmentation runs
while the model trains. The `Sequence` does the same job by batch index,
built by a pool of worker threads.
"""

import numpy as np

import hikeras
from hikeras import layers
from hikeras.data import AUTOTUNE, Dataset
from hikeras.datasets import digits


def augment(position, sample):
    """Sometimes shift an 8x8 image one pixel sideways, and add a little noise.

    The randomness is seeded by the sample's position in the shuffled
    epoch, so runs are reproducible even though two threads call this
    function in no particular order, and an image is augmented differently
    from one epoch to the next.
    """
    image, label = sample
    rng = np.random.default_rng(int(position))
    shift = rng.choice([-1, 0, 0, 0, 0, 0, 1])  # mostly unshifted
    shifted = np.roll(image, shift, axis=1)
    noisy = shifted + rng.normal(0.0, 0.02, size=shifted.shape)
    return noisy.reshape(64).astype("float32"), label


class DigitBatches(hikeras.utils.Sequence):
    """Digit batches by index; `on_epoch_end` reshuffles the samples."""

    def __init__(self, images, labels, batch_size=64, **kwargs):
        super().__init__(**kwargs)
        self.images, self.labels, self.batch_size = images, labels, batch_size
        self.order = np.arange(len(images))
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return -(-len(self.images) // self.batch_size)

    def __getitem__(self, index):
        rows = self.order[index * self.batch_size:(index + 1) * self.batch_size]
        return self.images[rows].reshape(len(rows), 64), self.labels[rows]

    def on_epoch_end(self):
        self.rng.shuffle(self.order)


def build_model():
    model = hikeras.Sequential([
        hikeras.Input(shape=(64,)),
        layers.Dense(128, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def main(epochs=15):
    hikeras.utils.set_random_seed(7)
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    x_train = x_train.astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 16.0

    train = (Dataset.from_tensor_slices((x_train, y_train))
             .shuffle(len(x_train), seed=7)
             .enumerate()
             .map(augment, num_parallel_calls=2)
             .batch(64)
             .prefetch(AUTOTUNE))
    test = Dataset.from_tensor_slices((x_test, y_test)).batch(256)
    print(f"training batches per epoch: {train.cardinality()}")

    model = build_model()
    model.fit(train, epochs=epochs, validation_data=test, verbose=2)
    pipeline_accuracy = model.evaluate(test, return_dict=True, verbose=0)["accuracy"]
    print(f"Dataset pipeline - test accuracy {pipeline_accuracy:.4f}")

    model = build_model()
    model.fit(DigitBatches(x_train, y_train, workers=2), epochs=epochs, verbose=0)
    sequence_accuracy = model.evaluate(x_test, y_test, return_dict=True, verbose=0)["accuracy"]
    print(f"Sequence with 2 workers - test accuracy {sequence_accuracy:.4f}")
    return pipeline_accuracy, sequence_accuracy


if __name__ == "__main__":
    main()
