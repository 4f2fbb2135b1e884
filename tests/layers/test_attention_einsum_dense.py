"""EinsumDense: kernel/bias shapes from the equation, values against np.einsum."""

import numpy as np
import pytest

from hikeras import layers
from tests.helpers.layer_test import run_layer_test


@pytest.mark.parametrize("kwargs, input_shape, output_shape, weights", [
    ({"equation": "ab,bc->ac", "output_shape": 4, "bias_axes": "c"}, (2, 3), (2, 4),
     [(3, 4), (4,)]),
    ({"equation": "abc,cde->abde", "output_shape": (None, 2, 3), "bias_axes": "de"},
     (2, 5, 4), (2, 5, 2, 3), [(4, 2, 3), (2, 3)]),
    ({"equation": "abcd,cde->abe", "output_shape": (None, 6)}, (2, 5, 2, 3), (2, 5, 6),
     [(2, 3, 6)]),
    ({"equation": "...b,bc->...c", "output_shape": 4, "bias_axes": "c",
      "activation": "tanh"}, (2, 3, 5), (2, 3, 4), [(5, 4), (4,)]),
    ({"equation": "ab...,bc->ac...", "output_shape": 4, "bias_axes": "c"}, (2, 3, 5),
     (2, 4, 5), [(3, 4), (4, 1)]),
    ({"equation": "abc,cd->abd", "output_shape": (None, 4), "bias_axes": "b"}, (2, 3, 5),
     (2, 3, 4), [(5, 4), (3, 1)]),
])
def test_layer_checks(kwargs, input_shape, output_shape, weights):
    layer = run_layer_test(layers.EinsumDense, kwargs, input_shape=input_shape,
                           expected_output_shape=output_shape,
                           expected_num_trainable_weights=len(weights),
                           expected_num_non_trainable_weights=0)
    assert [w.shape for w in layer.weights] == weights


def test_values_match_numpy_einsum_plus_bias():
    rng = np.random.default_rng(0)
    layer = layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 3), bias_axes="de",
                               activation="relu")
    x = rng.standard_normal((2, 4, 5)).astype("float32")
    layer(x)
    kernel, bias = rng.standard_normal((5, 2, 3)), rng.standard_normal((2, 3))
    layer.set_weights([kernel, bias])
    expected = np.maximum(np.einsum("abc,cde->abde", x, kernel) + bias, 0)
    np.testing.assert_allclose(layer(x), expected, rtol=1e-5, atol=1e-6)


def test_config_keeps_keras_keys():
    config = layers.EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c").get_config()
    assert config["equation"] == "ab,bc->ac" and config["output_shape"] == (4,)
    assert config["bias_axes"] == "c" and config["activation"] == "linear"


@pytest.mark.parametrize("kwargs, input_shape, message", [
    ({"equation": "ab->b", "output_shape": 3}, (2, 3), "form"),
    ({"equation": "abc,cd->abd", "output_shape": (None, 4)}, (2, 3), "rank 3"),
    ({"equation": "ab,bc->ac", "output_shape": 4, "bias_axes": "x"}, (2, 3), "bias axes"),
    ({"equation": "ab,bc->ad", "output_shape": 4}, (2, 3), "output letter 'd'"),
    ({"equation": "ab,bc->ac", "output_shape": ()}, (2, 3), "too few axes"),
    ({"equation": "abc,cd->abd", "output_shape": (5, 4)}, (2, 3, 6), "size 5"),
    ({"equation": "ab,bcd->ac", "output_shape": 4}, (2, 3), "kernel axis 'd'"),
])
def test_bad_equations_and_shapes(kwargs, input_shape, message):
    with pytest.raises(ValueError, match=f"{message}.*Received"):
        layers.EinsumDense(**kwargs)(np.ones(input_shape, "float32"))
