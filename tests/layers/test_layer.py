import numpy as np
import pytest

import hikeras
from hikeras import layers


class Scale(layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
        self.count = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                     name="count")

    def call(self, inputs):
        return inputs * self.w


def test_add_weight_and_weight_lists():
    layer = Scale()
    layer(np.ones((2, 3), "float32"))
    assert [w.name for w in layer.weights] == ["w", "count"]
    assert [w.name for w in layer.trainable_weights] == ["w"]
    assert [w.name for w in layer.non_trainable_weights] == ["count"]
    assert layer.count_params() == 4


def test_trainable_flag_is_recursive_and_keeps_weight_order():
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2), Scale()])
    order = [w.path for w in model.weights]
    model.trainable = False
    assert model.trainable_weights == []
    assert all(not l.trainable for l in model.layers)
    assert [w.path for w in model.weights] == order
    model.layers[0].trainable = True
    model.trainable = True
    assert len(model.trainable_weights) == 3


def test_set_weights_checks_count_and_shapes():
    layer = layers.Dense(2)
    layer(np.ones((1, 3), "float32"))
    with pytest.raises(ValueError, match="expects 2 weight arrays"):
        layer.set_weights([np.zeros((3, 2))])
    with pytest.raises(ValueError, match=r"dense/kernel.*\(3, 2\).*\(2, 2\)"):
        layer.set_weights([np.zeros((2, 2)), np.zeros(2)])
    layer.set_weights([np.ones((3, 2)), np.arange(2)])
    np.testing.assert_array_equal(layer.get_weights()[1], [0, 1])


def test_get_weights_returns_copies():
    layer = layers.Dense(2)
    layer(np.ones((1, 3), "float32"))
    w = layer.get_weights()
    w[0][...] = 123
    assert not np.any(layer.get_weights()[0] == 123)


def test_count_params_before_build_is_an_error():
    with pytest.raises(ValueError, match="isn't built"):
        layers.Dense(2).count_params()


def test_regularizer_losses():
    layer = layers.Dense(2, kernel_regularizer=hikeras.regularizers.L2(0.1))
    layer(np.ones((1, 3), "float32"))
    (penalty,) = layer.losses
    np.testing.assert_allclose(float(penalty), 0.1 * np.sum(layer.kernel.numpy() ** 2),
                               rtol=1e-6)


def test_training_flag_propagates_to_nested_layers():
    seen = []

    class Probe(layers.Layer):
        def call(self, inputs, training=None):
            seen.append(training)
            return inputs

    model = hikeras.Sequential([hikeras.Input((2,)), Probe()])
    x = np.ones((1, 2), "float32")
    model(x, training=True)
    model(x)
    assert seen[-2:] == [True, None]


def test_same_architecture_gets_same_names_twice():
    def build():
        inputs = hikeras.Input((4,))
        x = layers.Dense(3)(inputs)
        x = layers.Dense(3)(x)
        return hikeras.Model(inputs, layers.Dense(1)(x))

    first, second = build(), build()
    assert [l.name for l in first.layers] == [l.name for l in second.layers]
    assert [w.path for w in first.weights] == [w.path for w in second.weights]
    assert [l.name for l in first.layers] == ["input_layer", "dense", "dense_1", "dense_2"]


def test_duplicate_explicit_names_rejected():
    inputs = hikeras.Input((4,))
    x = layers.Dense(3, name="same")(inputs)
    with pytest.raises(ValueError, match="unique names"):
        hikeras.Model(inputs, layers.Dense(3, name="same")(x))


def test_calling_build_directly_marks_the_layer_built():
    layer = Scale()
    layer.build((None, 3))
    assert layer.built
    layer(np.ones((2, 3), "float32"))
    assert len(layer.weights) == 2  # not built a second time


def test_training_flag_explicit_then_enclosing_call_then_call_default():
    """Keras 3's order of resolution for `call`'s `training` argument."""
    class Probe(layers.Layer):
        def call(self, inputs, training=True):
            self.seen = training
            return inputs

    class Outer(layers.Layer):
        def __init__(self):
            super().__init__()
            self.probe = Probe()

        def call(self, inputs, training=None):
            return self.probe(inputs)

    x = np.ones((1, 2), "float32")
    probe = Probe()
    probe(x)
    assert probe.seen is True  # nobody said: call's own default
    probe(x, training=False)
    assert probe.seen is False
    outer = Outer()
    outer(x, training=False)
    assert outer.probe.seen is False  # the enclosing call's flag wins over the default
    outer(x)
    assert outer.probe.seen is True
