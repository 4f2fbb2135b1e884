"""The Embedding layer."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test


def test_layer_harness():
    run_layer_test(layers.Embedding, {"input_dim": 7, "output_dim": 3}, input_shape=(4, 5),
                   input_dtype="int32", int_high=7, expected_output_shape=(4, 5, 3),
                   expected_num_trainable_weights=1, expected_num_non_trainable_weights=0)


def test_lookup_values_and_keras_defaults():
    layer = layers.Embedding(10, 4)
    ids = np.array([[3, 0, 9], [1, 1, 2]])
    out = layer(ids)
    table = layer.get_weights()[0]
    np.testing.assert_array_equal(out, table[ids])
    assert layer.weights[0].name == "embeddings"
    assert np.abs(table).max() <= 0.05          # "uniform": U(-0.05, 0.05)
    assert layer.compute_mask(ids) is None
    assert layer(ids.astype("float32")).shape == (2, 3, 4)   # float indices are cast


def test_mask_zero():
    layer = layers.Embedding(10, 2, mask_zero=True)
    ids = np.array([[4, 2, 0, 0], [1, 0, 3, 0]])
    np.testing.assert_array_equal(layer.compute_mask(ids), ids != 0)
    assert layer.supports_masking
    symbolic = layer(hikeras.Input((4,), dtype="int32"))
    assert symbolic._keras_mask.shape == (None, 4)


def test_gradient_is_a_scatter_add_of_the_output_gradient():
    layer = layers.Embedding(5, 2)
    ids = np.array([[1, 1, 4], [0, 1, 4]])
    with hikeras.GradientTape() as tape:
        out = layer(ids)
        loss = hikeras.ops.sum(out * np.arange(12, dtype="float32").reshape(2, 3, 2))
    grad = tape.gradient(loss, layer.trainable_weights)[0]
    expected = np.zeros((5, 2))
    np.add.at(expected, ids.ravel(), np.arange(12).reshape(6, 2))
    np.testing.assert_array_equal(grad, expected)


@pytest.mark.parametrize("bad", [10, -1, 250])
def test_out_of_range_index_names_the_layer_and_the_value(bad):
    layer = layers.Embedding(10, 2, name="words")
    ids = np.array([[1, 2, bad]])
    with pytest.raises(ValueError, match=f"'words' got index {bad}, outside its vocabulary"):
        layer(ids)


def test_config_weights_and_input_length(rng):
    table = rng.standard_normal((6, 2)).astype("float32")
    layer = layers.Embedding(6, 2, mask_zero=True, weights=[table], input_length=3)
    layer(np.array([[1, 2, 3]]))
    np.testing.assert_array_equal(layer.get_weights()[0], table)
    config = layer.get_config()
    assert config["mask_zero"] and config["batch_input_shape"] == (None, 3)
    assert layers.Embedding.from_config(config).get_config() == config
    model = hikeras.Sequential([layers.Embedding(6, 2, input_length=3)])
    assert model.output_shape == (None, 3, 2)
    with pytest.raises(ValueError, match="Received: input_dim=0"):
        layers.Embedding(0, 2)
