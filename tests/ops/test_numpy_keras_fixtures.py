"""`hikeras.ops.numpy` against records of real Keras 3.15 (TensorFlow backend).

`tests/fixtures/keras_ops/generate_numpy.py` wrote the records: seeded
inputs, Keras's outputs and dtypes, and `tf.GradientTape` gradients of
`sum(out * w)` with fixed weights `w`. Here the same call goes through
hikeras: values agree at float32 tolerance, dtypes match, and the gradients
of the differentiable cases agree with TensorFlow's.
"""

import json
import pathlib

import numpy as np
import pytest
from hikeras.backend import GradientTape, SymbolicTensor, Tensor

from hikeras import ops

HERE = pathlib.Path(__file__).parent.parent / "fixtures" / "keras_ops"
RECORD = json.loads((HERE / "numpy_ops.json").read_text())
ARRAYS = np.load(HERE / "numpy_ops.npz")

# Where hikeras deliberately differs from Keras's TensorFlow backend, and why;
# each of these is checked against numpy or finite differences instead.
VALUES_LEFT_OUT = {
    "rot90_k2": "Keras 3.15's TensorFlow rot90 scrambles entries for k=2 "
                "([[0,1,2],[3,4,5]] gives [[1,3,5],[0,2,4]]); hikeras rotates like numpy",
    "argpartition_163": "any order within the two parts is valid; TensorFlow's differs "
                        "from numpy's, so the partition property is checked instead",
}
GRADIENTS_LEFT_OUT = {
    ("rot90_k2", 0): "see VALUES_LEFT_OUT",
    ("cumprod_zero", 0): "TensorFlow's cumprod gradient is 0 before a zero entry; hikeras "
                         "gives the exact derivative (checked by finite differences)",
    ("quantile_123", 1): "hikeras treats the quantile levels q as constants",
    ("percentile_129", 1): "hikeras treats the percentile levels q as constants",
}


def weights_like(shape):
    n = int(np.prod(shape))
    return np.cos(np.arange(n, dtype=np.float64)).reshape(shape)


def _inputs(label, entry):
    arrays = []
    j = 0
    while f"{label}/in{j}" in ARRAYS:
        arrays.append(np.array(ARRAYS[f"{label}/in{j}"]))
        j += 1
    return arrays


def _call(entry, arrays, label):
    args = []
    for spec in entry["args"]:
        if "array" in spec:
            args.append(arrays[spec["array"]])
        elif "arrays" in spec:
            args.append([arrays[k] for k in spec["arrays"]])
        else:
            literal = spec["literal"]
            args.append(tuple(literal) if isinstance(literal, list) else literal)
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in entry["kwargs"].items()}
    for k in entry["array_kwargs"]:
        kwargs[k] = np.array(ARRAYS[f"{label}/kw_{k}"])
    out = getattr(ops, entry["op"])(*args, **kwargs)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _value(x):
    return x.value if isinstance(x, Tensor) else np.asarray(x)


@pytest.mark.parametrize("label", sorted(RECORD))
def test_values_and_dtypes_match_keras(label):
    if label in VALUES_LEFT_OUT:
        pytest.skip(VALUES_LEFT_OUT[label])
    entry = RECORD[label]
    outs = _call(entry, _inputs(label, entry), label)
    assert len(outs) == entry["num_outputs"]
    for j, (out, dtype) in enumerate(zip(outs, entry["dtypes"])):
        got, want = _value(out), ARRAYS[f"{label}/out{j}"]
        assert got.shape == want.shape, f"{label}: shape {got.shape} != Keras's {want.shape}"
        assert str(got.dtype) == dtype, f"{label}: dtype {got.dtype} != {dtype}"
        if np.issubdtype(want.dtype, np.inexact):
            np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-5, atol=2e-6,
                                       equal_nan=True, err_msg=label)
        else:
            np.testing.assert_array_equal(got, want, err_msg=label)


