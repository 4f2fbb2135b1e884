"""The generic `RNN(cell)` and `StackedRNNCells`, against step-by-step numpy references."""

import numpy as np
import pytest

import hikeras
from hikeras import layers, ops
from tests.helpers.layer_test import fresh, run_layer_test
from tests.helpers.multi_input_layer_test import call_cell, run_multi_input_layer_test


@hikeras.saving.register_keras_serializable(package="test_rnn_generic")
class MinimalRNNCell(layers.Layer):
    """The cell of Keras's RNN guide: h_t = tanh(x_t W + h_{t-1} U)."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                name="recurrent_kernel")

    def call(self, inputs, states):
        h = ops.tanh(ops.matmul(inputs, self.kernel)
                     + ops.matmul(states[0], self.recurrent_kernel))
        return h, [h]

    def get_config(self):
        return {**super().get_config(), "units": self.units}


@hikeras.saving.register_keras_serializable(package="test_rnn_generic")
class CounterCell(layers.Layer):
    """Two states of different shapes; output = running sum, states = (sum, count)."""

    state_size = [2, (1,)]
    output_size = 2

    def call(self, inputs, states, training=None):
        total, count = states
        total = total + inputs
        return total, [total, count + 1.0]


def _reference(x, kernel, recurrent, h0=None, mask=None, backwards=False):
    h = np.zeros((x.shape[0], kernel.shape[1])) if h0 is None else h0
    outputs, previous = [], np.zeros_like(h)
    steps = range(x.shape[1])[::-1] if backwards else range(x.shape[1])
    for t in steps:
        new = np.tanh(x[:, t] @ kernel + h @ recurrent)
        if mask is not None:
            keep = mask[:, t:t + 1]
            new, out = np.where(keep, new, h), np.where(keep, new, previous)
        else:
            out = new
        h, previous = new, out
        outputs.append(out)
    return np.stack(outputs, 1), h


X = np.random.default_rng(0).standard_normal((3, 5, 4)).astype("float32")


@pytest.mark.parametrize("backwards", [False, True])
def test_custom_cell_matches_a_numpy_loop(backwards):
    layer = layers.RNN(MinimalRNNCell(6), return_sequences=True, return_state=True,
                       go_backwards=backwards)
    seq, state = layer(X)
    want_seq, want_state = _reference(X, layer.cell.kernel.numpy(),
                                      layer.cell.recurrent_kernel.numpy(), backwards=backwards)
    np.testing.assert_allclose(seq, want_seq, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(state, want_state, rtol=1e-5, atol=1e-6)


def test_masked_steps_keep_the_state_and_repeat_the_output():
    mask = np.array([[1, 1, 0, 1, 0], [1, 1, 1, 1, 1], [0, 1, 1, 0, 0]], bool)
    h0 = np.random.default_rng(1).standard_normal((3, 6)).astype("float32")
    layer = layers.RNN(MinimalRNNCell(6), return_sequences=True, return_state=True)
    seq, state = layer(X, initial_state=[h0], mask=mask)
    want_seq, want_state = _reference(X, layer.cell.kernel.numpy(),
                                      layer.cell.recurrent_kernel.numpy(), h0=h0, mask=mask)
    np.testing.assert_allclose(seq, want_seq, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(state, want_state, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("options", [{"return_sequences": True},
                                     {"go_backwards": True, "return_state": True}])
def test_layer_harness_with_a_custom_cell(options):
    expected = (2, 4, 3) if options.get("return_sequences") else [(2, 3), (2, 3)]
    run_layer_test(layers.RNN, {"cell": fresh(lambda: MinimalRNNCell(3)), **options},
                   input_shape=(2, 4, 3), expected_output_shape=expected,
                   expected_num_trainable_weights=2)


@pytest.mark.parametrize("make_cell, options, expected, weights", [
    # A built-in cell runs as its fused sequence op.
    (lambda: layers.GRUCell(3), {"return_sequences": True}, (2, 4, 3), 3),
    # A list of cells is stacked (StackedRNNCells) and stepped one cell call at a time.
    (lambda: [layers.LSTMCell(3), layers.SimpleRNNCell(2)], {"return_state": True},
     [(2, 2), (2, 3), (2, 3), (2, 2)], 6),
], ids=["fused", "stacked"])
def test_layer_harness_with_builtin_cells(make_cell, options, expected, weights):
    run_layer_test(layers.RNN, {"cell": fresh(make_cell), **options}, input_shape=(2, 4, 3),
                   expected_output_shape=expected, expected_num_trainable_weights=weights)


@pytest.mark.parametrize("cell_cls, kwargs, state_widths, output_width, weights", [
    (layers.SimpleRNNCell, {"units": 3}, [3], 3, 3),
    (layers.LSTMCell, {"units": 3}, [3, 3], 3, 3),
    (layers.LSTMCell, {"units": 2, "use_bias": False, "unit_forget_bias": False}, [2, 2], 2, 2),
    (layers.GRUCell, {"units": 3}, [3], 3, 3),
    (layers.GRUCell, {"units": 2, "reset_after": False}, [2], 2, 3),
    (layers.StackedRNNCells, {"cells": fresh(lambda: [layers.LSTMCell(3), layers.GRUCell(2)])},
     [3, 3, 2], 2, 6),
])
def test_cell_step_harness(cell_cls, kwargs, state_widths, output_width, weights, rng):
    """One step, `cell(x_t, states)`, with the states as inputs too (their gradients)."""
    inputs = [rng.standard_normal((2, width)).astype("float32") for width in [4, *state_widths]]
    run_multi_input_layer_test(cell_cls, kwargs, inputs, call=call_cell,
                               expected_output_shape=[(2, output_width)]
                               + [(2, width) for width in state_widths],
                               expected_num_trainable_weights=weights)


def test_builtin_cells_run_fused_and_equal_their_layers():
    hikeras.utils.set_random_seed(0)
    generic = layers.RNN(layers.LSTMCell(5), return_sequences=True)
    fused = layers.LSTM(5, return_sequences=True)
    generic(X), fused(X)
    fused.set_weights(generic.get_weights())
    np.testing.assert_allclose(generic(X), fused(X), rtol=1e-6)
    assert generic._fused


def test_states_of_several_shapes_and_stacked_cells():
    layer = layers.RNN(CounterCell(), return_state=True)
    out, total, count = layer(np.ones((2, 3, 2), "float32"))
    np.testing.assert_allclose(out, np.full((2, 2), 3.0))
    np.testing.assert_allclose(count, np.full((2, 1), 3.0))
    stacked = layers.RNN([MinimalRNNCell(4), MinimalRNNCell(2)], return_state=True)
    out, h1, h2 = stacked(X)
    assert out.shape == (3, 2) and h1.shape == (3, 4) and h2.shape == (3, 2)
    np.testing.assert_allclose(out, h2)
    first, second = stacked.cell.cells
    hidden, _ = _reference(X, first.kernel.numpy(), first.recurrent_kernel.numpy())
    _, want = _reference(hidden, second.kernel.numpy(), second.recurrent_kernel.numpy())
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


def test_a_model_with_a_custom_cell_trains_saves_and_reloads(tmp_path):
    hikeras.utils.set_random_seed(2)
    tokens = hikeras.Input((None,), dtype="int32")
    h = layers.Embedding(8, 4, mask_zero=True)(tokens)
    h = layers.RNN([MinimalRNNCell(6), MinimalRNNCell(6)])(h)
    model = hikeras.Model(tokens, layers.Dense(1, activation="sigmoid")(h))
    x = np.random.default_rng(3).integers(1, 8, size=(64, 6))
    x[::2, 4:] = 0
    y = (x[:, 0] > 4).astype("float32")
    model.compile(optimizer=hikeras.optimizers.Adam(0.05), loss="binary_crossentropy")
    history = model.fit(x, y, epochs=8, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    path = tmp_path / "model.h5"
    model.save(path)
    restored = hikeras.models.load_model(path)
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-6)
    np.testing.assert_allclose(model.predict(x[:1, :4], verbose=0),
                               model.predict(np.pad(x[:1, :4], ((0, 0), (0, 3))), verbose=0),
                               rtol=1e-6)


def test_second_order_gradients_through_a_custom_cell():
    layer = layers.RNN(MinimalRNNCell(3))
    x = np.random.default_rng(4).standard_normal((2, 4, 3))
    layer(x.astype("float32"))
    with hikeras.GradientTape() as outer:
        with hikeras.GradientTape() as inner:
            loss = ops.sum(ops.square(layer(x.astype("float32"))))
        g = inner.gradient(loss, layer.cell.kernel)
        penalty = ops.sum(ops.square(g))
    assert outer.gradient(penalty, layer.cell.recurrent_kernel) is not None


def test_a_layer_that_is_not_a_cell_is_refused():
    with pytest.raises(ValueError, match="state_size"):
        layers.RNN(layers.Dense(3))


def test_stateful_calls_continue_the_sequence_and_bidirectional_wraps_it():
    layer = layers.RNN(MinimalRNNCell(3), stateful=True, return_sequences=True)
    first, second = layer(X[:, :2]), layer(X[:, 2:])
    want, _ = _reference(X, layer.cell.kernel.numpy(), layer.cell.recurrent_kernel.numpy())
    np.testing.assert_allclose(np.concatenate([first, second], axis=1), want, rtol=1e-5,
                               atol=1e-6)
    layer.reset_states()
    np.testing.assert_allclose(layer(X[:, :2]), first, rtol=1e-6)
    both = layers.Bidirectional(layers.RNN(MinimalRNNCell(3)))
    assert both(X).shape == (3, 6)
    backward = both.backward_layer
    _, want_back = _reference(X, backward.cell.kernel.numpy(),
                              backward.cell.recurrent_kernel.numpy(), backwards=True)
    np.testing.assert_allclose(both(X)[:, 3:], want_back, rtol=1e-5, atol=1e-6)
