"""Activations: values against numbers worked out by hand, and `get`/`serialize`."""

import math

import numpy as np
import pytest

from hikeras import activations
from hikeras.saving import register_keras_serializable

LN2, LN3 = math.log(2.0), math.log(3.0)
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64), expected, rtol=1e-6,
                               atol=1e-7)


def arr(*values):
    return np.array(values, dtype=np.float64)


def test_relu_and_its_options():
    x = arr(-10.0, -5.0, 0.0, 5.0, 10.0)
    close(activations.relu(x), [0, 0, 0, 5, 10])
    close(activations.relu(x, negative_slope=0.5), [-5, -2.5, 0, 5, 10])
    close(activations.relu(x, max_value=5.0), [0, 0, 0, 5, 5])
    close(activations.relu(x, max_value=6.0), [0, 0, 0, 5, 6])
    close(activations.relu(x, threshold=5.0), [0, 0, 0, 0, 10])
    # below threshold 1: -0.5 * (1 - x); above: x, capped at 6
    close(activations.relu(x, negative_slope=0.5, max_value=6.0, threshold=1.0),
          [-5.5, -3.0, -0.5, 5.0, 6.0])


def test_piecewise_linear_family():
    close(activations.leaky_relu(arr(-1.0, 2.0)), [-0.2, 2.0])
    close(activations.leaky_relu(arr(-1.0, 2.0), negative_slope=0.1), [-0.1, 2.0])
    close(activations.relu6(arr(-1.0, 3.0, 7.0)), [0.0, 3.0, 6.0])
    close(activations.hard_sigmoid(arr(-4.0, -3.0, 0.0, 1.5, 4.0)), [0.0, 0.0, 0.5, 0.75, 1.0])
    close(activations.hard_silu(arr(-4.0, 1.5, 4.0)), [0.0, 1.125, 4.0])
    close(activations.hard_swish(arr(1.5)), [1.125])


def test_sigmoid_tanh_and_friends():
    close(activations.sigmoid(arr(0.0, LN3, -LN3)), [0.5, 0.75, 0.25])
    close(activations.tanh(arr(0.0, LN2)), [0.0, 0.6])  # (2 - 1/2) / (2 + 1/2)
    close(activations.softplus(arr(0.0, LN3)), [LN2, math.log(4.0)])
    close(activations.softsign(arr(3.0, -1.0)), [0.75, -0.5])
    close(activations.silu(arr(LN3, 0.0)), [0.75 * LN3, 0.0])
    close(activations.swish(arr(LN3)), [0.75 * LN3])
    close(activations.exponential(arr(0.0, math.log(5.0))), [1.0, 5.0])


def test_exponential_linear_units():
    close(activations.elu(arr(2.0, -LN2)), [2.0, -0.5])
    close(activations.elu(arr(-LN2), alpha=0.4), [-0.2])
    close(activations.selu(arr(1.0, -LN2)), [SELU_SCALE, -0.5 * SELU_SCALE * SELU_ALPHA])


def test_gelu_exact_and_approximate():
    # exact: x * Phi(x); Phi(1) = (1 + erf(1 / sqrt 2)) / 2
    phi1 = 0.5 * (1.0 + math.erf(1.0 / math.sqrt(2.0)))
    close(activations.gelu(arr(0.0, 1.0, -1.0)), [0.0, phi1, -(1.0 - phi1)])
    tanh_form = 0.5 * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (1.0 + 0.044715)))
    close(activations.gelu(arr(1.0), approximate=True), [tanh_form])


def test_mish():
    close(activations.mish(arr(1.0, 0.0)), [math.tanh(math.log(1.0 + math.e)), 0.0])


def test_softmax_and_log_softmax():
    x = np.log(arr(1.0, 2.0, 3.0))
    close(activations.softmax(x), [1 / 6, 2 / 6, 3 / 6])
    close(activations.log_softmax(x), np.log([1 / 6, 2 / 6, 3 / 6]))
    # a large shift changes nothing (computed stably)
    close(activations.softmax(x + 1000.0), [1 / 6, 2 / 6, 3 / 6])
    grid = np.log(arr(1.0, 1.0, 1.0, 3.0)).reshape(2, 2)  # columns [1, 1] and [1, 3]
    close(activations.softmax(grid, axis=0), [[0.5, 0.25], [0.5, 0.75]])
    close(activations.softmax(grid), [[0.5, 0.5], [0.25, 0.75]])


def test_linear_is_identity():
    x = arr(-1.0, 2.0)
    assert activations.linear(x) is x


def test_get_by_name_none_and_callable():
    assert activations.get(None) is activations.linear
    assert activations.get("relu") is activations.relu
    assert activations.get("swish") is activations.silu
    assert activations.get("hard_swish") is activations.hard_silu

    def double(x):
        return 2 * x

    assert activations.get(double) is double


def test_get_unknown_name_lists_valid_names():
    with pytest.raises(ValueError) as info:
        activations.get("rleu")
    message = str(info.value)
    assert "'relu'" in message and "'softmax'" in message
    assert message.endswith("Received: activation='rleu'")


def test_get_rejects_non_callables():
    with pytest.raises(ValueError, match=r"Received: activation=5$"):
        activations.get(5)


def test_serialize_and_deserialize():
    assert activations.serialize(activations.relu) == "relu"
    assert activations.serialize(activations.swish) == "silu"
    assert activations.serialize(activations.get(None)) == "linear"
    assert activations.deserialize("softmax") is activations.softmax
    keras3_function_config = {"module": "keras.activations", "class_name": "function",
                              "config": "tanh", "registered_name": "tanh"}
    assert activations.deserialize(keras3_function_config) is activations.tanh
    assert activations.get(keras3_function_config) is activations.tanh


def test_registered_custom_activation_round_trips():
    @register_keras_serializable(package="test_activations")
    def squash(x):
        return x / (1 + abs(x))

    name = activations.serialize(squash)
    assert name == "test_activations>squash"
    assert activations.get(name) is squash
    assert activations.deserialize("squash", custom_objects={"squash": squash}) is squash
