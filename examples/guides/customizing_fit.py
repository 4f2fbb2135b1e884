"""Customising what happens in `fit`: your own `train_step` and `test_step`.

The model computes its loss and metrics by hand, applies gradients itself,
and still gets callbacks, progress logs, validation and `evaluate` from `fit`.
"""

import numpy as np

import hikeras as keras
from hikeras import layers


class MeanAbsoluteRegressor(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.hidden = layers.Dense(16, activation="relu")
        self.out = layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae = keras.metrics.MeanAbsoluteError(name="mae")

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    @property
    def metrics(self):
        return [self.loss_tracker, self.mae]  # reset at each epoch by fit

    def train_step(self, data):
        x, y = data
        with keras.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = keras.ops.mean(keras.ops.abs(y - y_pred))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.mae.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.loss_tracker.update_state(keras.ops.mean(keras.ops.abs(y - y_pred)))
        self.mae.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def main(small=False):
    keras.utils.set_random_seed(5)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((256 if small else 2048, 4)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], "float32")).astype("float32")
    model = MeanAbsoluteRegressor()
    model.compile(optimizer="adam")  # no loss: train_step computes it
    history = model.fit(x, y, epochs=3 if small else 20, batch_size=32, verbose=0,
                        validation_split=0.2)
    assert set(history.history) == {"loss", "mae", "val_loss", "val_mae"}
    assert history.history["mae"][-1] < history.history["mae"][0]
    results = model.evaluate(x, y, verbose=0, return_dict=True)
    assert np.isclose(results["loss"], results["mae"], rtol=1e-4)
    return results


if __name__ == "__main__":
    print(main())
