"""Whole models exported to ONNX: functional with several inputs and outputs,
Sequential, subclassed models computing with `hikeras.ops`, masked sequences,
and the errors for what cannot export."""

import sys

import numpy as np
import pytest

import hikeras
from hikeras import layers, ops
from hikeras.ops import kernels

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")


def run_onnx(path, inputs):
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feeds = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
    return session.run(None, feeds)


def assert_matches(model, path, inputs):
    expected = model.predict(inputs if len(inputs) > 1 else inputs[0], verbose=0)
    expected = expected if isinstance(expected, (list, tuple)) else [expected]
    got = run_onnx(path, inputs)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)


def test_functional_model_with_two_inputs_and_two_outputs(rng, tmp_path):
    image = hikeras.Input((8, 8, 1), name="image")
    meta = hikeras.Input((3,), name="meta")
    x = layers.Conv2D(4, 3, activation="relu")(image)
    x = layers.GlobalAveragePooling2D()(x)
    joined = layers.Concatenate()([x, layers.Dense(4)(meta)])
    label = layers.Dense(3, activation="softmax", name="label")(joined)
    score = layers.Dense(1, name="score")(layers.Add()([x, joined[:, :4]]))
    model = hikeras.Model([image, meta], [label, score])
    path = tmp_path / "two.onnx"
    model.export(path, format="onnx")
    proto = onnx.load(str(path))
    assert [i.name for i in proto.graph.input] == ["image", "meta"]
    assert [o.name for o in proto.graph.output] == ["output_0", "output_1"]
    batch_dim = proto.graph.input[0].type.tensor_type.shape.dim[0]
    assert batch_dim.dim_param and not batch_dim.dim_value  # dynamic batch
    assert proto.opset_import[0].version >= 17
    for batch in (4, 2):
        inputs = [rng.normal(size=(batch, 8, 8, 1)).astype("float32"),
                  rng.normal(size=(batch, 3)).astype("float32")]
        assert_matches(model, path, inputs)


def test_sequential_model_after_training(rng, tmp_path):
    model = hikeras.Sequential([layers.Input((6,)), layers.Dense(8, activation="relu"),
                                layers.Dropout(0.3), layers.BatchNormalization(),
                                layers.Dense(2)])
    model.compile("adam", "mse")
    model.fit(rng.normal(size=(32, 6)), rng.normal(size=(32, 2)), epochs=2, verbose=0)
    path = tmp_path / "seq.onnx"
    model.export(path, format="onnx")
    assert_matches(model, path, [rng.normal(size=(5, 6)).astype("float32")])


class Residual(hikeras.Model):
    """A subclassed model whose call mixes layers and hikeras.ops."""

    def __init__(self):
        super().__init__()
        self.inner = layers.Dense(5)
        self.head = layers.Dense(3)

    def call(self, x):
        h = ops.tanh(self.inner(x)) + x * 0.5
        h = ops.concatenate([h, ops.square(h[:, :2])], axis=-1)
        h = ops.where(h > 0.1, h, ops.exp(h) - 1.0)
        return ops.softmax(self.head(h) / ops.sqrt(ops.mean(ops.square(h), axis=-1,
                                                            keepdims=True) + 1.0))


def test_subclassed_model_using_ops(rng, tmp_path):
    model = Residual()
    x = rng.normal(size=(4, 5)).astype("float32")
    model(x)
    path = tmp_path / "sub.onnx"
    model.export(path, format="onnx")
    assert_matches(model, path, [x])
    assert_matches(model, path, [rng.normal(size=(7, 5)).astype("float32")])


def padded_tokens(rng, batch, steps, vocab):
    tokens = rng.integers(1, vocab, size=(batch, steps))
    for row in range(batch):  # some rows padded at the start, some at the end
        cut = rng.integers(1, steps)
        if row % 2:
            tokens[row, :cut] = 0
        else:
            tokens[row, cut:] = 0
    tokens[0, 2] = 0  # and a hole in the middle
    return tokens.astype("int32")


@pytest.mark.parametrize("recurrent", [
    lambda: layers.LSTM(4, return_sequences=True),
    lambda: layers.GRU(4, return_sequences=True, go_backwards=True),
    lambda: layers.SimpleRNN(4, return_sequences=True, zero_output_for_mask=True),
    lambda: layers.Bidirectional(layers.GRU(3, return_sequences=True, reset_after=False)),
], ids=["lstm", "gru_backwards", "simple_rnn_zero_output", "bidirectional_gru"])
def test_masked_recurrent_model(recurrent, rng, tmp_path):
    tokens = hikeras.Input((6,), dtype="int32")
    x = layers.Embedding(10, 5, mask_zero=True)(tokens)
    x = recurrent()(x)
    x = layers.LSTM(3)(x)
    model = hikeras.Model(tokens, layers.Dense(2)(x))
    path = tmp_path / "masked.onnx"
    model.export(path, format="onnx")
    assert_matches(model, path, [padded_tokens(rng, 6, 6, 10)])


