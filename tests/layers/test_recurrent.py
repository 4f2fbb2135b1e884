"""SimpleRNN, LSTM, GRU and their cells: the layer harness, Keras's layout, states."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.backend.test_ops_recurrent import gru_reference, lstm_reference, simple_rnn_reference
from tests.helpers.layer_test import run_layer_test

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(3)
x = _TABLE_RNG.standard_normal((3, 6, 4)).astype("float32")


@pytest.mark.parametrize("cls, kwargs, expected_shape", [
    (layers.LSTM, {"units": 3}, (2, 3)),
    (layers.LSTM, {"units": 3, "return_sequences": True, "go_backwards": True}, (2, 5, 3)),
    (layers.LSTM, {"units": 3, "return_state": True}, [(2, 3), (2, 3), (2, 3)]),
    (layers.GRU, {"units": 3}, (2, 3)),
    (layers.GRU, {"units": 3, "reset_after": False, "return_sequences": True}, (2, 5, 3)),
    (layers.SimpleRNN, {"units": 3, "activation": "sigmoid", "return_state": True},
     [(2, 3), (2, 3)]),
    (layers.LSTM, {"units": 3, "dropout": 0.3, "recurrent_dropout": 0.3, "seed": 1}, (2, 3)),
])
def test_layer_harness(cls, kwargs, expected_shape):
    hikeras.utils.set_random_seed(0)
    run_layer_test(cls, kwargs, input_shape=(2, 5, 4), expected_output_shape=expected_shape,
                   expected_num_trainable_weights=3, expected_num_non_trainable_weights=0)


def _weights(layer):
    return [w.astype("float64") for w in layer.get_weights()]


@pytest.mark.parametrize("go_backwards", [False, True])
def test_lstm_matches_the_equations_with_keras_gate_order(go_backwards, rng):
    layer = layers.LSTM(5, return_sequences=True, return_state=True, go_backwards=go_backwards)
    layer(x)
    layer.set_weights([rng.uniform(-0.5, 0.5, w.shape) for w in layer.get_weights()])
    h0, c0 = rng.standard_normal((3, 5)), rng.standard_normal((3, 5))
    got = layer(x, initial_state=[h0.astype("float32"), c0.astype("float32")])
    want = lstm_reference(x.astype("float64"), h0, c0, *_weights(layer),
                          go_backwards=go_backwards)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("reset_after", [True, False])
def test_gru_matches_the_equations(reset_after, rng):
    layer = layers.GRU(4, return_sequences=True, reset_after=reset_after)
    layer(x)
    layer.set_weights([rng.uniform(-0.5, 0.5, w.shape) for w in layer.get_weights()])
    want, _ = gru_reference(x.astype("float64"), np.zeros((3, 4)), *_weights(layer),
                            reset_after=reset_after)
    np.testing.assert_allclose(layer(x), want, rtol=1e-4, atol=1e-5)
    assert layer.cell.bias.shape == ((2, 12) if reset_after else (12,))


def test_simple_rnn_matches_the_equations_with_a_mask(rng):
    layer = layers.SimpleRNN(4, return_sequences=True)
    mask = rng.random((3, 6)) > 0.3
    got = layer(x, mask=mask)
    want, _ = simple_rnn_reference(x.astype("float64"), np.zeros((3, 4)), *_weights(layer),
                                   mask=mask)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_keras_default_initialisers():
    layer = layers.LSTM(6)
    layer(x)
    kernel, recurrent, bias = layer.get_weights()
    assert kernel.shape == (4, 24) and recurrent.shape == (6, 24)
    np.testing.assert_allclose(recurrent @ recurrent.T, np.eye(6), atol=1e-5)  # orthogonal
    np.testing.assert_array_equal(bias, np.r_[np.zeros(6), np.ones(6), np.zeros(12)])
    gru = layers.GRU(6)
    gru(x)
    np.testing.assert_array_equal(gru.get_weights()[2], np.zeros((2, 18)))


def test_weights_belong_to_the_cell_in_keras_order():
    layer = layers.LSTM(2)
    layer(x)
    assert [w.name for w in layer.weights] == ["kernel", "recurrent_kernel", "bias"]
    assert layer.cell.kernel is layer.weights[0]
    assert layer.cell.name == "lstm_cell"


def test_stateful_layer_continues_from_its_last_states():
    whole = layers.LSTM(4, return_sequences=True, return_state=True)
    whole(x)
    stateful = layers.LSTM(4, return_sequences=True, stateful=True)
    stateful(x[:, :2])
    stateful.set_weights(whole.get_weights())
    stateful.reset_states()
    first, second = stateful(x[:, :2]), stateful(x[:, 2:])
    seq, h, c = whole(x)
    np.testing.assert_allclose(np.concatenate([first, second], axis=1), seq, atol=1e-6)
    np.testing.assert_allclose(stateful.states[0].value, h, atol=1e-6)
    np.testing.assert_allclose(stateful.states[1].value, c, atol=1e-6)
    assert len(stateful.weights) == 3          # the states are not weights
    stateful.reset_states()
    np.testing.assert_array_equal(stateful.states[0].value, 0)
    np.testing.assert_allclose(stateful(x[:, :2]), first, atol=1e-6)
    with pytest.raises(ValueError, match="Received: a batch of 2 samples"):
        stateful(x[:2])


def test_reset_states_needs_a_stateful_layer():
    with pytest.raises(AttributeError, match="not stateful"):
        layers.GRU(2).reset_states()


def test_initial_state_count_is_checked():
    with pytest.raises(ValueError, match="expects 2 initial state"):
        layers.LSTM(3)(x, initial_state=[np.zeros((3, 3), "float32")])


def test_initial_state_in_a_functional_model(rng):
    seq = hikeras.Input((6, 4))
    h = hikeras.Input((5,))
    out = layers.GRU(5)(seq, initial_state=h)
    model = hikeras.Model([seq, h], out)
    h0 = rng.standard_normal((3, 5)).astype("float32")
    gru = model.layers[-1]
    want, _ = gru_reference(x.astype("float64"), h0.astype("float64"), *_weights(gru),
                            return_sequences=False)
    np.testing.assert_allclose(model.predict([x, h0], verbose=0), want, rtol=1e-4, atol=1e-5)


def test_dropout_only_in_training_and_reproducible_with_a_seed():
    layer = layers.SimpleRNN(4, dropout=0.5, recurrent_dropout=0.5, seed=3)
    plain = layers.SimpleRNN(4)
    plain(x)
    layer(x)
    layer.set_weights(plain.get_weights())
    np.testing.assert_allclose(layer(x, training=False), plain(x), atol=1e-6)
    assert not np.allclose(layer(x, training=True), plain(x))


def test_unsupported_activation_is_refused():
    with pytest.raises(ValueError, match="Received: activation='softmax'"):
        layers.LSTM(3, activation="softmax")


def test_config_round_trip_and_keras_2_arguments():
    layer = layers.GRU(3, reset_after=False, go_backwards=True, unroll=True, dropout=0.2,
                       implementation=1, time_major=False, input_length=6, input_dim=4)
    config = layer.get_config()
    assert config["reset_after"] is False and config["units"] == 3
    assert config["batch_input_shape"] == (None, 6, 4)
    assert "cell" not in config
    clone = layers.GRU.from_config(config)
    assert clone.get_config() == config
    rebuilt = layers.deserialize(layers.serialize(layer))
    assert isinstance(rebuilt, layers.GRU) and rebuilt.go_backwards
    with pytest.raises(ValueError, match="time_major=True"):
        layers.LSTM(2, time_major=True)


def test_cell_runs_one_step(rng):
    cell = layers.LSTMCell(3)
    states = [rng.standard_normal((2, 3)).astype("float32") for _ in range(2)]
    h, (h_state, c_state) = cell(x[:2, 0], states)
    _, h_ref, c_ref = lstm_reference(x[:2, :1].astype("float64"), *states,
                                     *_weights(cell), return_sequences=False)
    np.testing.assert_allclose(h, h_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c_state, c_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(h, h_state)


def test_training_a_stack_reduces_the_loss():
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((6, 4)), layers.LSTM(8, return_sequences=True),
                                layers.GRU(4), layers.Dense(1)])
    target = x.sum(axis=(1, 2))[:, None]
    model.compile(optimizer=hikeras.optimizers.Adam(0.05), loss="mse")
    history = model.fit(x, target, epochs=15, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
