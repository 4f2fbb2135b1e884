import io

import numpy as np
import pytest

import hikeras
from hikeras import layers


def test_sequential_with_input_is_built():
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3), layers.Dense(2)])
    assert model.built and model.output_shape == (None, 2)
    assert [l.name for l in model.layers] == ["dense", "dense_1"]


def test_sequential_input_shape_kwarg():
    model = hikeras.Sequential([layers.Dense(3, input_shape=(5,)), layers.Dense(1)])
    assert model.input_shape == (None, 5)
    assert model.count_params() == 5 * 3 + 3 + 3 + 1


def test_deferred_build_from_first_batch():
    model = hikeras.Sequential()
    model.add(layers.Dense(3))
    model.add(layers.Dense(1))
    assert not model.built
    model(np.ones((2, 7), "float32"))
    assert model.built and model.input_shape == (None, 7)
    assert model.count_params() == 7 * 3 + 3 + 3 + 1


def test_add_and_pop():
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3)])
    model.add(layers.Dense(2))
    assert model.output_shape == (None, 2)
    popped = model.pop()
    assert isinstance(popped, layers.Dense) and model.output_shape == (None, 3)
    with pytest.raises(TypeError, match="Layer instance"):
        model.add("dense")


def test_sequential_config_round_trip():
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, activation="relu"),
                                layers.Dropout(0.5), layers.Dense(1)])
    clone = hikeras.Sequential.from_config(model.get_config())
    clone.set_weights(model.get_weights())
    x = np.ones((2, 4), "float32")
    np.testing.assert_allclose(clone(x), model(x))


def test_model_call_returns_numpy_compatible_output():
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3)])
    out = model(np.ones((2, 4)), training=False)
    assert np.asarray(out).shape == (2, 3) and np.asarray(out).dtype == np.float32
