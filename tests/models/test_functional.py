import numpy as np
import pytest

import hikeras
from hikeras import layers


def _data(n=8, d=4, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d)).astype("float32")


def test_multi_input_multi_output_forward():
    a, b = hikeras.Input((4,), name="a"), hikeras.Input((3,), name="b")
    h = layers.Dense(5, activation="relu")(a)
    out1 = layers.Dense(2, name="out1")(h)
    merged = layers.Dense(1, name="out2")(layers.Reshape((5,))(h) + layers.Dense(5)(b))
    model = hikeras.Model([a, b], [out1, merged])
    xa, xb = _data(), _data(d=3)
    y1, y2 = model([xa, xb])
    assert y1.shape == (8, 2) and y2.shape == (8, 1)
    y1d, y2d = model({"a": xa, "b": xb})
    np.testing.assert_allclose(y1, y1d)
    assert model.input_names == ["a", "b"] and model.output_names == ["out1", "out2"]


def test_shared_layer_used_twice():
    shared = layers.Dense(3, name="shared")
    a, b = hikeras.Input((4,)), hikeras.Input((4,))
    model = hikeras.Model([a, b], [shared(a), shared(b)])
    assert len(model.weights) == 2
    x1, x2 = _data(seed=1), _data(seed=2)
    y1, y2 = model([x1, x2])
    np.testing.assert_allclose(y1, shared(x1))
    np.testing.assert_allclose(y2, shared(x2))


def test_model_nested_as_layer():
    inner_in = hikeras.Input((4,))
    inner = hikeras.Model(inner_in, layers.Dense(3, activation="tanh")(inner_in), name="inner")
    outer_in = hikeras.Input((4,))
    outer = hikeras.Model(outer_in, layers.Dense(2)(inner(outer_in)))
    x = _data()
    expected = outer.layers[2](inner(x))
    np.testing.assert_allclose(outer(x), expected, rtol=1e-6)
    assert len(outer.weights) == 4 and outer.count_params() == 4 * 3 + 3 + 3 * 2 + 2


def test_graph_disconnected_error():
    a, b = hikeras.Input((4,)), hikeras.Input((4,))
    out = layers.Dense(1)(layers.Dense(4)(a) + b)
    with pytest.raises(ValueError, match="Graph disconnected"):
        hikeras.Model(a, out)


def test_wrong_number_of_inputs_and_shape():
    a, b = hikeras.Input((4,)), hikeras.Input((3,))
    model = hikeras.Model([a, b], layers.Dense(1)(layers.Dense(4)(a)))
    with pytest.raises(ValueError, match="expects 2 input"):
        model([_data()])
    with pytest.raises(ValueError, match=r"expects shape \(None, 3\)"):
        model([_data(), _data()])


def test_functional_config_round_trip():
    a = hikeras.Input((4,), name="a")
    shared = layers.Dense(4, name="shared")
    x = shared(shared(a))
    model = hikeras.Model(a, layers.Dense(2, name="head")(x), name="m")
    clone = hikeras.models.Functional.from_config(model.get_config())
    assert [l.name for l in clone.layers] == [l.name for l in model.layers]
    clone.set_weights(model.get_weights())
    xa = _data()
    np.testing.assert_allclose(clone(xa), model(xa), rtol=1e-6)
    config = model.get_config()
    shared_nodes = [l for l in config["layers"] if l["name"] == "shared"][0]["inbound_nodes"]
    assert shared_nodes == [[["a", 0, 0, {}]], [["shared", 0, 0, {}]]]


def test_subclassed_model():
    class TwoLayer(hikeras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = layers.Dense(8, activation="relu")
            self.out = layers.Dense(1)

        def call(self, inputs, training=None):
            return self.out(self.hidden(inputs))

    model = TwoLayer()
    y = model(_data())
    assert y.shape == (8, 1)
    assert [l.name for l in model.layers] == ["dense", "dense_1"]
    assert len(model.trainable_weights) == 4
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(_data(32), np.zeros((32, 1)), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_model_subclass_instantiated_functionally_keeps_overrides():
    calls = []

    class CustomModel(hikeras.Model):
        def train_step(self, data):
            calls.append(1)
            return super().train_step(data)

    inputs = hikeras.Input((4,))
    model = CustomModel(inputs, layers.Dense(1)(inputs))
    assert isinstance(model, CustomModel) and isinstance(model, hikeras.models.Functional)
    x = _data()
    np.testing.assert_allclose(model(x), model.layers[1](x), rtol=1e-6)
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, np.zeros((8, 1)), batch_size=4, epochs=1, verbose=0)
    assert len(calls) == 2


def test_subclass_with_two_positional_arguments_is_not_mistaken_for_functional():
    class TwoArgs(hikeras.Model):
        def __init__(self, units, depth):
            super().__init__()
            self.units, self.depth = units, depth
            self.dense = layers.Dense(units)

        def call(self, inputs):
            return self.dense(inputs)

    model = TwoArgs(3, 2)
    assert model(_data()).shape == (8, 3)


def test_a_config_listing_layers_in_reverse_rebuilds_the_same_model():
    """Issue #21: replay is driven by dependencies, not by rescanning (was quadratic)."""
    import json

    x = inputs = hikeras.Input((3,))
    shared = hikeras.layers.Dense(3, name="shared")
    for i in range(20):
        x = shared(hikeras.layers.Dense(3, name=f"d{i}")(x))
    model = hikeras.Model(inputs, x)
    config = json.loads(model.to_json())
    config["config"]["layers"].reverse()
    rebuilt = hikeras.models.model_from_json(json.dumps(config))
    assert len(rebuilt.get_layer("shared")._inbound_nodes) == 20
    rebuilt.set_weights(model.get_weights())
    data = np.ones((2, 3), "f4")
    np.testing.assert_allclose(rebuilt.predict(data, verbose=0), model.predict(data, verbose=0))
