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
