"""Custom losses and metrics: a function, a `Loss` subclass and a stateful `Metric`."""

import numpy as np

import hikeras as keras
from hikeras import layers, ops


def weighted_mse(y_true, y_pred):
    """Errors on positive targets count twice."""
    weights = ops.where(ops.greater(y_true, 0.0), 2.0, 1.0)
    return ops.mean(weights * ops.square(y_true - y_pred), axis=-1)


class HuberLike(keras.losses.Loss):
    def __init__(self, delta=1.0, **kwargs):
        super().__init__(**kwargs)
        self.delta = delta

    def call(self, y_true, y_pred):
        error = ops.abs(y_true - y_pred)
        quadratic = ops.minimum(error, self.delta)
        return ops.mean(0.5 * quadratic ** 2 + self.delta * (error - quadratic), axis=-1)

    def get_config(self):
        return {**super().get_config(), "delta": self.delta}


class CountAbove(keras.metrics.Metric):
    """How many predictions exceeded `threshold` so far (state across batches)."""

    def __init__(self, threshold=0.0, name="count_above", **kwargs):
        super().__init__(name=name, **kwargs)
        self.threshold = threshold
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")

    def update_state(self, y_true, y_pred, sample_weight=None):
        above = np.asarray(y_pred) > self.threshold
        self.count.assign(self.count.value + float(above.sum()))

    def result(self):
        return self.count.value

    def reset_state(self):
        self.count.assign(0.0)


def main(small=False):
    keras.utils.set_random_seed(13)
    y_true = np.array([[1.0], [-1.0]], "float32")
    y_pred = np.array([[0.0], [0.0]], "float32")
    np.testing.assert_allclose(weighted_mse(y_true, y_pred), [2.0, 1.0])
    assert np.isclose(float(HuberLike(0.5)(y_true, y_pred)), 0.375)
    assert np.isclose(float(keras.losses.Huber(0.5)(y_true, y_pred)), 0.375)  # the built-in

    rng = np.random.default_rng(13)
    x = rng.standard_normal((128 if small else 1024, 4)).astype("float32")
    y = x[:, :1] - x[:, 1:2]
    for loss in (weighted_mse, HuberLike(1.0)):
        model = keras.Sequential([keras.Input((4,)), layers.Dense(1)])
        model.compile("adam", loss=loss, metrics=[CountAbove(0.0)])
        history = model.fit(x, y, epochs=2 if small else 10, batch_size=32, verbose=0)
        assert history.history["loss"][-1] < history.history["loss"][0]
        # The metric counted over the whole epoch, then was reset for the next.
        assert 0 < history.history["count_above"][-1] <= len(x)
    return history.history


if __name__ == "__main__":
    print(main())
