"""Functional models whose inputs are layer outputs, not `Input`s (Keras 3 allows it)."""

import numpy as np
import pytest

import hikeras
from hikeras import layers


def _graph():
    raw = hikeras.Input((3,), name="raw")
    hidden = layers.Dense(4, name="encode")(raw)
    other = hikeras.Input((2,), name="other")
    head = layers.Dense(5, activation="relu", name="head")(hidden)
    merged = layers.Concatenate(name="merge")([head, other])
    return raw, hidden, other, layers.Dense(1, name="out")(merged)


def test_a_model_from_an_intermediate_tensor_shares_the_layers(rng):
    raw, hidden, other, out = _graph()
    full = hikeras.Model([raw, other], out)
    tail = hikeras.Model([hidden, other], out)
    assert [layer.name for layer in tail.layers if not isinstance(layer, layers.InputLayer)] \
        == ["head", "merge", "out"]
    assert tail.input_shape == [(None, 4), (None, 2)] and tail.output_shape == (None, 1)
    x, z = rng.normal(size=(5, 3)).astype("float32"), rng.normal(size=(5, 2)).astype("float32")
    encoded = full.get_layer("encode")(x)
    np.testing.assert_allclose(tail.predict([encoded, z], verbose=0),
                               full.predict([x, z], verbose=0), rtol=1e-6)
    tail.compile("sgd", "mse")
    tail.fit([encoded, z], np.ones((5, 1)), epochs=1, verbose=0)  # trains the shared weights
    np.testing.assert_allclose(tail.predict([encoded, z], verbose=0),
                               full.predict([x, z], verbose=0), rtol=1e-6)


def test_the_rebuilt_model_round_trips_its_config():
    _, hidden, other, out = _graph()
    tail = hikeras.Model([hidden, other], out)
    clone = hikeras.Model.from_config(tail.get_config())
    assert clone.get_config() == tail.get_config()


def test_an_output_that_needs_a_missing_input_is_still_refused():
    _, hidden, _, out = _graph()
    with pytest.raises(ValueError, match="Graph disconnected.*'other'"):
        hikeras.Model(hidden, out)
