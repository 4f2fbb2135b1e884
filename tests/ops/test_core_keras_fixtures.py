"""Core and control-flow ops against records of real Keras 3.15 (TensorFlow backend).

`tests/fixtures/keras_ops/generate_core.py` ran each case's function written with
`keras.ops`; here the same function runs with `hikeras.ops` (it is written
once, against an ops namespace, in the generator) and the values and the
gradients of `sum(out * w)` must agree.
"""

import pathlib

import numpy as np
import pytest
from hikeras.backend import GradientTape, Tensor

from hikeras import ops
from tests.fixtures.keras_ops.generate_core import cases, weights_like

ARRAYS = np.load(pathlib.Path(__file__).parent.parent / "fixtures" / "keras_ops" /
                 "core_ops.npz")
CASES = cases(ops)


def _value(x):
    return x.value if isinstance(x, Tensor) else np.asarray(x)


def _inputs(name):
    inputs, j = [], 0
    while f"{name}/in{j}" in ARRAYS:
        inputs.append(np.array(ARRAYS[f"{name}/in{j}"]))
        j += 1
    return inputs


def _outputs(out):
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    return [o for o in outs if o is not None]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_keras(name):
    fn, _, differentiable = CASES[name]
    inputs = [Tensor(x) for x in _inputs(name)]  # tensors, so Python operators record too
    with GradientTape() as tape:
        for x in inputs:
            tape.watch(x)
        outs = _outputs(fn(*inputs))
        target = None
        for out in outs:
            term = ops.sum(ops.multiply(ops.cast(out, "float64"), weights_like(_value(out).shape)))
            target = term if target is None else ops.add(target, term)
    for j, out in enumerate(outs):
        want = ARRAYS[f"{name}/out{j}"]
        got = _value(out)
        assert got.shape == want.shape and got.dtype == want.dtype, (name, got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6, err_msg=name)
    if differentiable:
        for j, grad in enumerate(tape.gradient(target, inputs)):
            want = ARRAYS[f"{name}/grad{j}"]
            got = np.zeros_like(want) if grad is None else _value(grad)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5,
                                       err_msg=f"{name}: gradient of input {j}")
