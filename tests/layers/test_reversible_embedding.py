"""ReversibleEmbedding: harness both ways, tied/untied projections, soft cap, dtype, masks."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test


class _Reversed(layers.ReversibleEmbedding):
    """Calls in reverse by default, so the harness exercises the projection."""

    def call(self, inputs, reverse=True):
        return super().call(inputs, reverse=reverse)


def test_layer_harness_forward():
    run_layer_test(layers.ReversibleEmbedding, {"input_dim": 6, "output_dim": 3},
                   input_shape=(2, 4), input_dtype="int32", int_high=6,
                   expected_output_shape=(2, 4, 3), expected_num_trainable_weights=1)


@pytest.mark.parametrize("kwargs, trainable", [
    ({}, 1), ({"tie_weights": False, "logit_soft_cap": 3.0}, 2),
])
def test_layer_harness_reverse(kwargs, trainable):
    # Untied, a reverse call leaves the (trainable) forward table out of the step and
    # gets no gradient for it: the untied gradient is checked by hand below.
    tied = trainable == 1
    run_layer_test(_Reversed, {"input_dim": 5, "output_dim": 3, **kwargs},
                   input_shape=(2, 4, 3), expected_output_shape=(2, 4, 5),
                   expected_num_trainable_weights=trainable, run_training_check=tied,
                   check_gradients=tied)


def test_tied_reverse_is_the_transposed_table():
    layer = layers.ReversibleEmbedding(4, 2)
    layer(np.array([0]))
    table = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]], "float32")
    layer.set_weights([table])
    hidden = np.array([[3.0, 2.0]], "float32")
    np.testing.assert_allclose(layer(hidden, reverse=True), [[3.0, 2.0, 5.0, 4.0]])
    np.testing.assert_allclose(layer(np.array([[3, 1]])), table[[[3, 1]]])


def test_untied_reverse_uses_its_own_table_and_soft_cap(rng):
    layer = layers.ReversibleEmbedding(3, 2, tie_weights=False, logit_soft_cap=2.0)
    layer(np.array([0]))
    assert [w.name for w in layer.weights] == ["embeddings", "reverse_embeddings"]
    assert layer.reverse_embeddings.shape == (2, 3)
    reverse = rng.standard_normal((2, 3)).astype("float32")
    layer.set_weights([np.zeros((3, 2), "float32"), reverse])
    hidden = rng.standard_normal((4, 2)).astype("float32")
    np.testing.assert_allclose(layer(hidden, reverse=True), np.tanh(hidden @ reverse / 2) * 2,
                               rtol=1e-6, atol=1e-7)
    with hikeras.GradientTape() as tape:
        total = hikeras.ops.sum(layer(hidden, reverse=True))
    grad_embeddings, grad_reverse = tape.gradient(total, layer.weights)
    assert grad_embeddings is None
    np.testing.assert_allclose(grad_reverse, hidden.T @ (1 - np.tanh(hidden @ reverse / 2) ** 2),
                               rtol=1e-5, atol=1e-6)


def test_reverse_dtype_sets_the_projection_dtype():
    layer = layers.ReversibleEmbedding(5, 3, reverse_dtype="float16")
    assert layer(np.array([1, 2])).dtype == np.float32
    assert layer(np.ones((2, 3), "float32"), reverse=True).dtype == np.float16


def test_forward_masks_with_mask_zero_reverse_does_not():
    layer = layers.ReversibleEmbedding(5, 3, mask_zero=True)
    ids = np.array([[2, 0, 4]])
    hidden = layer(ids)
    assert layer.compute_mask(ids).tolist() == [[True, False, True]]
    assert layer.compute_mask(hidden) is None


def test_shared_in_a_functional_language_model_trains(rng):
    ids = hikeras.Input((4,), dtype="int32")
    embedding = layers.ReversibleEmbedding(7, 4)
    logits = embedding(layers.Dense(4)(embedding(ids)), reverse=True)
    model = hikeras.Model(ids, logits)
    model.compile("adam", hikeras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = rng.integers(0, 7, (8, 4))
    before = embedding.embeddings.numpy().copy()
    model.fit(x, x, epochs=1, verbose=0)
    assert tuple(logits.shape) == (None, 4, 7)
    assert not np.array_equal(embedding.embeddings.numpy(), before)


def test_config_round_trip():
    layer = layers.ReversibleEmbedding(6, 2, tie_weights=False, reverse_dtype="float64",
                                       logit_soft_cap=30.0, name="tok")
    config = layer.get_config()
    assert (config["tie_weights"], config["reverse_dtype"], config["logit_soft_cap"]) == (
        False, "float64", 30.0)
    restored = layers.deserialize(layers.serialize(layer))
    assert type(restored) is layers.ReversibleEmbedding and restored.get_config() == config


def test_errors_name_the_layer():
    with pytest.raises(ValueError, match=r"'re'.*logit_soft_cap.*Received: logit_soft_cap=0"):
        layers.ReversibleEmbedding(4, 2, logit_soft_cap=0, name="re")
    layer = layers.ReversibleEmbedding(4, 2, name="re")
    layer(np.array([0]))
    with pytest.raises(ValueError, match=r"'re'.*output_dim=2. Received: inputs with shape"):
        layer(np.ones((1, 3), "float32"), reverse=True)
