"""Lambda (serialised by registered name only) and Identity."""


import numpy as np
import pytest

import hikeras
from hikeras import layers, ops
from hikeras.saving import register_keras_serializable
from tests.helpers.layer_test import run_layer_test


@register_keras_serializable(package="test_lambda")
def affine(x, scale=2.0, shift=0.0):
    return ops.add(ops.multiply(x, scale), shift)


@register_keras_serializable(package="test_lambda")
def noisy_in_training(x, training=None):
    return ops.add(x, 1.0) if training else x


@register_keras_serializable(package="test_lambda")
def half_last_axis(shape):
    return tuple(shape[:-1]) + (shape[-1] // 2,)


def first_half(x):
    """Unregistered, and written with numpy (not traceable symbolically)."""
    x = np.asarray(x)
    return x[:, : x.shape[1] // 2]


def test_lambda_harness():
    run_layer_test(layers.Lambda, {"function": affine, "arguments": {"scale": 3.0}},
                   input_shape=(2, 4), expected_output_shape=(2, 4),
                   expected_num_trainable_weights=0)


def test_identity_harness():
    run_layer_test(layers.Identity, {}, input_shape=(2, 3, 4),
                   expected_output_shape=(2, 3, 4), expected_num_trainable_weights=0)


def test_lambda_passes_arguments_and_training():
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(layers.Lambda(affine, arguments={"shift": 1.0})(x), 3.0)
    layer = layers.Lambda(noisy_in_training)
    np.testing.assert_allclose(layer(x, training=True), 2.0)
    np.testing.assert_allclose(layer(x), 1.0)


def test_lambda_config_stores_only_the_registered_name():
    layer = layers.Lambda(affine, output_shape=half_last_axis, arguments={"scale": 3.0})
    config = layer.get_config()
    assert config["function"] == "test_lambda>affine"
    assert config["output_shape"] == "test_lambda>half_last_axis"
    restored = layers.deserialize(layers.serialize(layer))
    assert restored.function is affine and restored.arguments == {"scale": 3.0}


def test_output_shape_tuple_or_function_when_tracing_is_impossible():
    inputs = hikeras.Input((6,))
    with pytest.raises(ValueError, match="output_shape"):
        layers.Lambda(first_half)(inputs)
    assert layers.Lambda(first_half, output_shape=(3,))(inputs).shape == (None, 3)
    assert layers.Lambda(first_half, output_shape=half_last_axis)(inputs).shape == (None, 3)
    traced = layers.Lambda(affine)(hikeras.Input((2, 5)))
    assert traced.shape == (None, 2, 5)


def test_unregistered_function_resolves_through_custom_objects():
    model = hikeras.Sequential([hikeras.Input((4,)),
                                layers.Lambda(first_half, output_shape=(2,)),
                                layers.Dense(1)])
    config = model.get_config()
    with pytest.raises(ValueError, match=r"function 'first_half'.*custom_objects"):
        hikeras.Sequential.from_config(config)
    clone = hikeras.Sequential.from_config(config, custom_objects={"first_half": first_half})
    clone.set_weights(model.get_weights())
    x = np.arange(8, dtype="float32").reshape(2, 4)
    np.testing.assert_allclose(clone.predict(x, verbose=0), model.predict(x, verbose=0))


def test_anonymous_lambda_and_keras_bytecode_are_never_loaded():
    config = layers.Lambda(lambda x: x * 2).get_config()
    assert config["function"] == "<lambda>"
    with pytest.raises(ValueError, match="anonymous lambda"):
        layers.Lambda.from_config(config)
    keras2 = {"name": "l", "function": ["4wEAAAAAAAAA", None, None], "function_type": "lambda"}
    with pytest.raises(ValueError, match="bytecode"):
        layers.Lambda.from_config(keras2)
    keras3 = {"name": "l", "function": {"class_name": "__lambda__", "config": {"code": "..."}}}
    with pytest.raises(ValueError, match="anonymous lambda"):
        layers.Lambda.from_config(keras3)


def test_keras3_function_config_resolves_by_registered_name():
    config = {"name": "l", "function": {"module": "builtins", "class_name": "function",
                                        "config": "affine",
                                        "registered_name": "test_lambda>affine"}}
    assert layers.Lambda.from_config(config).function is affine


