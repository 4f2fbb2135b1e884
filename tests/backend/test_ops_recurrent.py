"""The fused recurrent sequence ops against step-by-step numpy references.

The references below are written from the published equations (Keras's gate
order: LSTM `i, f, c, o`; GRU `z, r, h`), one time step at a time, with the
masking rules of Keras's `rnn` loop: a masked step keeps the states, and its
output repeats the previous output (zeros before the first unmasked step),
or is zero with `zero_output_for_mask`. The layer tests import them too.
"""

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply
from tests.helpers.check_op import case, params

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(11)

ACTIVATIONS = {
    "tanh": np.tanh,
    "sigmoid": lambda z: 1 / (1 + np.exp(-z)),
    "hard_sigmoid": lambda z: np.clip(z / 6 + 0.5, 0, 1),
    "relu": lambda z: np.maximum(z, 0),
    "linear": lambda z: z,
}


def _run(step, x, states, mask, go_backwards, return_sequences, zero_output_for_mask):
    """Keras's recurrence over `step(x_t, states) -> (output, states)` with masks."""
    steps = x.shape[1]
    previous = np.zeros_like(states[0])
    outputs = []
    for t in (reversed(range(steps)) if go_backwards else range(steps)):
        output, new_states = step(x[:, t], states)
        if mask is not None:
            keep = mask[:, t][:, None]
            new_states = [np.where(keep, n, s) for n, s in zip(new_states, states)]
            output = np.where(keep, output, 0.0 if zero_output_for_mask else previous)
        states, previous = new_states, output
        outputs.append(output)
    out = np.stack(outputs, axis=1) if return_sequences else outputs[-1]
    return (out, *states)


def lstm_reference(x, h0, c0, kernel, recurrent_kernel, bias=None, mask=None,
                   recurrent_mask=None, go_backwards=False, return_sequences=True,
                   zero_output_for_mask=False, activation="tanh", recurrent_activation="sigmoid"):
    act, rec = ACTIVATIONS[activation], ACTIVATIONS[recurrent_activation]
    units = recurrent_kernel.shape[0]

    def step(x_t, states):
        h, c = states
        h_in = h if recurrent_mask is None else h * recurrent_mask
        z = x_t @ kernel + h_in @ recurrent_kernel + (0 if bias is None else bias)
        i, f = rec(z[:, :units]), rec(z[:, units:2 * units])
        g, o = act(z[:, 2 * units:3 * units]), rec(z[:, 3 * units:])
        c = f * c + i * g
        h = o * act(c)
        return h, [h, c]

    return _run(step, x, [h0, c0], mask, go_backwards, return_sequences, zero_output_for_mask)


def gru_reference(x, h0, kernel, recurrent_kernel, bias=None, mask=None, recurrent_mask=None,
                  reset_after=True, go_backwards=False, return_sequences=True,
                  zero_output_for_mask=False, activation="tanh", recurrent_activation="sigmoid"):
    act, rec = ACTIVATIONS[activation], ACTIVATIONS[recurrent_activation]
    units = recurrent_kernel.shape[0]
    if bias is None:
        b_in, b_rec = 0.0, 0.0
    else:
        b_in, b_rec = (bias[0], bias[1]) if reset_after else (bias, 0.0)

    def step(x_t, states):
        h = states[0]
        h_in = h if recurrent_mask is None else h * recurrent_mask
        xz = x_t @ kernel + b_in
        if reset_after:
            hz = h_in @ recurrent_kernel + b_rec
            z = rec(xz[:, :units] + hz[:, :units])
            r = rec(xz[:, units:2 * units] + hz[:, units:2 * units])
            hh = act(xz[:, 2 * units:] + r * hz[:, 2 * units:])
        else:
            z = rec(xz[:, :units] + h_in @ recurrent_kernel[:, :units])
            r = rec(xz[:, units:2 * units] + h_in @ recurrent_kernel[:, units:2 * units])
            hh = act(xz[:, 2 * units:] + (r * h_in) @ recurrent_kernel[:, 2 * units:])
        h = z * h + (1 - z) * hh
        return h, [h]

    return _run(step, x, [h0], mask, go_backwards, return_sequences, zero_output_for_mask)


