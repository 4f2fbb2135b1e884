"""hikeras's ops against results recorded from real Keras 3 (TensorFlow backend).

`tests/fixtures/keras_ops/generate.py` ran each call of `cases.py` on Keras
and stored inputs, outputs and, where Keras has a gradient, the gradient of
`<w, op(inputs)>`. Here each call is replayed three ways: eagerly (values
against Keras at float32 tolerance), on a `GradientTape` (gradients against
Keras's), and on symbolic tensors whose leading dimension is `None` (the
shape rule must agree with the eager result).
"""

import importlib
import json
import pathlib
import sys

import numpy as np
import pytest
from hikeras.backend import GradientTape, SymbolicTensor, Tensor

from hikeras import ops

FIXTURES = pathlib.Path(__file__).parent.parent / "fixtures" / "keras_ops"
sys.path.insert(0, str(FIXTURES))
RECORD = json.loads((FIXTURES / "keras_ops.json").read_text())
ARRAYS = np.load(FIXTURES / "keras_ops.npz")
CASES = RECORD["cases"]


def _resolve(path):
    module, _, name = ("hi" + path).rpartition(".")
    return getattr(importlib.import_module(module), name)


def _flatten(out):
    if isinstance(out, (tuple, list)):
        return [o for part in out for o in _flatten(part)]
    return [out]


def _inputs(case):
    return {k: ARRAYS[f"{case['id']}/{k}"] for k in case["inputs"]}


def _call(case, arrays, convert=lambda key, value: value):
    def build(spec):
        if isinstance(spec, dict) and "array" in spec:
            return convert(spec["array"], arrays[spec["array"]])
        if isinstance(spec, dict) and "pair" in spec:
            return tuple(convert(k, arrays[k]) for k in spec["pair"])
        return tuple(spec) if isinstance(spec, list) and case.get("tuples") else spec

    args = [build(s) for s in case["args"]]
    kwargs = {k: build(v) for k, v in case["kwargs"].items()}
    return _flatten(_resolve(case["fn"])(*args, **kwargs))


def _expected(case):
    outs, j = [], 0
    while f"{case['id']}/out{j}" in ARRAYS:
        outs.append(ARRAYS[f"{case['id']}/out{j}"])
        j += 1
    return outs


def _value(x):
    return x.value if isinstance(x, Tensor) else np.asarray(x)


def _tolerance(case):
    return case.get("rtol", 1e-4), case.get("atol", 2e-5)


def _column_signs(got, want):
    signs = np.sign(np.sum(got * want, axis=-2, keepdims=True))
    return np.where(signs == 0, 1, signs)


def _weight_signs(case, outs, expected):
    """Per output, the factor turning Keras's eigen/singular vectors into ours.

    Weighting our vectors by the flipped weights gives the same loss as
    Keras's, so the gradients must agree."""
    kind = case.get("compare")
    factors = [1.0] * len(outs)
    if kind == "eigh":
        factors[1] = _column_signs(outs[1], expected[1])
    if kind == "svd" and len(outs) == 3:
        u_signs = _column_signs(outs[0], expected[0])
        factors[0] = u_signs
        factors[2] = np.swapaxes(u_signs, -1, -2)
    return factors


def _columns_up_to_sign(got, want):
    """`got`'s columns flipped to point the way `want`'s do (eigen/singular vectors)."""
    signs = np.sign(np.sum(got * want, axis=-2, keepdims=True))
    return got * np.where(signs == 0, 1, signs)


