"""ConvLSTM1D/2D/3D against a step-by-step numpy reference of the published equations.

The reference (Shi et al., 2015, without peepholes, in Keras's gate order
`i, f, c, o`) convolves with explicit nested loops over output positions and
kernel taps, so it shares nothing with the backend's GEMM convolution.
Keras's own outputs are compared in `test_layers_keras.py`.
"""

import itertools

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

LAYERS = {1: layers.ConvLSTM1D, 2: layers.ConvLSTM2D, 3: layers.ConvLSTM3D}


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _conv(x, kernel, strides, padding, dilation):
    """Direct channels-last convolution of `(batch, *spatial, in)` with `(*k, in, out)`."""
    spatial, window = x.shape[1:-1], kernel.shape[:-2]
    reach = [(k - 1) * d + 1 for k, d in zip(window, dilation)]
    if padding == "same":
        out_shape = [-(-n // s) for n, s in zip(spatial, strides)]
        total = [max((o - 1) * s + r - n, 0)
                 for o, s, r, n in zip(out_shape, strides, reach, spatial)]
        x = np.pad(x, [(0, 0)] + [(t // 2, t - t // 2) for t in total] + [(0, 0)])
    else:
        out_shape = [(n - r) // s + 1 for n, r, s in zip(spatial, reach, strides)]
    out = np.zeros((x.shape[0], *out_shape, kernel.shape[-1]))
    for position in itertools.product(*[range(o) for o in out_shape]):
        for tap in itertools.product(*[range(k) for k in window]):
            index = tuple(p * s + t * d for p, s, t, d in zip(position, strides, tap, dilation))
            out[(slice(None), *position)] += x[(slice(None), *index)] @ kernel[tap]
    return out


def _reference(x, kernel, recurrent, bias, strides=None, padding="valid", dilation=None,
               mask=None, backwards=False, states=None):
    """`(output sequence, h, c)` of a channels-last ConvLSTM, stepping through time."""
    rank = x.ndim - 3
    strides, dilation = strides or (1,) * rank, dilation or (1,) * rank
    filters = recurrent.shape[-2]
    first = _conv(x[:, 0], kernel, strides, padding, dilation)
    h = np.zeros(first.shape[:-1] + (filters,)) if states is None else states[0]
    c = np.zeros_like(h) if states is None else states[1]
    outputs, previous = [], np.zeros_like(h)
    steps = range(x.shape[1])[::-1] if backwards else range(x.shape[1])
    for t in steps:
        z = (_conv(x[:, t], kernel, strides, padding, dilation) + bias
             + _conv(h, recurrent, (1,) * rank, "same", (1,) * rank))
        z_i, z_f, z_c, z_o = np.split(z, 4, axis=-1)
        c_new = _sigmoid(z_f) * c + _sigmoid(z_i) * np.tanh(z_c)
        h_new = _sigmoid(z_o) * np.tanh(c_new)
        if mask is not None:
            keep = mask[:, t].reshape((-1,) + (1,) * (h.ndim - 1))
            h_new, c_new = np.where(keep, h_new, h), np.where(keep, c_new, c)
            out = np.where(keep, h_new, previous)
        else:
            out = h_new
        h, c, previous = h_new, c_new, out
        outputs.append(out)
    return np.stack(outputs, 1), h, c


def _weights(layer):
    return [w.numpy().astype("float64") for w in layer.cell.weights]


CASES = [
    (1, dict(filters=3, kernel_size=3), (2, 4, 7, 2)),
    (1, dict(filters=2, kernel_size=2, strides=2, padding="same"), (2, 3, 7, 3)),
    (2, dict(filters=2, kernel_size=(3, 2), padding="same"), (2, 3, 5, 4, 2)),
    (2, dict(filters=2, kernel_size=2, dilation_rate=2), (1, 3, 5, 6, 2)),
    (2, dict(filters=3, kernel_size=3, strides=(2, 1), padding="same"), (2, 3, 5, 4, 1)),
    (3, dict(filters=2, kernel_size=2, padding="same", strides=(1, 2, 1)), (1, 3, 3, 4, 3, 2)),
]


@pytest.mark.parametrize("backwards", [False, True])
@pytest.mark.parametrize("rank, kwargs, shape", CASES)
def test_matches_the_equations_step_by_step(rank, kwargs, shape, backwards):
    x = np.random.default_rng(0).standard_normal(shape).astype("float32")
    layer = LAYERS[rank](return_sequences=True, return_state=True, go_backwards=backwards,
                         bias_initializer="random_normal", **kwargs)
    seq, h, c = layer(x)
    cell = layer.cell
    want_seq, want_h, want_c = _reference(
        x.astype("float64"), *_weights(layer), strides=cell.strides, padding=cell.padding,
        dilation=cell.dilation_rate, backwards=backwards)
    np.testing.assert_allclose(seq, want_seq, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h, want_h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c, want_c, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("backwards", [False, True])
def test_masked_steps_keep_the_states_and_repeat_the_output(backwards):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 5, 4, 3, 2)).astype("float32")
    mask = np.array([[1, 1, 0, 1, 0], [1, 1, 1, 1, 1], [0, 1, 1, 0, 0]], bool)
    states = [rng.standard_normal((3, 4, 3, 2)).astype("float32") for _ in range(2)]
    layer = layers.ConvLSTM2D(2, 3, padding="same", return_sequences=True, return_state=True,
                              go_backwards=backwards)
    seq, h, c = layer(x, mask=mask, initial_state=states)
    want = _reference(x.astype("float64"), *_weights(layer), padding="same", mask=mask,
                      backwards=backwards, states=[s.astype("float64") for s in states])
    for got, expected in zip((seq, h, c), want):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    assert np.array_equal(layer.compute_mask(x, mask)[0], mask)


def test_channels_first_is_the_transposed_channels_last():
    x = np.random.default_rng(2).standard_normal((2, 3, 5, 4, 2)).astype("float32")
    last = layers.ConvLSTM2D(3, 2, strides=2, padding="same", return_sequences=True,
                             return_state=True)
    first = layers.ConvLSTM2D(3, 2, strides=2, padding="same", return_sequences=True,
                              return_state=True, data_format="channels_first")
    want = last(x)
    first(np.moveaxis(x, -1, 2))
    first.set_weights(last.get_weights())
    seq, h, c = first(np.moveaxis(x, -1, 2))
    np.testing.assert_allclose(seq, np.moveaxis(np.asarray(want[0]), -1, 2), rtol=1e-5,
                               atol=1e-6)
    for got, expected in zip((h, c), want[1:]):
        np.testing.assert_allclose(got, np.moveaxis(np.asarray(expected), -1, 1), rtol=1e-5,
                                   atol=1e-6)


@pytest.mark.parametrize("rank, kwargs, shape, expected", [
    (1, dict(filters=2, kernel_size=2, return_sequences=True), (2, 3, 5, 2), (2, 3, 4, 2)),
    (2, dict(filters=2, kernel_size=2, strides=2, padding="same", return_state=True),
     (2, 2, 4, 3, 2), [(2, 2, 2, 2)] * 3),
    (2, dict(filters=2, kernel_size=2, data_format="channels_first", go_backwards=True),
     (2, 2, 2, 3, 3), (2, 2, 2, 2)),
    (3, dict(filters=1, kernel_size=2, padding="same", dropout=0.2, recurrent_dropout=0.3),
     (1, 2, 2, 3, 2, 1), (1, 2, 3, 2, 1)),
])
def test_layer_harness(rank, kwargs, shape, expected):
    run_layer_test(LAYERS[rank], kwargs, input_shape=shape, expected_output_shape=expected,
                   expected_num_trainable_weights=3, expected_num_non_trainable_weights=0)


def test_keras_weight_layout_and_default_initialisers():
    layer = layers.ConvLSTM2D(3, (2, 3))
    layer(np.zeros((1, 2, 5, 6, 4), "float32"))
    assert [w.name for w in layer.weights] == ["kernel", "recurrent_kernel", "bias"]
    assert [w.shape for w in layer.weights] == [(2, 3, 4, 12), (2, 3, 3, 12), (12,)]
    np.testing.assert_array_equal(layer.cell.bias.numpy(),
                                  [0.0] * 3 + [1.0] * 3 + [0.0] * 6)
    assert type(layer.recurrent_initializer).__name__ == "Orthogonal"
    plain = layers.ConvLSTM1D(2, 2, unit_forget_bias=False, use_bias=False)
    plain(np.zeros((1, 2, 4, 1), "float32"))
    assert [w.name for w in plain.weights] == ["kernel", "recurrent_kernel"]


def test_stateful_layer_continues_from_its_last_states():
    x = np.random.default_rng(3).standard_normal((2, 6, 5, 2)).astype("float32")
    whole = layers.ConvLSTM1D(2, 3, padding="same", return_sequences=True)
    want = whole(x)
    stateful = layers.ConvLSTM1D(2, 3, padding="same", return_sequences=True, stateful=True)
    stateful(x[:, :3])
    stateful.set_weights(whole.get_weights())
    stateful.reset_states()
    got = np.concatenate([stateful(x[:, :3]), stateful(x[:, 3:])], axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    stateful.reset_states()
    np.testing.assert_allclose(stateful(x[:, :3]), np.asarray(want)[:, :3], rtol=1e-5,
                               atol=1e-6)


def test_dropout_only_in_training_and_reproducible_with_a_seed():
    x = np.random.default_rng(4).standard_normal((2, 4, 5, 2)).astype("float32")
    kwargs = dict(filters=2, kernel_size=2, dropout=0.5, recurrent_dropout=0.5, seed=7)
    a, b = layers.ConvLSTM1D(**kwargs), layers.ConvLSTM1D(**kwargs)
    inference = a(x)
    b(x)
    b.set_weights(a.get_weights())
    np.testing.assert_array_equal(a(x, training=False), inference)
    trained = a(x, training=True)
    assert not np.allclose(trained, inference)
    np.testing.assert_array_equal(b(x, training=True), trained)


def test_training_reduces_the_loss():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((8, 4, 5, 5, 1)).astype("float32")
    y = x.mean(axis=1)
    model = hikeras.Sequential([hikeras.Input((4, 5, 5, 1)),
                                layers.ConvLSTM2D(4, 3, padding="same"),
                                layers.Conv2D(1, 1)])
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(x, y, epochs=8, batch_size=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_weights_and_model_files_round_trip(tmp_path):
    x = np.random.default_rng(6).standard_normal((2, 3, 4, 4, 2)).astype("float32")

    def model():
        return hikeras.Sequential([hikeras.Input((3, 4, 4, 2)),
                                   layers.ConvLSTM2D(2, 2, padding="same")])
    a, b = model(), model()
    a.save_weights(tmp_path / "conv_lstm.weights.h5")
    b.load_weights(tmp_path / "conv_lstm.weights.h5")
    np.testing.assert_allclose(b.predict(x, verbose=0), a.predict(x, verbose=0), rtol=1e-6)
    for name in ("model.keras", "model.h5"):
        a.save(tmp_path / name)
        loaded = hikeras.models.load_model(tmp_path / name)
        np.testing.assert_allclose(loaded.predict(x, verbose=0), a.predict(x, verbose=0),
                                   rtol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    (dict(filters=0, kernel_size=2), "filters=0"),
    (dict(filters=2, kernel_size=(2, 2, 2)), "kernel_size=(2, 2, 2)"),
    (dict(filters=2, kernel_size=2, padding="causal"), "padding='causal'"),
    (dict(filters=2, kernel_size=2, strides=2, dilation_rate=2), "dilation_rate=(2, 2)"),
    (dict(filters=2, kernel_size=2, data_format="nhwc"), "data_format='nhwc'"),
])
def test_argument_errors_name_the_layer(kwargs, message):
    with pytest.raises(ValueError, match=r"^ConvLSTM2D: .*Received: .*") as error:
        layers.ConvLSTM2D(**kwargs)
    assert message in str(error.value)


@pytest.mark.parametrize("shape, message", [
    ((2, 3, 4, 4), "expects inputs of rank 5"),
    ((2, 3, 1, 4, 2), "Received"),
    ((None, 3, None, 4, 2), "spatial and channel dimensions"),
])
def test_input_errors_name_the_layer(shape, message):
    layer = layers.ConvLSTM2D(2, 3, name="clstm")
    with pytest.raises(ValueError, match=r"Layer 'clstm' \(ConvLSTM2D\)") as error:
        layer.build(shape)
    assert message in str(error.value) and "Received" in str(error.value)


def test_dropout_step_masks_each_gate_input_separately():
    """With dropout, gate k convolves `x * input_mask[k]` and `h * recurrent_mask[k]`."""
    rng = np.random.default_rng(7)
    layer = layers.ConvLSTM1D(2, 3, padding="same", dropout=0.4, recurrent_dropout=0.4,
                              bias_initializer="random_normal")
    layer(np.zeros((2, 1, 5, 3), "float32"))
    cell = layer.cell
    x = rng.standard_normal((2, 5, 3)).astype("float32")
    h, c = (rng.standard_normal((2, 5, 2)).astype("float32") for _ in range(2))
    input_masks, recurrent_masks = cell.make_dropout_masks(2, training=True)
    cell.sequence_dropout_masks = (input_masks, recurrent_masks)
    got_h, (_, got_c) = cell(x, [h, c])
    cell.sequence_dropout_masks = None
    kernel, recurrent, bias = _weights(layer)
    gates = [_conv(x * mx, k, (1,), "same", (1,)) + b + _conv(h * mh, u, (1,), "same", (1,))
             for mx, mh, k, u, b in zip(input_masks, recurrent_masks,
                                        np.split(kernel, 4, -1), np.split(recurrent, 4, -1),
                                        np.split(bias, 4))]
    want_c = _sigmoid(gates[1]) * c + _sigmoid(gates[0]) * np.tanh(gates[2])
    want_h = _sigmoid(gates[3]) * np.tanh(want_c)
    np.testing.assert_allclose(got_c, want_c, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_h, want_h, rtol=1e-4, atol=1e-5)
    assert not np.allclose(input_masks[0], input_masks[1])


