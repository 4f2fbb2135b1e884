"""Overriding `train_step`/`test_step`, Keras 3 style and Keras 2 style."""

import numpy as np

import hikeras
from hikeras import layers, metrics, ops


def data(n=12):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype("float32")
    return x, (x @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")


class Linear(hikeras.Model):
    """A subclassed model: one Dense layer."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = layers.Dense(1)

    def call(self, x):
        return self.dense(x)


class Keras3Style(Linear):
    """`compute_loss`, `self.metrics`, `compute_metrics`: the Keras 3 guide's pattern."""

    def train_step(self, data):
        x, y = data[:2]  # fit's batches are (x, y, sample_weight)
        with hikeras.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        x, y = data[:2]
        y_pred = self(x, training=False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, training=False)
        self._loss_tracker.update_state(loss, sample_weight=len(x))
        return self.compute_metrics(x, y, y_pred)


class Keras2Style(Linear):
    """`self.compiled_loss` / `self.compiled_metrics`: tf.keras code runs unchanged."""

    def train_step(self, data):
        x, y = data[:2]
        with hikeras.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def build(cls):
    hikeras.utils.set_random_seed(0)
    model = cls()
    model(np.zeros((1, 3), "float32"))
    return model


def test_keras3_style_override_trains_and_logs_compiled_metrics():
    x, y = data()
    model = build(Keras3Style)
    model.compile(optimizer=hikeras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=20, batch_size=12, verbose=0)
    assert set(history.history) == {"loss", "mae"}
    assert history.history["loss"][-1] < 0.1 * history.history["loss"][0]
    logs = model.evaluate(x, y, batch_size=5, verbose=0, return_dict=True)
    pred = model.predict(x, verbose=0)
    np.testing.assert_allclose(logs["mae"], np.mean(np.abs(pred - y)), rtol=1e-5)
    np.testing.assert_allclose(logs["loss"], np.mean((pred - y) ** 2), rtol=1e-5)


def test_keras2_style_override_matches_the_built_in_step():
    x, y = data()
    custom, builtin = build(Keras2Style), build(Linear)
    for model in (custom, builtin):
        model.compile(optimizer=hikeras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    custom_history = custom.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0)
    builtin_history = builtin.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0)
    for key in ("loss", "mae"):
        np.testing.assert_allclose(custom_history.history[key], builtin_history.history[key],
                                   rtol=1e-6)
    for a, b in zip(custom.get_weights(), builtin.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)


class WithOwnTracker(Linear):
    """A subclass with its own metric object and no compiled loss (a VAE-like model)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.penalty_tracker = metrics.Mean(name="penalty")

    @property
    def metrics(self):
        return [self.penalty_tracker]

    def train_step(self, data):
        x = data[0] if isinstance(data, tuple) else data
        with hikeras.GradientTape() as tape:
            penalty = ops.mean(ops.square(self(x, training=True)))
        grads = tape.gradient(penalty, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        self.penalty_tracker.update_state(penalty)
        return {"penalty": self.penalty_tracker.result()}


def test_model_with_only_its_own_metrics():
    x, _ = data()
    model = build(WithOwnTracker)
    model.compile(optimizer=hikeras.optimizers.SGD(0.1))
    history = model.fit(x, epochs=5, batch_size=6, verbose=0)
    assert list(history.history) == ["penalty"]
    assert history.history["penalty"][-1] < history.history["penalty"][0]