def simple_rnn_reference(x, h0, kernel, recurrent_kernel, bias=None, mask=None,
                         recurrent_mask=None, go_backwards=False, return_sequences=True,
                         zero_output_for_mask=False, activation="tanh"):
    act = ACTIVATIONS[activation]

    def step(x_t, states):
        h = states[0]
        h_in = h if recurrent_mask is None else h * recurrent_mask
        h = act(x_t @ kernel + h_in @ recurrent_kernel + (0 if bias is None else bias))
        return h, [h]

    return _run(step, x, [h0], mask, go_backwards, return_sequences, zero_output_for_mask)


def _reference(fn, attrs):
    return lambda *inputs: fn(*inputs, **attrs)


def _weights(inputs, units, gates, bias_shape=None):
    return (_TABLE_RNG.uniform(-0.6, 0.6, (inputs, gates * units)),
            _TABLE_RNG.uniform(-0.6, 0.6, (units, gates * units)),
            _TABLE_RNG.uniform(-0.5, 0.5, bias_shape or (gates * units,)))


B, T, D, H = 3, 4, 3, 5
LONG = 13       # more steps than one chunk (10): exercises the chunk boundaries
x = _TABLE_RNG.standard_normal((B, T, D))
x_long = _TABLE_RNG.standard_normal((2, LONG, D))
h0, c0 = _TABLE_RNG.standard_normal((B, H)) * 0.5, _TABLE_RNG.standard_normal((B, H)) * 0.5
h0_long, c0_long = h0[:2], c0[:2]
mask = np.array([[1, 1, 0, 1], [0, 1, 1, 0], [0, 0, 0, 0]], bool)   # the last row: all masked
mask_long = _TABLE_RNG.random((2, LONG)) > 0.3
recurrent_mask = (_TABLE_RNG.random((B, H)) > 0.4) / 0.6
NOT_MASKS = (0, 1, 2, 3, 4, 5)   # never differentiate the (constant) dropout mask

LSTM_W = _weights(D, H, 4)
GRU_W = _weights(D, H, 3, (2, 3 * H))
GRU_W_BEFORE = _weights(D, H, 3)
RNN_W = _weights(D, H, 1)


def _cases(name, fn, states, weights, long_states, configs):
    cases = []
    for label, inputs, attrs in configs:
        data, state = (x_long, long_states) if "long" in label else (x, states)
        m = {"mask": mask, "long-mask": mask_long}.get(inputs.get("mask"))
        r = recurrent_mask if inputs.get("recurrent_mask") else None
        b = None if inputs.get("no_bias") else weights[2]
        args = (data, *state, weights[0], weights[1], b, m, r)
        wrt = [i for i in range(len(args) - 2) if args[i] is not None]
        cases.append(case(name, *args, attrs=attrs, reference=_reference(fn, attrs),
                          wrt=wrt, label=label, rtol=1e-4, atol=1e-5))
    return cases


_COMMON = [
    ("sequences", {}, {}),
    ("last", {}, {"return_sequences": False}),
    ("backwards", {}, {"go_backwards": True}),
    ("mask", {"mask": "mask"}, {}),
    ("mask-last-backwards", {"mask": "mask"}, {"return_sequences": False, "go_backwards": True}),
    ("mask-zero-output", {"mask": "mask"}, {"zero_output_for_mask": True}),
    ("recurrent-dropout", {"recurrent_mask": True}, {}),
    ("no-bias", {"no_bias": True}, {}),
    ("long-mask", {"mask": "long-mask"}, {"go_backwards": True}),
]

