"""The five augmentation layers of issue #18 have Keras's signatures, and configs written
by Keras (fixtures/keras_augment) load and come back with Keras's keys and values."""

import inspect
import json
import pathlib

import numpy as np
import pytest

from hikeras import layers

CONFIGS = json.loads(str(np.load(pathlib.Path(__file__).parents[1] / "fixtures"
                                 / "keras_augment" / "augment.npz")["configs"]))


def plain(value):
    """Lists for tuples, as JSON writes them."""
    return [plain(v) for v in value] if isinstance(value, (list, tuple)) else value


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_keras_config_round_trips(name):
    keras_config = CONFIGS[name]
    layer = getattr(layers, name).from_config(keras_config)
    config = layer.get_config()
    assert set(keras_config) == set(config)
    for key, value in keras_config.items():
        if key != "dtype":  # Keras writes a DTypePolicy dict, hikeras the dtype's name
            assert plain(config[key]) == value, key
    assert config["dtype"] == keras_config["dtype"]["config"]["name"]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_signature_is_keras(name):
    names = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_names"
                        / "keras_public_names.json").read_text())
    expected = names["namespaces"]["keras.layers"][name]["signature"]
    assert str(inspect.signature(getattr(layers, name))) == expected
