"""Small models shared by the saving tests."""

import numpy as np

import hikeras
from hikeras import layers
from hikeras.saving import register_keras_serializable


@register_keras_serializable(package="saving_tests")
class ScaleWithStats(layers.Layer):
    """`x * gamma + beta`, plus a non-trainable running mean (like BatchNormalization)."""

    def build(self, input_shape):
        dim = input_shape[-1]
        self.gamma = self.add_weight(shape=(dim,), initializer="ones", name="gamma")
        self.moving_mean = self.add_weight(shape=(dim,), initializer="zeros", trainable=False,
                                           name="moving_mean")
        self.beta = self.add_weight(shape=(dim,), initializer="zeros", name="beta")

    def call(self, inputs):
        return inputs * self.gamma + self.beta - self.moving_mean


def mlp(seed=0):
    hikeras.utils.set_random_seed(seed)
    return hikeras.Sequential([hikeras.Input((4,)), layers.Dense(6, activation="relu"),
                               ScaleWithStats(), layers.Dense(3)])


def functional(seed=0):
    hikeras.utils.set_random_seed(seed)
    x = hikeras.Input((4,))
    h = layers.Dense(6, activation="tanh")(x)
    s = ScaleWithStats()(h)
    return hikeras.Model(x, [layers.Dense(2)(s), layers.Dense(1)(h)])


def inner_block(seed=0):
    hikeras.utils.set_random_seed(seed)
    return hikeras.Sequential([hikeras.Input((4,)), layers.Dense(5), ScaleWithStats(),
                               layers.Dense(3)], name="block")


def nested(seed=0):
    block = inner_block(seed)
    x = hikeras.Input((4,))
    return hikeras.Model(x, layers.Dense(2, name="head")(block(x)))


def randomize(model, seed=1):
    """Gives every weight (trainable or not) a distinct random value in (0.1, 1)
    (positive, so a BatchNormalization variance stays valid)."""
    rng = np.random.default_rng(seed)
    for v in model.weights:
        v.assign(rng.uniform(0.1, 1.0, size=v.shape).astype(v.dtype))
    return model


def sample_x():
    return np.random.default_rng(7).normal(size=(5, 4)).astype("float32")


def outputs(model, x):
    out = model.predict(x, verbose=0)
    return [np.asarray(o) for o in out] if isinstance(out, list) else [np.asarray(out)]


def assert_same_outputs(a, b, x):
    for p, q in zip(outputs(a, x), outputs(b, x)):
        np.testing.assert_array_equal(p, q)
