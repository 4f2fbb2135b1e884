"""`clone_model`: same architecture, new layers and weights, Keras 3's options."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.models import clone_model

X = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")


def _same_predictions_after_copying_weights(model, clone, x):
    clone.set_weights(model.get_weights())
    for got, want in zip(np.atleast_1d(clone.predict(x, verbose=0)),
                         np.atleast_1d(model.predict(x, verbose=0))):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def _assert_fresh_weights(model, clone):
    assert len(clone.weights) == len(model.weights)
    for a, b in zip(model.weights, clone.weights):
        assert a is not b and a.shape == b.shape
    kernels = [(a, b) for a, b in zip(model.weights, clone.weights) if a.name == "kernel"]
    assert kernels and all(not np.array_equal(a.numpy(), b.numpy()) for a, b in kernels)


def test_sequential_clone_has_the_architecture_and_new_weights():
    hikeras.utils.set_random_seed(1)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4, activation="relu"),
                                layers.Dropout(0.2), layers.Dense(2, activation="softmax")],
                               name="net")
    model.layers[0].trainable = False
    model.compile(optimizer="adam", loss="mse")
    clone = clone_model(model)
    assert isinstance(clone, hikeras.Sequential) and clone.name == "net"
    assert clone.get_config() == model.get_config()
    assert not clone.layers[0].trainable and clone.optimizer is None
    _assert_fresh_weights(model, clone)
    _same_predictions_after_copying_weights(model, clone, X)


def _shared_layer_model():
    a, b = hikeras.Input((3,), name="a"), hikeras.Input((3,), name="b")
    shared = layers.Dense(5, activation="tanh", name="shared")
    merged = layers.Concatenate()([shared(a), shared(b)])
    return hikeras.Model({"a": a, "b": b},
                         {"score": layers.Dense(1, name="score")(merged),
                          "code": layers.Dense(2, name="code")(shared(a))})


def test_functional_clone_keeps_shared_layers_shared_and_the_io_structure():
    model = _shared_layer_model()
    clone = clone_model(model)
    assert [l.name for l in clone.layers] == [l.name for l in model.layers]
    assert len(clone.get_layer("shared")._inbound_nodes) == 3
    _assert_fresh_weights(model, clone)
    inputs = {"a": X, "b": X[::-1]}
    clone.set_weights(model.get_weights())
    got, want = clone.predict(inputs, verbose=0), model.predict(inputs, verbose=0)
    assert set(got) == {"score", "code"}
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6)


def test_clone_function_swaps_or_shares_layers():
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4), layers.Dropout(0.5),
                                layers.Dense(1)])

    def no_dropout(layer):
        if isinstance(layer, layers.Dropout):
            return layers.Identity()
        return type(layer).from_config(layer.get_config())

    assert isinstance(clone_model(model, clone_function=no_dropout).layers[1], layers.Identity)
    # Returning the layer itself shares it (and so its weights) with the original.
    shared = clone_model(model, clone_function=lambda layer: layer)
    assert all(a is b for a, b in zip(shared.weights, model.weights))


def _nested():
    inner = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(4), layers.Dense(4)],
                               name="inner")
    inputs = hikeras.Input((3,))
    return hikeras.Model(inputs, layers.Dense(1)(inner(inputs)))


@pytest.mark.parametrize("recursive, expected", [
    (False, ["inner", "dense"]), (True, ["dense", "dense_1", "dense"])])
def test_nested_models_are_cloned_whole_or_recursively(recursive, expected):
    model = _nested()
    seen = []

    def record(layer):
        seen.append(layer.name)
        return type(layer).from_config(layer.get_config())

    clone = clone_model(model, clone_function=record, recursive=recursive)
    assert seen == expected
    _same_predictions_after_copying_weights(model, clone, X)


def test_input_tensors_and_call_function():
    model = _nested()
    new_input = hikeras.Input((3,), name="fresh")
    calls = []

    def call(layer, *args, **kwargs):
        calls.append(layer.name)
        return layer(*args, **kwargs)

    clone = clone_model(model, input_tensors=new_input, call_function=call)
    assert clone.inputs[0] is new_input and calls == ["inner", "dense"]
    with pytest.raises(ValueError, match="one per input"):
        clone_model(model, input_tensors=[new_input, hikeras.Input((3,))])
    with pytest.raises(ValueError, match="functional models only"):
        clone_model(model.layers[1], input_tensors=new_input)


def test_a_masked_graph_keeps_its_masks():
    tokens = hikeras.Input((None,), dtype="int32")
    out = layers.LSTM(3)(layers.Embedding(9, 4, mask_zero=True)(tokens))
    model = hikeras.Model(tokens, out)
    clone = clone_model(model)
    clone.set_weights(model.get_weights())
    padded, trimmed = np.array([[3, 4, 0, 0]]), np.array([[3, 4]])
    np.testing.assert_allclose(clone.predict(padded, verbose=0),
                               model.predict(trimmed, verbose=0), rtol=1e-6)


class _Configurable(hikeras.Model):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = layers.Dense(units)

    def call(self, inputs):
        return self.dense(inputs)

    def get_config(self):
        return {"units": self.units, "name": self.name}


class _Opaque(hikeras.Model):
    def __init__(self, scale):
        super().__init__()
        self.dense = layers.Dense(2)
        self.scale = scale

    def call(self, inputs):
        return self.dense(inputs) * self.scale


def test_subclassed_models_are_recreated_from_config_or_refused_clearly():
    clone = clone_model(_Configurable(units=5, name="custom"))
    assert isinstance(clone, _Configurable) and clone.units == 5 and clone.name == "custom"
    with pytest.raises(ValueError, match="Cannot clone subclassed model.*get_config"):
        clone_model(_Opaque(2.0))
    with pytest.raises(ValueError, match="subclassed model"):
        clone_model(_Configurable(), clone_function=lambda layer: layer)
