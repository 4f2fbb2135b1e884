"""Configs written by Keras for the five augmentation layers of issue #18
(fixtures/keras_augment) load, and come back with Keras's keys and values."""

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
