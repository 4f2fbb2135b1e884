"""Keras 3 configs, with the keys its newer releases add, rebuild hikeras objects."""

import copy

import pytest

from hikeras import layers
from hikeras.serialization.config_dialect import normalize_config

# As Keras 3.15 writes them (`get_config()` of a default layer, wrapped by `serialize`).
DENSE = {"module": "keras.layers", "class_name": "Dense", "registered_name": None,
         "config": {"name": "dense", "trainable": True, "units": 3, "activation": "relu",
                    "use_bias": True, "kernel_initializer": "glorot_uniform",
                    "quantization_config": None, "lora_rank": None, "lora_alpha": None},
         "build_config": {"input_shape": [None, 4]}}
ATTENTION = {"module": "keras.layers", "class_name": "MultiHeadAttention",
             "config": {"num_heads": 2, "key_dim": 3, "use_gate": False,
                        "sliding_window": None, "activity_regularizer": None}}


@pytest.mark.parametrize("config, cls", [(DENSE, layers.Dense),
                                         (ATTENTION, layers.MultiHeadAttention)])
def test_layers_deserialize_reads_keras_3_configs(config, cls):
    before = copy.deepcopy(config)
    layer = layers.deserialize(config)
    assert type(layer) is cls
    assert config == before  # the caller's dict is not modified


def test_only_keys_at_their_off_value_are_dropped():
    config = normalize_config(DENSE)
    assert set(config) == {"class_name", "config"}
    assert "quantization_config" not in config["config"] and config["config"]["units"] == 3
    quantized = copy.deepcopy(DENSE)
    quantized["config"]["quantization_config"] = {"mode": "int8"}
    assert normalize_config(quantized)["config"]["quantization_config"] == {"mode": "int8"}


def test_a_feature_switched_on_is_refused_by_name():
    config = copy.deepcopy(DENSE)
    config["config"]["quantization_config"] = {"mode": "int8"}
    with pytest.raises(TypeError, match=f"{config['class_name']}.*quantization_config"):
        layers.deserialize(config)


def test_lora_switched_on_is_rebuilt():
    config = copy.deepcopy(DENSE)
    config["config"].update(lora_rank=4, lora_alpha=8)
    layer = layers.deserialize(config)
    layer.build((None, 5))
    assert layer.lora_enabled and (layer.lora_rank, layer.lora_alpha) == (4, 8)
