"""The gradient-check harness must catch wrong VJPs and wrong shape rules."""

import numpy as np
import pytest

from hikeras.backend import SymbolicTensor, get_op
from tests.helpers.check_op import CHECKED_OPS, check_op


@pytest.fixture
def patched():
    """Temporarily replaces attributes of registered ops."""
    saved = []

    def patch(name, attr, value):
        op = get_op(name)
        saved.append((op, attr, getattr(op, attr)))
        setattr(op, attr, value)

    yield patch
    for op, attr, value in reversed(saved):
        setattr(op, attr, value)


def test_passes_a_correct_op_and_records_it(rng):
    check_op("exp", rng.standard_normal((3, 2)), reference=np.exp)
    assert "exp" in CHECKED_OPS


def test_catches_a_wrong_gradient_value(patched, rng):
    patched("subtract", "vjp", lambda node, g: (g, g))  # sign error on y
    with pytest.raises(AssertionError, match="gradient of input 1 is wrong"):
        check_op("subtract", rng.standard_normal(3), rng.standard_normal(3))


def test_catches_a_slightly_wrong_gradient(patched, rng):
    original = get_op("tanh").vjp
    patched("tanh", "vjp", lambda node, g: (original(node, g)[0] * 1.001,))
    with pytest.raises(AssertionError, match="gradient of input 0 is wrong"):
        check_op("tanh", rng.standard_normal((4, 4)))


def test_catches_a_gradient_not_unbroadcast(patched, rng):
    patched("add", "vjp", lambda node, g: (g, g))
    with pytest.raises(AssertionError, match="shape"):
        check_op("add", rng.standard_normal((3, 4)), rng.standard_normal(4))


def test_catches_a_vjp_that_writes_into_g(patched, rng):
    def doubled(a):
        a *= 2.0
        return a

    patched("negative", "vjp", lambda node, g: (doubled(-g) / 2.0,))
    check_op("negative", rng.standard_normal(3))  # writing into its own array is fine
    patched("negative", "vjp", lambda node, g: (-doubled(g) / 2.0,))
    with pytest.raises(AssertionError, match="wrote into g"):
        check_op("negative", rng.standard_normal(3))


def test_catches_a_vjp_that_consumes_its_residual(patched, rng):
    def vjp(node, g):
        out = node.outputs[0]
        out *= 2.0  # corrupts the saved output: a second backward would differ
        return (g * out / 2.0,)

    patched("exp", "vjp", vjp)
    with pytest.raises(AssertionError):
        check_op("exp", rng.standard_normal(3))


def test_catches_a_wrong_shape_rule(patched, rng):
    patched("square", "shape_rule", lambda x, **_: SymbolicTensor(x.shape[1:], x.dtype))
    with pytest.raises(AssertionError, match="rule shape"):
        check_op("square", rng.standard_normal((2, 3)))


def test_catches_a_float64_upcast(patched, rng):
    patched("negative", "forward", lambda x: np.negative(x).astype(np.float64))
    with pytest.raises(AssertionError, match="float32 into float64"):
        check_op("negative", rng.standard_normal(3))


def test_catches_a_wrong_forward(rng):
    with pytest.raises(AssertionError, match="forward"):
        check_op("exp", rng.standard_normal(3), reference=np.expm1)