def test_masking_layer_and_masked_pooling(rng, tmp_path):
    inputs = hikeras.Input((5, 3))
    x = layers.Masking(0.0)(inputs)
    pooled = layers.GlobalAveragePooling1D()(x)
    last = layers.SimpleRNN(4)(x)
    model = hikeras.Model(inputs, [pooled, last])
    path = tmp_path / "masking.onnx"
    model.export(path, format="onnx")
    data = rng.normal(size=(4, 5, 3)).astype("float32")
    data[1, 3:] = 0.0
    data[2, :2] = 0.0
    assert_matches(model, path, [data])


def test_input_signature_names_and_fixes_shapes(rng, tmp_path):
    model = hikeras.Sequential([layers.Input((None, 3)), layers.GRU(4)])
    path = tmp_path / "sig.onnx"
    model.export(path, format="onnx",
                 input_signature=[hikeras.Input((None, 3), batch_size=2, name="frames")])
    proto = onnx.load(str(path))
    assert proto.graph.input[0].name == "frames"
    dims = proto.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_value == 2 and dims[1].dim_param  # batch fixed, time dynamic
    for steps in (3, 7):  # the time axis stays dynamic
        assert_matches(model, path, [rng.normal(size=(2, steps, 3)).astype("float32")])


@pytest.mark.parametrize("opset", [17, 21])
def test_opset_version_is_written_and_runs(opset, rng, tmp_path):
    inputs = hikeras.Input((4, 3))
    x = layers.LayerNormalization()(layers.GRU(3, return_sequences=True)(inputs))
    model = hikeras.Model(inputs, layers.GlobalMaxPooling1D()(x))
    path = tmp_path / "op.onnx"
    model.export(path, format="onnx", opset_version=opset)
    assert onnx.load(str(path)).opset_import[0].version == opset
    assert_matches(model, path, [rng.normal(size=(2, 4, 3)).astype("float32")])


def test_opset_below_17_is_refused(tmp_path):
    model = hikeras.Sequential([layers.Input((3,)), layers.Dense(2)])
    path = tmp_path / "op.onnx"
    with pytest.raises(ValueError, match="opset 17 or higher.*opset_version=13"):
        model.export(path, format="onnx", opset_version=13)


def test_other_formats_are_refused(tmp_path):
    model = hikeras.Sequential([layers.Input((3,)), layers.Dense(2)])
    with pytest.raises(ValueError, match="format='tf_saved_model'"):
        model.export(tmp_path / "m")
    with pytest.raises(ValueError, match="Unknown arguments.*verbosity"):
        model.export(tmp_path / "m.onnx", format="onnx", verbosity=1)


class Warp(layers.Layer):
    """Computes with an op that has no ONNX translation (`affine_transform`)."""

    def call(self, x):
        images = ops.reshape(x, (-1, 2, 2, 1))
        transform = np.array([[1, 0, 0, 0, 1, 0, 0, 0]], dtype="float32")
        return kernels.affine_transform(images, transform)


def test_an_op_without_translation_is_named_with_its_layer(tmp_path):
    inputs = hikeras.Input((4,))
    model = hikeras.Model(inputs, Warp(name="warp")(inputs))
    with pytest.raises(ValueError, match="op 'affine_transform' \\(in layer 'warp'\\).*no ONNX "
                                         "translation"):
        model.export(tmp_path / "x.onnx", format="onnx")
    assert not (tmp_path / "x.onnx").exists()


class NumpyShortcut(layers.Layer):
    """Returns a symbolic tensor of its own instead of computing through ops."""

    def call(self, x):
        if isinstance(x, hikeras.backend.SymbolicTensor):
            return hikeras.backend.SymbolicTensor(x.shape, x.dtype)
        return np.asarray(x) * 2


def test_a_layer_computing_outside_the_ops_is_named(tmp_path):
    inputs = hikeras.Input((4,))
    model = hikeras.Model(inputs, NumpyShortcut(name="shortcut")(inputs))
    with pytest.raises(TypeError, match="layer 'shortcut' \\(NumpyShortcut\\) outside"):
        model.export(tmp_path / "y.onnx", format="onnx")


def test_transformer_block_with_padding_and_causal_masks(rng, tmp_path):
    tokens = hikeras.Input((6,), dtype="int32")
    x = layers.Embedding(12, 8, mask_zero=True)(tokens)
    attended = layers.MultiHeadAttention(2, 4)(x, x, use_causal_mask=True)
    x = layers.LayerNormalization()(layers.Add()([x, attended]))
    x = layers.Dense(8, activation="gelu")(x)
    model = hikeras.Model(tokens, layers.GlobalAveragePooling1D()(x))
    path = tmp_path / "block.onnx"
    model.export(path, format="onnx")
    assert_matches(model, path, [padded_tokens(rng, 5, 6, 12)])


