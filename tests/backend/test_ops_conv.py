"""Convolution ops against direct nested-loop references, plus hand-computed values.

The references below compute each output element (or scatter each input
element) one window tap at a time, with TensorFlow's padding arithmetic
written out again here, so they share nothing with the GEMM lowering.
"""

import itertools

import numpy as np
import pytest

from hikeras.backend import GradientTape, Variable, apply
from hikeras.backend.numpy_backend import conv_gemm
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(3)

ACTIVATIONS = {
    "linear": lambda z: z,
    "relu": lambda z: np.maximum(z, 0),
    "sigmoid": lambda z: 1 / (1 + np.exp(-z)),
    "tanh": np.tanh,
}


def r(*shape):
    return random_array(_TABLE_RNG, *shape, low=-1.0, high=1.0)


def _tuple(value, rank):
    return (value,) * rank if isinstance(value, int) else tuple(value)


def _pads(length, window, stride, dilation, padding):
    span = dilation * (window - 1) + 1
    if padding == "valid":
        return 0, 0
    if padding == "causal":
        return span - 1, 0
    out = -(-length // stride)
    total = max((out - 1) * stride + span - length, 0)
    return total // 2, total - total // 2


def conv_reference(x, kernel, *bias, strides=1, padding="valid", dilation_rate=1,
                   activation="linear"):
    rank = x.ndim - 2
    strides, dilation = _tuple(strides, rank), _tuple(dilation_rate, rank)
    window = kernel.shape[:rank]
    per_group, filters = kernel.shape[-2], kernel.shape[-1]
    per_group_out = filters // (x.shape[-1] // per_group)
    pads = [_pads(n, k, s, d, padding)
            for n, k, s, d in zip(x.shape[1:-1], window, strides, dilation)]
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    out_shape = [(n - d * (k - 1) - 1) // s + 1
                 for n, k, s, d in zip(xp.shape[1:-1], window, strides, dilation)]
    y = np.zeros((x.shape[0], *out_shape, filters))
    for pos in itertools.product(*map(range, out_shape)):
        for f in range(filters):
            group = f // per_group_out
            channels = slice(group * per_group, (group + 1) * per_group)
            for tap in itertools.product(*map(range, window)):
                at = tuple(p * s + t * d for p, s, t, d in zip(pos, strides, tap, dilation))
                weights = kernel[(*tap, slice(None), f)]
                y[(slice(None), *pos, f)] += xp[(slice(None), *at, channels)] @ weights
    if bias:
        y += bias[0]
    return ACTIVATIONS[activation](y)


def transposed_length(length, window, stride, dilation, padding, output_padding):
    span = dilation * (window - 1) + 1
    if output_padding is None:
        return length * stride if padding == "same" else length * stride + max(span - stride, 0)
    trim = 2 * (span // 2) if padding == "same" else 0
    return (length - 1) * stride + span - trim + output_padding


def conv_transpose_reference(x, kernel, *bias, strides=1, padding="valid", output_padding=None,
                             dilation_rate=1, activation="linear"):
    """Scatters every input element through every tap (the definition of a transposed conv)."""
    rank = x.ndim - 2
    strides, dilation = _tuple(strides, rank), _tuple(dilation_rate, rank)
    extra = (None,) * rank if output_padding is None else _tuple(output_padding, rank)
    window = kernel.shape[:rank]
    lengths = [transposed_length(n, k, s, d, padding, p)
               for n, k, s, d, p in zip(x.shape[1:-1], window, strides, dilation, extra)]
    before = []
    for n, out, k, s, d in zip(x.shape[1:-1], lengths, window, strides, dilation):
        total = max((n - 1) * s + d * (k - 1) + 1 - out, 0) if padding == "same" else 0
        before.append(total // 2)
    y = np.zeros((x.shape[0], *lengths, kernel.shape[-2]))
    for pos in itertools.product(*(range(n) for n in x.shape[1:-1])):
        for tap in itertools.product(*map(range, window)):
            at = tuple(p * s + t * d - b
                       for p, s, t, d, b in zip(pos, strides, tap, dilation, before))
            if all(0 <= a < n for a, n in zip(at, lengths)):
                y[(slice(None), *at)] += x[(slice(None), *pos)] @ kernel[tap].T
    if bias:
        y += bias[0]
    return ACTIVATIONS[activation](y)


def conv_case(x_shape, k_shape, bias=True, label="", **attrs):
    inputs = (r(*x_shape), r(*k_shape)) + ((r(k_shape[-1]),) if bias else ())
    return case("conv", *inputs, attrs=attrs, reference=lambda *a: conv_reference(*a, **attrs),
                label=label, rtol=1e-4, atol=1e-5)


def conv_transpose_case(x_shape, k_shape, bias=True, label="", **attrs):
    inputs = (r(*x_shape), r(*k_shape)) + ((r(k_shape[-2]),) if bias else ())
    return case("conv_transpose", *inputs, attrs=attrs,
                reference=lambda *a: conv_transpose_reference(*a, **attrs), label=label,
                rtol=1e-4, atol=1e-5)


CASES = [
    conv_case((2, 7, 3), (3, 3, 4), label="1d-valid"),
    conv_case((2, 8, 2), (3, 2, 3), strides=2, padding="same", label="1d-same-stride2"),
    conv_case((2, 7, 2), (3, 2, 3), dilation_rate=2, padding="causal", activation="relu",
              label="1d-causal-dilated-relu"),
    conv_case((2, 7, 6), (2, 2, 6), strides=3, label="1d-groups3-stride3"),
    conv_case((2, 6, 5, 3), (3, 3, 3, 4), activation="relu", label="2d-valid-relu"),
    conv_case((2, 6, 5, 3), (3, 2, 3, 4), bias=False, padding="same", strides=(2, 1),
              activation="tanh", label="2d-same-strides-tanh-nobias"),
    conv_case((2, 7, 6, 2), (3, 2, 2, 3), padding="same", dilation_rate=(2, 1),
              activation="sigmoid", label="2d-same-dilated-sigmoid"),
    conv_case((2, 5, 6, 4), (3, 3, 2, 6), padding="same", strides=(2, 3),
              label="2d-groups2-same-strides"),
    conv_case((2, 5, 5, 3), (3, 3, 1, 6), label="2d-depthwise-groups"),
    conv_case((2, 6, 7, 4), (3, 3, 1, 4), padding="same", strides=2, activation="relu",
              label="2d-depthwise-same-stride2-relu"),
    conv_case((2, 7, 6, 3), (3, 2, 1, 3), bias=False, padding="same", dilation_rate=(2, 1),
              activation="sigmoid", label="2d-depthwise-same-dilated-sigmoid-nobias"),
    conv_case((1, 5, 5, 2), (2, 2, 1, 4), strides=(1, 2), activation="tanh",
              label="2d-depthwise-multiplier2-tanh"),
    conv_case((2, 6, 5, 1), (3, 3, 1, 4), padding="same", activation="relu",
              label="2d-one-channel-same-relu"),
    conv_case((3, 4, 4, 2), (1, 1, 2, 5), label="2d-pointwise"),
    conv_case((2, 3, 4, 2), (3, 4, 2, 3), label="2d-kernel-as-large-as-input"),
    conv_case((2, 4, 5, 3, 2), (2, 3, 2, 2, 3), padding="same", strides=(1, 2, 1),
              label="3d-same"),
    conv_case((1, 5, 4, 4, 2), (3, 2, 2, 2, 2), dilation_rate=(2, 1, 1), activation="relu",
              label="3d-valid-dilated-relu"),
    conv_transpose_case((2, 4, 3), (3, 2, 3), strides=2, label="1d-valid-stride2"),
    conv_transpose_case((2, 4, 3), (3, 2, 3), strides=2, padding="same",
                        label="1d-same-stride2"),
    conv_transpose_case((2, 3, 2), (2, 2, 2), strides=3, label="1d-window-below-stride"),
    conv_transpose_case((2, 4, 2), (3, 3, 2), strides=2, padding="same", output_padding=1,
                        activation="relu", label="1d-same-output-padding-relu"),
    conv_transpose_case((2, 3, 4, 2), (3, 3, 3, 2), strides=(2, 1), padding="same",
                        label="2d-same"),
    conv_transpose_case((2, 3, 3, 2), (2, 3, 2, 2), bias=False, strides=2, output_padding=(1, 0),
                        activation="tanh", label="2d-valid-output-padding-tanh-nobias"),
    conv_transpose_case((2, 3, 3, 2), (3, 3, 2, 2), dilation_rate=2, padding="same",
                        label="2d-same-dilated"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_hand_computed_1d_valid():
    x = np.array([1, 2, 3, 4], "float32").reshape(1, 4, 1)
    kernel = np.array([1, 0, -1], "float32").reshape(3, 1, 1)
    np.testing.assert_array_equal(apply("conv", x, kernel)[0, :, 0], [-2, -2])


def test_hand_computed_2d_same_counts_window_overlap():
    out = apply("conv", np.ones((1, 3, 3, 1), "float32"), np.ones((3, 3, 1, 1), "float32"),
                padding="same")
    np.testing.assert_array_equal(out[0, :, :, 0], [[4, 6, 4], [6, 9, 6], [4, 6, 4]])


def test_hand_computed_transposed_stride2():
    x = np.array([1, 2], "float32").reshape(1, 2, 1)
    out = apply("conv_transpose", x, np.ones((3, 1, 1), "float32"), strides=2)
    np.testing.assert_array_equal(out[0, :, 0], [1, 1, 3, 2, 2])


@pytest.mark.parametrize("op_case", params([CASES[i] for i in (2, 6, 7, 12, 16, 18)]))
def test_per_tap_input_gradient(monkeypatch, op_case):
    """Large problems take the input gradient one kernel tap at a time; check that path too."""
    monkeypatch.setattr(conv_gemm._InputGradient, "PER_TAP_MIN", 0)
    op_case.run()


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_batch_chunks_give_the_same_result(monkeypatch, padding, rng):
    x, kernel = (rng.uniform(-1, 1, shape).astype("float32")
                 for shape in [(5, 6, 6, 3), (3, 3, 3, 4)])
    bias = rng.uniform(-1, 1, 4)
    g = rng.uniform(-1, 1, (5, *apply("conv", x, kernel, padding=padding).shape[1:]))
    g = g.astype("float32")

    def run():
        xv, kv = Variable(x), Variable(kernel)
        with GradientTape() as tape:
            out = apply("conv", xv, kv, bias, padding=padding, activation="relu")
        return [np.asarray(out)] + list(tape.gradient(out, [xv, kv], output_gradients=g))

    whole = run()
    monkeypatch.setattr(conv_gemm, "CHUNK_BYTES", 1)  # one image per chunk
    for a, b in zip(whole, run()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op_case", params([CASES[i] for i in (0, 5, 7, 12, 16, 18)]))
def test_gradient_check_with_chunks_on_threads(monkeypatch, op_case):
    """One image per chunk, the chunks spread over threads: the same gradients."""
    monkeypatch.setattr(conv_gemm, "CHUNK_BYTES", 1)
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
    op_case.run()


def test_thread_count_does_not_change_results(monkeypatch, rng):
    x, kernel, g = (rng.uniform(-1, 1, shape).astype("float32")
                    for shape in [(9, 6, 6, 3), (3, 3, 3, 4), (9, 6, 6, 4)])
    bias = rng.uniform(-1, 1, 4)
    monkeypatch.setattr(conv_gemm, "CHUNK_BYTES", 1)

    def run(threads):
        monkeypatch.setenv("HIKERAS_NUM_THREADS", threads)
        xv, kv, bv = Variable(x), Variable(kernel), Variable(bias.astype("float32"))
        with GradientTape() as tape:
            out = apply("conv", xv, kv, bv, padding="same", activation="relu")
        return [np.asarray(out)] + list(tape.gradient(out, [xv, kv, bv], output_gradients=g))

    for a, b in zip(run("1"), run("3")):
        np.testing.assert_array_equal(a, b)


def test_first_layer_skips_input_gradient(rng):
    kernel = Variable(rng.uniform(-1, 1, (3, 3, 1, 2)).astype("float32"))
    with GradientTape() as tape:
        out = apply("conv", rng.uniform(-1, 1, (2, 5, 5, 1)).astype("float32"), kernel,
                    activation="relu")
    (g,) = tape.gradient(out, [kernel])
    assert g.shape == (3, 3, 1, 2) and g.dtype == np.float32


@pytest.mark.parametrize("attrs, message", [
    ({"padding": "full"}, "padding must be one of"),
    ({"padding": "causal"}, "padding must be one of"),
    ({"strides": 0}, "strides must be"),
    ({"dilation_rate": (1, 2, 3)}, "dilation_rate must be"),
])
def test_bad_attributes(attrs, message):
    with pytest.raises(ValueError, match=message):
        apply("conv", np.ones((1, 4, 4, 2)), np.ones((3, 3, 2, 1)), **attrs)


def test_bad_shapes():
    with pytest.raises(ValueError, match="rank 4"):
        apply("conv", np.ones((4, 4, 2)), np.ones((3, 3, 2, 1)))
    with pytest.raises(ValueError, match="multiple of the kernel's input channels"):
        apply("conv", np.ones((1, 4, 4, 3)), np.ones((3, 3, 2, 1)))
    with pytest.raises(ValueError, match="does not fit"):
        apply("conv", np.ones((1, 2, 4, 2)), np.ones((3, 3, 2, 1)))
    with pytest.raises(ValueError, match="output_padding must be smaller than strides"):
        apply("conv_transpose", np.ones((1, 4, 2)), np.ones((3, 1, 2)), strides=2,
              output_padding=2)


def test_workspace_lends_a_buffer_to_one_call_at_a_time():
    from hikeras.backend.numpy_backend.conv_workspace import Workspace, clear_workspaces

    clear_workspaces()
    shape = (512, 1024)  # 2 MB of float32: large enough to be pooled
    with Workspace() as outer:
        first = outer(shape, "float32")
        with Workspace() as inner:
            second = inner(shape, "float32")
            assert not np.shares_memory(first, second)
    with Workspace() as later:
        reused = later(shape, "float32")
        again = later(shape, "float32")
    assert any(reused is b for b in (first, second)) and again is not reused
    clear_workspaces()
