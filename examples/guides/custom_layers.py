"""Making new layers: weights in `build`, losses with `add_loss`, configs, nesting.

`Linear` is the smallest layer with weights; `ActivityL1` adds a loss; `MLPBlock`
nests layers (their weights become its own); `get_config` lets a model that
uses them be saved and rebuilt.
"""

import os
import tempfile

import numpy as np

import hikeras as keras
from hikeras import ops


@keras.saving.register_keras_serializable(package="guides")
class Linear(keras.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer="glorot_uniform", name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, inputs):
        return ops.matmul(inputs, self.w) + self.b

    def get_config(self):
        return {**super().get_config(), "units": self.units}


@keras.saving.register_keras_serializable(package="guides")
class ActivityL1(keras.Layer):
    def __init__(self, rate=1e-2, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * ops.sum(ops.abs(inputs)))
        return inputs

    def get_config(self):
        return {**super().get_config(), "rate": self.rate}


@keras.saving.register_keras_serializable(package="guides")
class MLPBlock(keras.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.first = Linear(16)
        self.second = Linear(1)

    def call(self, inputs):
        return self.second(ops.relu(self.first(inputs)))


def main(small=False):
    keras.utils.set_random_seed(2)
    block = MLPBlock()
    out = block(np.ones((3, 8), "float32"))
    assert out.shape == (3, 1) and len(block.trainable_weights) == 4

    penalised = ActivityL1(0.5)
    penalised(np.array([[1.0, -2.0]], "float32"))
    assert np.isclose(float(penalised.losses[0]), 1.5)

    rng = np.random.default_rng(0)
    x = rng.standard_normal((128 if small else 1024, 8)).astype("float32")
    y = (x[:, :1] * 2.0 - x[:, 1:2]).astype("float32")
    model = keras.Sequential([keras.Input((8,)), ActivityL1(1e-4), MLPBlock()])
    model.compile("adam", "mse")
    history = model.fit(x, y, epochs=3 if small else 20, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "custom.keras")
        model.save(path)
        restored = keras.models.load_model(path)  # the classes are registered
    np.testing.assert_allclose(restored.predict(x[:5], verbose=0),
                               model.predict(x[:5], verbose=0), rtol=1e-5)
    return history.history["loss"][-1]


if __name__ == "__main__":
    print("final loss", main())