def test_recurrent_states_passed_between_layers_and_a_lambda(rng, tmp_path):
    inputs = hikeras.Input((5, 3))
    encoded, h, c = layers.LSTM(4, return_state=True)(inputs)
    decoded = layers.LSTM(4, return_sequences=True)(inputs, initial_state=[h, c])
    summed = layers.Lambda(lambda t: ops.sum(t, axis=1) * 0.5)(decoded)
    model = hikeras.Model(inputs, [encoded, summed])
    path = tmp_path / "states.onnx"
    model.export(path, format="onnx")
    assert_matches(model, path, [rng.normal(size=(3, 5, 3)).astype("float32")])


class StatelessCell(layers.Layer):
    """A custom cell: the generic RNN runs its step in a Python loop."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units))

    def call(self, x, states):
        h = ops.tanh(ops.matmul(x, self.kernel))
        return h, [h]


@pytest.mark.parametrize("return_sequences", [False, True])
def test_a_custom_cell_rnn_is_refused_not_exported_as_one_step(return_sequences, tmp_path):
    inputs = hikeras.Input((4, 2))
    rnn = layers.RNN(StatelessCell(3), return_sequences=return_sequences, name="custom")
    model = hikeras.Model(inputs, rnn(inputs))
    with pytest.raises(TypeError, match="layer 'custom' \\(RNN\\) outside hikeras' ops"):
        model.export(tmp_path / "rnn.onnx", format="onnx")


def test_without_the_onnx_package_the_error_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "onnx", None)  # `import onnx` now raises ImportError
    model = hikeras.Sequential([layers.Input((3,)), layers.Dense(2)])
    with pytest.raises(ImportError, match='pip install "hikeras\\[onnx\\]"'):
        model.export(tmp_path / "m.onnx", format="onnx")


def test_an_application_model_exports(rng, tmp_path):
    model = hikeras.applications.MobileNetV2(input_shape=(32, 32, 3), alpha=0.35,
                                             weights=None, classes=7)
    path = tmp_path / "mobilenet.onnx"
    model.export(path, format="onnx")
    images = rng.uniform(0, 255, size=(2, 32, 32, 3)).astype("float32")
    assert_matches(model, path, [hikeras.applications.mobilenet_v2.preprocess_input(images)])


def test_a_float64_model_exports_in_float64(rng, tmp_path):
    previous = hikeras.backend.floatx()
    hikeras.backend.set_floatx("float64")
    try:
        inputs = hikeras.Input((5,))
        x = layers.Dense(3, activation="tanh")(inputs) * 2.0
        model = hikeras.Model(inputs, layers.LayerNormalization()(x))
        path = tmp_path / "f64.onnx"
        model.export(path, format="onnx")
        x = rng.normal(size=(3, 5))
        (got,) = run_onnx(path, [x])
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, model.predict(x, verbose=0), rtol=1e-12, atol=1e-12)
    finally:
        hikeras.backend.set_floatx(previous)


class NumpyInside(layers.Layer):
    """Computes with numpy on its input; gives functional models its shape directly."""

    def call(self, x):
        return ops.convert_to_tensor(np.tanh(np.asarray(x, dtype="float32")))

    def compute_output_spec(self, x):
        return hikeras.backend.SymbolicTensor(x.shape, x.dtype)


def test_a_layer_failing_on_symbolic_inputs_is_named(tmp_path):
    inputs = hikeras.Input((4,))
    model = hikeras.Model(inputs, NumpyInside(name="numpy_inside")(layers.Dense(4)(inputs)))
    with pytest.raises(ValueError, match="calling layer 'numpy_inside' \\(NumpyInside\\) on "
                                         "symbolic inputs failed"):
        model.export(tmp_path / "n.onnx", format="onnx")


def test_attention_layers_with_masks(rng, tmp_path):
    tokens = hikeras.Input((6,), dtype="int32")
    x = layers.Embedding(10, 4, mask_zero=True)(tokens)
    dot = layers.Attention()([x, x], use_causal_mask=True)
    additive = layers.AdditiveAttention()([x, x])
    model = hikeras.Model(tokens, [dot, additive])
    path = tmp_path / "attention.onnx"
    model.export(path, format="onnx")
    assert_matches(model, path, [padded_tokens(rng, 4, 6, 10)])


def test_masked_recurrence_keeps_the_time_axis_dynamic(rng, tmp_path):
    tokens = hikeras.Input((None,), dtype="int32")
    x = layers.Embedding(10, 4, mask_zero=True)(tokens)
    x = layers.Bidirectional(layers.LSTM(3, return_sequences=True))(x)
    model = hikeras.Model(tokens, layers.GRU(2, go_backwards=True)(x))
    path = tmp_path / "dynamic.onnx"
    model.export(path, format="onnx")
    for steps in (5, 9):
        assert_matches(model, path, [padded_tokens(rng, 4, steps, 10)])
