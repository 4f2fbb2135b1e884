"""The `hikeras.data.Dataset` pipeline: slices, map, filter, shuffle, batch, prefetch."""

import numpy as np

import hikeras as keras
from hikeras import layers
from hikeras.data import Dataset


def main(small=False):
    keras.utils.set_random_seed(20)
    numbers = Dataset.from_tensor_slices(np.arange(10))
    assert list(numbers.map(lambda v: v * v).filter(lambda v: v % 2 == 0).as_numpy_iterator()
                ) == [0, 4, 16, 36, 64]
    batches = list(numbers.batch(4).as_numpy_iterator())
    assert [len(b) for b in batches] == [4, 4, 2]

    rng = np.random.default_rng(20)
    n = 256 if small else 2048
    x = rng.standard_normal((n, 3)).astype("float32")
    y = (x.sum(axis=1) > 0).astype("float32")
    train = (Dataset.from_tensor_slices((x, y))
             .map(lambda features, label: (features * 2.0, label))
             .shuffle(n, seed=1).batch(32).prefetch(2))
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1, activation="sigmoid")])
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(train, epochs=5 if small else 10, verbose=0)
    assert history.history["accuracy"][-1] > 0.7
    return history.history["accuracy"][-1]


if __name__ == "__main__":
    print("accuracy", main())
