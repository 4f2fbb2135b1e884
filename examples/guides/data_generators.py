"""Feeding `fit` from Python: a `PyDataset` (Keras's `Sequence`) and a generator."""

import numpy as np

import hikeras as keras
from hikeras import layers


class NoisyLine(keras.utils.PyDataset):
    """Batches of `y = 2x + 1` with fresh noise, built on demand."""

    def __init__(self, batches, batch_size=16, **kwargs):
        super().__init__(**kwargs)
        self.batches, self.batch_size = batches, batch_size

    def __len__(self):
        return self.batches

    def __getitem__(self, index):
        rng = np.random.default_rng(index)
        x = rng.uniform(-1, 1, (self.batch_size, 1)).astype("float32")
        return x, 2 * x + 1 + 0.01 * rng.standard_normal(x.shape).astype("float32")


def main(small=False):
    keras.utils.set_random_seed(19)
    model = keras.Sequential([keras.Input((1,)), layers.Dense(1)])
    model.compile(keras.optimizers.SGD(0.2), "mse")
    history = model.fit(NoisyLine(8 if small else 64), epochs=5 if small else 20, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert int(model.optimizer.iterations) == (8 if small else 64) * (5 if small else 20)

    def endless():
        rng = np.random.default_rng(0)
        while True:
            x = rng.uniform(-1, 1, (16, 1)).astype("float32")
            yield x, 2 * x + 1

    model.fit(endless(), steps_per_epoch=4, epochs=2, verbose=0)
    kernel, bias = model.get_weights()
    if not small:
        np.testing.assert_allclose([kernel[0, 0], bias[0]], [2.0, 1.0], atol=0.05)
    return float(kernel[0, 0]), float(bias[0])


if __name__ == "__main__":
    print("kernel, bias", main())
