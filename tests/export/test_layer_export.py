"""Every layer exports to ONNX and onnxruntime computes what `model.predict` does.

The layer list is read from `hikeras.layers`, so a new layer fails here until it
has a case in `layer_cases.CASES` or a reason in `layer_cases.NOT_EXPORTED`.
"""

import inspect

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.export.layer_cases import CASES, NOT_EXPORTED

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")


def exported_classes():
    names = set()
    for name in layers.__all__:
        value = getattr(layers, name)
        if inspect.isclass(value) and issubclass(value, layers.Layer):
            names.add(value.__name__)
    return sorted(names)


def test_every_layer_is_decided():
    undecided = [n for n in exported_classes() if n not in CASES and n not in NOT_EXPORTED]
    both = sorted(set(CASES) & set(NOT_EXPORTED))
    stale = sorted((set(CASES) | set(NOT_EXPORTED)) - set(exported_classes()))
    assert not undecided, f"Layers with no ONNX export case nor a reason: {undecided}"
    assert not both, f"Layers in both CASES and NOT_EXPORTED: {both}"
    assert not stale, f"Names in the tables that hikeras.layers does not export: {stale}"


def run_onnx(path, inputs):
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feeds = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
    return session.run(None, feeds)


def data(rng, case, shape, batch):
    if case.dtype.startswith("int"):
        return rng.integers(0, case.high, size=(batch,) + shape).astype(case.dtype)
    return rng.normal(size=(batch,) + shape).astype(case.dtype)


@pytest.mark.parametrize("name", sorted(CASES))
def test_layer_exports_and_matches_predict(name, rng, tmp_path):
    case = CASES[name]
    shapes = case.shapes if case.multi else (case.shapes,)
    inputs = [hikeras.Input(s, dtype=case.dtype) for s in shapes]
    layer = case.make()
    outputs = layer(inputs if case.multi else inputs[0])
    model = hikeras.Model(inputs if case.multi else inputs[0], outputs)
    path = tmp_path / f"{name}.onnx"
    model.export(path, format="onnx")
    # Two batch sizes: the batch dimension is dynamic.
    for batch in (3, 1):
        xs = [data(rng, case, s, batch) for s in shapes]
        expected = model.predict(xs if case.multi else xs[0], verbose=0)
        got = run_onnx(path, xs)
        expected = expected if isinstance(expected, (list, tuple)) else [expected]
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.shape == np.shape(e)
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)


# threshold needs its threshold and default value, so no layer can name it alone.
ACTIVATIONS = [name for name in hikeras.activations.__all__
               if name not in ("deserialize", "get", "serialize", "threshold")]


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_every_activation_exports(name, rng, tmp_path):
    inputs = hikeras.Input((6,))
    model = hikeras.Model(inputs, layers.Activation(name)(inputs))
    path = tmp_path / f"{name}.onnx"
    model.export(path, format="onnx")
    x = (rng.normal(size=(4, 6)) * 3).astype("float32")
    np.testing.assert_allclose(run_onnx(path, [x])[0], model.predict(x, verbose=0),
                               rtol=1e-5, atol=1e-5)


VARIANTS = {
    "lstm_backwards_last": lambda: layers.LSTM(3, go_backwards=True, unit_forget_bias=False),
    "lstm_relu_no_bias": lambda: layers.LSTM(3, activation="relu", use_bias=False),
    "gru_reset_after": lambda: layers.GRU(3, return_sequences=True),
    "simple_rnn_relu": lambda: layers.SimpleRNN(3, activation="relu"),
    "simple_rnn_linear": lambda: layers.SimpleRNN(3, activation="linear"),
    "gru_hard_sigmoid": lambda: layers.GRU(3, recurrent_activation="hard_sigmoid"),
    "lstm_hard_sigmoid_linear": lambda: layers.LSTM(3, recurrent_activation="hard_sigmoid",
                                                    activation="linear"),
    "bidi_sum_last": lambda: layers.Bidirectional(layers.SimpleRNN(3),
                                                              merge_mode="sum"),
    "conv1d_strided_valid": lambda: layers.Conv1D(2, 2, strides=2, use_bias=False),
    "conv2d_dilated": lambda: layers.Conv2D(2, 3, dilation_rate=2, activation="sigmoid"),
    "conv2d_transpose_output_padding": lambda: layers.Conv2DTranspose(
        2, 3, strides=2, output_padding=1),
    "conv2d_transpose_small_kernel": lambda: layers.Conv2DTranspose(2, 1, strides=3),
    "max_pool_valid_strided": lambda: layers.MaxPooling2D(3, strides=2),
    "conv2d_groups": lambda: layers.Conv2D(6, 3, groups=3),
    "conv2d_channels_first": lambda: layers.Conv2D(2, 3, data_format="channels_first"),
    "up_sampling_bilinear": lambda: layers.UpSampling2D(2, interpolation="bilinear"),
    "resizing_nearest": lambda: layers.Resizing(5, 11, interpolation="nearest"),
    "resizing_crop_to_aspect_ratio": lambda: layers.Resizing(4, 6, crop_to_aspect_ratio=True),
    "avg_pool_strided_same": lambda: layers.AveragePooling2D(2, strides=1, padding="same"),
}
_VARIANT_SHAPES = {"lstm": (7, 3), "gru": (7, 3), "simple": (7, 3), "bidi": (7, 3),
                   "conv1d": (9, 3)}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_layer_variants_export(name, rng, tmp_path):
    shape = next((s for prefix, s in _VARIANT_SHAPES.items() if name.startswith(prefix)),
                 (8, 8, 3))
    inputs = hikeras.Input(shape)
    model = hikeras.Model(inputs, VARIANTS[name]()(inputs))
    path = tmp_path / f"{name}.onnx"
    model.export(path, format="onnx")
    x = rng.normal(size=(3,) + shape).astype("float32")
    np.testing.assert_allclose(run_onnx(path, [x])[0], model.predict(x, verbose=0),
                               rtol=1e-5, atol=1e-5)
