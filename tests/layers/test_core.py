import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test
from tests.helpers.multi_input_layer_test import call_with_list, run_multi_input_layer_test


def test_dense_forward_matches_numpy():
    layer = layers.Dense(3, activation="relu")
    x = np.random.default_rng(0).standard_normal((4, 5)).astype("float32")
    out = layer(x)
    kernel, bias = layer.get_weights()
    np.testing.assert_allclose(out, np.maximum(x @ kernel + bias, 0), rtol=1e-6)
    assert out.dtype == np.float32


def test_dense_default_initializers_and_weight_names():
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3)])
    dense = model.layers[0]
    assert [w.path for w in dense.weights] == ["dense/kernel", "dense/bias"]
    np.testing.assert_array_equal(dense.bias.numpy(), np.zeros(3))
    limit = np.sqrt(6 / (4 + 3))
    assert np.abs(dense.kernel.numpy()).max() <= limit


def test_dense_non_fused_activation_and_rank3_input():
    layer = layers.Dense(2, activation="softplus")
    x = np.ones((2, 3, 4), "float32")
    out = layer(x)
    kernel, bias = layer.get_weights()
    np.testing.assert_allclose(out, np.log1p(np.exp(x @ kernel + bias)), rtol=1e-5)
    assert out.shape == (2, 3, 2)


def test_dense_config_round_trip():
    layer = layers.Dense(7, activation="tanh", use_bias=False, name="d")
    clone = layers.Dense.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()
    restored = layers.deserialize(layers.serialize(layer))
    assert isinstance(restored, layers.Dense) and restored.units == 7


@pytest.mark.parametrize("units", [0, -1, 2.5, True])
def test_dense_rejects_bad_units(units):
    with pytest.raises(ValueError, match="Received: units="):
        layers.Dense(units)


def test_unknown_layer_kwarg_is_a_type_error():
    with pytest.raises(TypeError, match="Unrecognized keyword arguments"):
        layers.Dense(3, kernel_initialiser="zeros")


def test_incompatible_input_shape_names_layer_and_shapes():
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="hidden")])
    with pytest.raises(ValueError) as info:
        model(np.ones((2, 5), "float32"))
    message = str(info.value)
    assert "hidden" in message or "input_layer" in message
    assert "(None, 5)" in message and "4" in message


def test_dense_incompatible_input_direct_call():
    layer = layers.Dense(3, name="proj")
    layer(np.ones((1, 4), "float32"))
    with pytest.raises(ValueError, match=r"'proj'.*\(None, 4\).*\(None, 6\)"):
        layer(np.ones((2, 6), "float32"))


def test_activation_flatten_reshape():
    x = np.arange(24, dtype="float32").reshape(2, 3, 4) - 12
    np.testing.assert_array_equal(layers.Activation("relu")(x), np.maximum(x, 0))
    assert layers.Flatten()(x).shape == (2, 12)
    assert layers.Reshape((4, 3))(x).shape == (2, 4, 3)
    assert layers.Reshape((-1, 2))(x).shape == (2, 6, 2)
    with pytest.raises(ValueError, match="target_shape"):
        layers.Reshape((5, 5))(x)


@pytest.mark.parametrize("layer_cls, kwargs, shape, expected", [
    (layers.Activation, {"activation": "tanh"}, (2, 3, 4), (2, 3, 4)),
    (layers.Activation, {"activation": "softmax"}, (3, 5), (3, 5)),
    # What `x * 2.0` and `x[:, 1:3]` on a symbolic tensor record.
    (layers.OpLayer, {"op": "multiply", "template": [None, 2.0]}, (2, 3), (2, 3)),
    (layers.OpLayer, {"op": "getitem", "attrs": {"key": (slice(None), slice(1, 3), Ellipsis)},
                      "template": [None]}, (2, 4, 3), (2, 2, 3)),
])
def test_core_harness(layer_cls, kwargs, shape, expected):
    run_layer_test(layer_cls, kwargs, input_shape=shape, expected_output_shape=expected,
                   expected_num_trainable_weights=0, expected_num_non_trainable_weights=0)


def test_op_layer_on_two_tensors_passes_the_harness(rng):
    inputs = [rng.standard_normal((2, 3)).astype("float32") for _ in range(2)]
    run_multi_input_layer_test(layers.OpLayer, {"op": "subtract", "template": [None, None]},
                               inputs, call=call_with_list, expected_output_shape=(2, 3),
                               expected_num_trainable_weights=0)


def test_dropout_training_and_inference():
    layer = layers.Dropout(0.5, seed=1)
    x = np.ones((1000, 10), "float32")
    np.testing.assert_array_equal(layer(x), x)
    out = np.asarray(layer(x, training=True))
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert 0.4 < (out == 0).mean() < 0.6
    with pytest.raises(ValueError, match="rate"):
        layers.Dropout(1.0)


def test_symbolic_shapes():
    inputs = hikeras.Input((6, 4))
    assert layers.Flatten()(inputs).shape == (None, 24)
    assert layers.Reshape((3, 8))(inputs).shape == (None, 3, 8)
    assert layers.Dense(5)(inputs).shape == (None, 6, 5)
    assert layers.Dense(5).compute_output_shape((None, 2)) == (None, 5)