CASES = _cases("lstm_sequence", lstm_reference, (h0, c0), LSTM_W, (h0_long, c0_long), _COMMON + [
    ("activations", {}, {"activation": "relu", "recurrent_activation": "hard_sigmoid"}),
    ("linear", {"mask": "mask"}, {"activation": "linear", "recurrent_activation": "tanh"}),
])
CASES += _cases("gru_sequence", gru_reference, (h0,), GRU_W, (h0_long,), _COMMON + [
    ("activations", {}, {"activation": "relu", "recurrent_activation": "hard_sigmoid"}),
])
CASES += _cases("gru_sequence", gru_reference, (h0,), GRU_W_BEFORE, (h0_long,), [
    (f"reset-before-{label}", inputs, dict(attrs, reset_after=False))
    for label, inputs, attrs in _COMMON])
CASES += _cases("simple_rnn_sequence", simple_rnn_reference, (h0,), RNN_W, (h0_long,),
                _COMMON + [("relu", {"mask": "mask"}, {"activation": "relu"})])


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_shape_rules_for_unknown_batch_and_length():
    seq = SymbolicTensor((None, None, D))
    state = SymbolicTensor((None, H))
    out, h, c = apply("lstm_sequence", seq, state, state, *LSTM_W, None, None,
                      return_sequences=True)
    assert out.shape == (None, None, H) and h.shape == (None, H) and c.shape == (None, H)
    out, h = apply("gru_sequence", seq, state, *GRU_W, None, None, return_sequences=False)
    assert out.shape == (None, H) and h.shape == (None, H)


def test_unknown_activation_is_refused_with_the_supported_names():
    with pytest.raises(ValueError, match="Received: activation='softmax'"):
        apply("simple_rnn_sequence", x, h0, *RNN_W, None, None, activation="softmax")


def test_masked_steps_carry_the_states_and_the_gradient():
    """A fully masked sequence leaves its states at h0 and passes their gradient back."""
    kernel, recurrent_kernel, bias = LSTM_W
    all_masked = np.zeros((B, T), bool)
    with GradientTape() as tape:
        tape.watch(h0)
        out, h, _ = apply("lstm_sequence", x, h0, c0, kernel, recurrent_kernel, bias,
                          all_masked, None, return_sequences=False)
        total = apply("sum", h)
    np.testing.assert_array_equal(np.asarray(h), h0)
    np.testing.assert_array_equal(np.asarray(out), np.zeros((B, H)))
    np.testing.assert_array_equal(tape.gradient(total, h0), np.ones((B, H)))


@pytest.mark.parametrize("name, states, weights", [
    ("lstm_sequence", (h0_long, c0_long), LSTM_W),
    ("gru_sequence", (h0_long,), GRU_W),
])
def test_helper_thread_gives_the_same_gradients(monkeypatch, name, states, weights):
    from hikeras.backend.numpy_backend import recurrent_threads

    results = []
    for helper in (False, True):
        monkeypatch.setattr(recurrent_threads, "_helper_pays", lambda use=helper: use)
        sources = [x_long, *states, *weights]
        with GradientTape() as tape:
            for s in sources:
                tape.watch(s)
            out = apply(name, x_long, *states, *weights, mask_long, None)[0]
            loss = apply("sum", apply("multiply", out, out))
        results.append(tape.gradient(loss, sources))
    assert recurrent_threads._pool is not None
    for serial, threaded in zip(*results):
        np.testing.assert_array_equal(serial, threaded)