@pytest.mark.parametrize("label", sorted(k for k, e in RECORD.items() if e["grad"]))
def test_gradients_match_tensorflow(label):
    entry = RECORD[label]
    arrays = _inputs(label, entry)
    watched = entry["grads"]
    with GradientTape() as tape:
        for j in watched:
            tape.watch(arrays[j])
        outs = _call(entry, arrays, label)
        target = None
        for out in outs:
            if not np.issubdtype(_value(out).dtype, np.floating):
                continue
            term = ops.sum(ops.multiply(ops.cast(out, "float64"),
                                        weights_like(_value(out).shape)))
            target = term if target is None else ops.add(target, term)
    grads = tape.gradient(target, [arrays[j] for j in watched])
    for j, grad in zip(watched, grads):
        if (label, j) in GRADIENTS_LEFT_OUT:
            continue
        want = ARRAYS[f"{label}/grad{j}"]
        got = np.zeros_like(want) if grad is None else _value(grad)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5,
                                   err_msg=f"{label}: gradient of input {j}")


def test_rot90_by_two_matches_numpy(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    for axes in [(0, 1), (1, 2), (2, 0)]:
        np.testing.assert_array_equal(ops.rot90(x, 2, axes), np.rot90(x, 2, axes))


def test_argpartition_partitions(rng):
    x = rng.permutation(12).astype(np.float32).reshape(2, 6)
    order = ops.argpartition(x, 2)
    assert order.dtype == np.int32
    parted = np.take_along_axis(x, order, axis=-1)
    kth = np.sort(x, axis=-1)[:, 2:3]
    np.testing.assert_array_equal(parted[:, 2:3], kth)
    assert np.all(parted[:, :2] <= kth) and np.all(parted[:, 3:] >= kth)


# Ops whose result depends on the values (or that build arrays from Python
# numbers), so they run on concrete values only.
CONCRETE_ONLY = {
    "searchsorted", "digitize", "isin", "bincount", "histogram", "unique", "nonzero",
    "unravel_index", "nanmedian", "nanquantile", "nanpercentile", "identity", "tri",
    "linspace", "logspace", "geomspace", "bartlett", "blackman", "hamming", "hanning",
    "kaiser",
}


# Arguments that stay concrete: quantile levels are constants in hikeras.
CONSTANT_ARGUMENTS = {"quantile": (1,), "percentile": (1,)}


def _symbolic(arrays, unknown_first, constant=()):
    specs = []
    for i, x in enumerate(arrays):
        if i in constant:
            specs.append(x)
            continue
        shape = x.shape
        if unknown_first and shape:
            shape = (None,) + shape[1:]
        specs.append(SymbolicTensor(shape, x.dtype))
    return specs


@pytest.mark.parametrize("label", sorted(k for k, e in RECORD.items()
                                         if e["op"] not in CONCRETE_ONLY))
def test_symbolic_specs_match_the_values(label):
    entry = RECORD[label]
    arrays = _inputs(label, entry)
    concrete = [_value(o) for o in _call(entry, arrays, label)]
    for unknown_first in (False, True):
        try:
            specs = _call(entry, _symbolic(arrays, unknown_first,
                                           CONSTANT_ARGUMENTS.get(entry["op"], ())), label)
        except ValueError as error:
            # an unknown length the op needs (split sizes, quantile counts) is refused
            # with a message naming it, never a numpy traceback
            assert unknown_first and "Received" in str(error), error
            continue
        for spec, out in zip(specs, concrete):
            assert isinstance(spec, SymbolicTensor), (label, spec)
            assert spec.dtype == out.dtype, (label, spec.dtype, out.dtype)
            assert len(spec.shape) == out.ndim, (label, spec.shape, out.shape)
            for got, want in zip(spec.shape, out.shape):
                assert got == want or (unknown_first and got is None), (
                    label, spec.shape, out.shape)
