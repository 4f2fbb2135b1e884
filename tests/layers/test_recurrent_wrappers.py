"""Bidirectional and TimeDistributed."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.backend.test_ops_recurrent import gru_reference, lstm_reference
from tests.helpers.layer_test import fresh, run_layer_test

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(9)
x = _TABLE_RNG.standard_normal((3, 5, 4)).astype("float32")


def _f64(layer):
    return [w.astype("float64") for w in layer.get_weights()]


@pytest.mark.parametrize("merge_mode, expected", [
    ("concat", (2, 5, 6)), ("sum", (2, 5, 3)), ("mul", (2, 5, 3)), ("ave", (2, 5, 3)),
    (None, [(2, 5, 3), (2, 5, 3)]),
])
def test_bidirectional_harness(merge_mode, expected):
    hikeras.utils.set_random_seed(0)
    inner = fresh(lambda: layers.LSTM(3, return_sequences=True))
    # With merge_mode=None the harness trains on the first (forward) output only.
    run_layer_test(layers.Bidirectional, {"layer": inner, "merge_mode": merge_mode},
                   input_shape=(2, 5, 4), expected_output_shape=expected,
                   expected_num_trainable_weights=6, run_training_check=merge_mode is not None)


def test_bidirectional_values_and_weight_order():
    layer = layers.Bidirectional(layers.LSTM(3, return_sequences=True), merge_mode="concat")
    out = layer(x)
    weights = layer.get_weights()
    assert len(weights) == 6
    own = layer.forward_layer.get_weights() + layer.backward_layer.get_weights()
    for w, expected in zip(weights, own):
        np.testing.assert_array_equal(w, expected)
    zeros = np.zeros((3, 3))
    forward, _, _ = lstm_reference(x.astype("float64"), zeros, zeros, *_f64(layer.forward_layer))
    backward, _, _ = lstm_reference(x.astype("float64"), zeros, zeros,
                                    *_f64(layer.backward_layer), go_backwards=True)
    np.testing.assert_allclose(out, np.concatenate([forward, backward[:, ::-1]], axis=-1),
                               rtol=1e-4, atol=1e-5)
    assert layer.forward_layer.name == "forward_lstm"
    assert layer.backward_layer.name == "backward_lstm" and layer.backward_layer.go_backwards


def test_bidirectional_masked_steps_output_zeros_in_both_directions():
    layer = layers.Bidirectional(layers.GRU(2, return_sequences=True), merge_mode="sum")
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0]], bool)
    out = layer(x, mask=mask)
    np.testing.assert_array_equal(out[~mask], 0)
    zeros = np.zeros((3, 2))
    forward, _ = gru_reference(x.astype("float64"), zeros, *_f64(layer.forward_layer),
                               mask=mask, zero_output_for_mask=True)
    backward, _ = gru_reference(x.astype("float64"), zeros, *_f64(layer.backward_layer),
                                mask=mask, zero_output_for_mask=True, go_backwards=True)
    np.testing.assert_allclose(out, forward + backward[:, ::-1], rtol=1e-4, atol=1e-5)


def test_bidirectional_states_and_initial_states(rng):
    layer = layers.Bidirectional(layers.LSTM(3, return_state=True))
    states = [rng.standard_normal((3, 3)).astype("float32") for _ in range(4)]
    out, h_f, _, h_b, c_b = layer(x, initial_state=states)
    _, h_ref, c_ref = lstm_reference(x.astype("float64"), *states[2:],
                                     *_f64(layer.backward_layer), go_backwards=True)
    np.testing.assert_allclose(h_b, h_ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c_b, c_ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out[:, :3], h_f)
    np.testing.assert_allclose(out[:, 3:], h_b)


def test_bidirectional_custom_backward_layer_and_checks():
    forward = layers.LSTM(3, return_sequences=True)
    backward = layers.GRU(3, return_sequences=True, go_backwards=True)
    layer = layers.Bidirectional(forward, backward_layer=backward, merge_mode="ave")
    assert layer(x).shape == (3, 5, 3)
    config = layer.get_config()
    clone = layers.Bidirectional.from_config(config)
    assert isinstance(clone.backward_layer, layers.GRU)
    with pytest.raises(ValueError, match="different `go_backwards`"):
        layers.Bidirectional(forward, backward_layer=layers.GRU(3, return_sequences=True))
    with pytest.raises(ValueError, match="`return_sequences`"):
        layers.Bidirectional(forward, backward_layer=layers.GRU(3, go_backwards=True))
    with pytest.raises(ValueError, match="Received: merge_mode='max'"):
        layers.Bidirectional(forward, merge_mode="max")


def test_time_distributed_applies_the_layer_at_every_step():
    run_layer_test(layers.TimeDistributed, {"layer": fresh(lambda: layers.Dense(2))},
                   input_shape=(2, 5, 4), expected_output_shape=(2, 5, 2),
                   expected_num_trainable_weights=2)
    layer = layers.TimeDistributed(layers.Dense(2))
    out = layer(x)
    kernel, bias = layer.get_weights()
    np.testing.assert_allclose(out, x @ kernel + bias, rtol=1e-5, atol=1e-6)
    symbolic = layers.TimeDistributed(layers.Dense(2))(hikeras.Input((None, 4)))
    assert symbolic.shape == (None, None, 2)
    with pytest.raises(ValueError, match="rank >= 3"):
        layers.TimeDistributed(layers.Dense(2))(np.ones((2, 3), "float32"))


def test_time_distributed_passes_the_mask_to_a_layer_that_takes_one(rng):
    class MaskSum(layers.Layer):
        def call(self, inputs, mask=None):
            return inputs * np.asarray(mask, "float32")[..., None]

    mask = rng.random((3, 5)) > 0.5
    out = layers.TimeDistributed(MaskSum())(x, mask=mask)
    np.testing.assert_array_equal(out, x * mask[..., None])