def _canonical(case, outs, expected, inputs):
    """Outputs made comparable where Keras's results are unique only up to a convention."""
    kind = case.get("compare")
    if kind == "lu":  # pivots: row swaps here, a permutation in Keras on TensorFlow
        return outs[:1], expected[:1]
    if kind == "eigh":
        return [outs[0], _columns_up_to_sign(outs[1], expected[1])], expected
    if kind == "qr":
        q = _columns_up_to_sign(outs[0], expected[0])
        flips = np.sign(np.sum(q * outs[0], axis=-2))  # the same flips on r's rows
        return [q, outs[1] * flips[..., :, None]], expected
    if kind == "svd":
        u = _columns_up_to_sign(outs[0], expected[0])
        flips = np.sign(np.sum(u * outs[0], axis=-2))
        return [u, outs[1], outs[2] * flips[..., :, None]], expected
    if kind == "eig":  # eigenpairs in any order and scaling: check them, sort the values
        (x,) = inputs.values()
        w, v = outs
        np.testing.assert_allclose(x @ v, v * w[..., None, :], rtol=1e-4, atol=1e-5)
        return [np.sort_complex(w)], [np.sort_complex(expected[0])]
    return outs, expected


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_values_match_keras(case):
    if case.get("differs"):
        pytest.skip(f"hikeras deliberately differs: {case['differs']}")
    inputs = _inputs(case)
    outs = [_value(o) for o in _call(case, inputs)]
    expected = _expected(case)
    assert len(outs) == len(expected), f"{len(outs)} outputs, Keras gives {len(expected)}"
    outs, expected = _canonical(case, outs, expected, inputs)
    assert len(outs) == len(expected), f"{len(outs)} outputs, Keras gives {len(expected)}"
    rtol, atol = _tolerance(case)
    for got, want in zip(outs, expected):
        got = _value(got)
        assert got.shape == want.shape
        if case.get("check_dtype", True):
            assert got.dtype == want.dtype, f"dtype {got.dtype}, Keras gives {want.dtype}"
        if np.issubdtype(want.dtype, np.inexact):
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(got, want)


GRAD_CASES = [c for c in CASES if c["grad"]]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[c["id"] for c in GRAD_CASES])
def test_gradients_match_keras(case):
    differs = case.get("differs") or case.get("grad_differs")
    if differs:
        pytest.skip(f"hikeras deliberately differs: {differs}")
    arrays = {k: np.array(v) for k, v in _inputs(case).items()}
    eager = [_value(o) for o in _call(case, _inputs(case))]
    signs = _weight_signs(case, eager, _expected(case))
    with GradientTape() as tape:
        for key in case["grad"]:
            tape.watch(arrays[key])
        outs = _call(case, arrays)
        loss = None
        for j, out in enumerate(outs):
            key = f"{case['id']}/w{j}"
            if key in ARRAYS:
                term = ops.sum(ops.multiply(out, ARRAYS[key] * signs[j]))
                if isinstance(term, Tensor):
                    loss = term if loss is None else ops.add(loss, term)
    assert loss is not None, "no output is connected to the inputs"
    grads = tape.gradient(loss, [arrays[k] for k in case["grad"]])
    rtol, atol = case.get("grad_rtol", 2e-3), case.get("grad_atol", 2e-4)
    for key, got in zip(case["grad"], grads):
        want = ARRAYS[f"{case['id']}/grad_{key}"]
        got = np.zeros_like(want) if got is None else np.asarray(got)
        if case.get("symmetric_grad"):  # functions of a symmetric matrix: compare the symmetric part
            got, want = [0.5 * (g + np.swapaxes(g, -1, -2)) for g in (got, want)]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"gradient of {key}")


SYMBOLIC_CASES = [c for c in CASES if c.get("symbolic", True)]


@pytest.mark.parametrize("case", SYMBOLIC_CASES, ids=[c["id"] for c in SYMBOLIC_CASES])
def test_symbolic_shapes_keep_unknown_batch(case):
    arrays = _inputs(case)
    batch = case.get("symbolic_batch", True)

    def symbolic(key, value):
        shape = value.shape
        if batch and len(shape) > 1:
            shape = (None,) + shape[1:]
        return SymbolicTensor(shape, value.dtype)

    outs = _call(case, arrays, symbolic)
    expected = _expected(case)
    assert len(outs) == len(expected)
    for spec, want in zip(outs, expected):
        assert isinstance(spec, SymbolicTensor), spec
        assert len(spec.shape) == want.ndim and all(
            s is None or s == d for s, d in zip(spec.shape, want.shape)), (spec.shape, want.shape)
        if case.get("check_dtype", True):
            assert spec.dtype == want.dtype