def test_steps_matrix_never_shares_the_step_buffer():
    """The helper thread reads it while the time loop refills the buffer."""
    from hikeras.backend.numpy_backend.recurrent_common import steps_matrix

    buffer = np.arange(10 * 6 * 4, dtype=float).reshape(10, 6, 4)
    for steps in (1, 3):
        matrix = steps_matrix(buffer[:steps, 1:5])
        np.testing.assert_array_equal(
            matrix, buffer[:steps, 1:5].transpose(1, 0, 2).reshape(4, -1))
        assert not np.may_share_memory(matrix, buffer)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, reference, states, weights, attrs", [
    ("lstm_sequence", lstm_reference, (h0_long, c0_long), LSTM_W, {}),
    ("lstm_sequence", lstm_reference, (h0_long, c0_long), LSTM_W, {"activation": "hard_sigmoid"}),
    ("gru_sequence", gru_reference, (h0_long,), GRU_W, {}),
    ("simple_rnn_sequence", simple_rnn_reference, (h0_long,), RNN_W,
     {"activation": "sigmoid"}),
])
def test_gates_saturate_without_floating_point_warnings(dtype, name, reference, states,
                                                         weights, attrs, monkeypatch):
    """Pre-activations far beyond exp's range give the gates' limits, silently.

    Sigmoid gates come from `exp(-z)`; for z below about -88 (float32) it is
    inf, and `1 / (1 + inf)` is the exact limit 0.
    """
    big = (x_long * 400).astype(dtype)
    weights = [w.astype(dtype) for w in weights]
    states = [s.astype(dtype) for s in states]
    with np.errstate(all="raise"):
        got = apply(name, big, *states, *weights, **attrs)
    monkeypatch.setitem(ACTIVATIONS, "sigmoid", lambda z: 0.5 + 0.5 * np.tanh(0.5 * z))
    expected = reference(big.astype(float), *[s.astype(float) for s in states],
                         *[w.astype(float) for w in weights], **attrs)
    atol = 1e-5 if dtype == np.float32 else 1e-12
    for g, want in zip(got, expected):
        assert np.all(np.isfinite(g))
        np.testing.assert_allclose(g, want, atol=atol * max(1, np.abs(want).max()))


def _lstm_gradients():
    x = np.random.default_rng(3).standard_normal((2, 45, D))     # five chunks of steps
    mask = np.random.default_rng(4).random((2, 45)) > 0.3
    sources = [x, h0_long, c0_long, *LSTM_W]
    with GradientTape() as tape:
        for s in sources:
            tape.watch(s)
        out = apply("lstm_sequence", x, h0_long, c0_long, *LSTM_W, mask, None)[0]
        loss = apply("sum", apply("multiply", out, out))
    return tape.gradient(loss, sources)


def test_chunks_the_caller_takes_over_give_the_same_gradients(monkeypatch):
    """Chunks finish out of order (some at once, the rest left to the caller's
    `wait`, which takes them newest first); the sums still add up in chunk
    order, so the gradients are bit for bit those of the serial run."""
    from concurrent.futures import Future, ThreadPoolExecutor
    import threading

    from hikeras.backend.numpy_backend import recurrent_common, recurrent_threads

    monkeypatch.setattr(recurrent_threads, "_helper_pays", lambda: False)
    serial = _lstm_gradients()

    blocked = threading.Event()
    pool = ThreadPoolExecutor(max_workers=1)
    pool.submit(blocked.wait)               # the "helper" never starts a queued chunk
    calls = []

    def submit(fn, *args):
        calls.append(len(calls))
        if len(calls) % 2:                  # odd calls finish at once
            done = Future()
            done.set_result(fn(*args))
            return done
        return pool.submit(fn, *args)

    monkeypatch.setattr(recurrent_common, "submit", submit)
    try:
        shuffled = _lstm_gradients()
    finally:
        blocked.set()
        pool.shutdown()
    assert len(calls) == 5
    for want, got in zip(serial, shuffled):
        np.testing.assert_array_equal(want, got)


@pytest.mark.parametrize("name, states, weights", [
    ("lstm_sequence", (h0, c0), LSTM_W),
    ("gru_sequence", (h0,), GRU_W),
    ("simple_rnn_sequence", (h0,), RNN_W),
])
def test_empty_sequences_return_the_initial_states(name, states, weights):
    empty = np.zeros((B, 0, D))
    out, *final = apply(name, empty, *states, *weights)
    assert out.shape == (B, 0, H)
    for got, initial in zip(final, states):
        np.testing.assert_array_equal(got, initial)
