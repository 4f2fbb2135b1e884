"""Fused normalisation ops: batch_norm (training mode) and layer_norm."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(11)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, **kw)


def _batch_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    """Textbook batch normalisation, one feature at a time."""
    axis %= x.ndim
    moved = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    means = np.array([moved[:, c].sum() / len(moved) for c in range(moved.shape[1])])
    variances = np.array([((moved[:, c] - means[c]) ** 2).sum() / len(moved)
                          for c in range(moved.shape[1])])
    shape = [1] * x.ndim
    shape[axis] = -1
    y = (x - means.reshape(shape)) / np.sqrt(variances.reshape(shape) + epsilon)
    if gamma is not None:
        y = y * gamma.reshape(shape)
    if beta is not None:
        y = y + beta.reshape(shape)
    return y, means, variances


def _layer_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    mean = np.mean(x, axis=axis, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=axis, keepdims=True)
    y = (x - mean) / np.sqrt(var + epsilon)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def _bn_case(x_shape, axis=-1, center=True, scale=True, epsilon=1e-3, label=""):
    channels = x_shape[axis]
    gamma = r(channels, low=0.5, high=2.0) if scale else None
    beta = r(channels) if center else None
    return case("batch_norm", r(*x_shape), gamma, beta,
                attrs={"axis": axis, "epsilon": epsilon},
                reference=lambda x, g, b: _batch_norm(x, g, b, axis, epsilon),
                label=label, rtol=1e-4, atol=1e-5, grad_rtol=1e-4)


def _ln_case(x_shape, gamma_shape, axis=-1, center=True, scale=True, label=""):
    gamma = r(*gamma_shape, low=0.5, high=2.0) if scale else None
    beta = r(*gamma_shape) if center else None
    return case("layer_norm", r(*x_shape), gamma, beta, attrs={"axis": axis},
                reference=lambda x, g, b: _layer_norm(x, g, b, axis),
                label=label, rtol=1e-4, atol=1e-5, grad_rtol=1e-4)


CASES = [
    _bn_case((6, 3), label="dense"),
    _bn_case((2, 3, 3, 4), label="nhwc"),
    _bn_case((3, 4, 2, 2), axis=1, label="nchw"),
    _bn_case((5, 3), center=False, label="no-center"),
    _bn_case((5, 3), scale=False, label="no-scale"),
    _bn_case((4, 2), center=False, scale=False, epsilon=0.1, label="plain"),
    # rows summed in folds of 2048 // 4 = 512, plus a remainder of 3 rows
    _bn_case((515, 4), label="folded-rows"),
    _ln_case((4, 5), (5,), label="last"),
    _ln_case((2, 3, 4), (3, 4), axis=(1, 2), label="two-axes"),
    _ln_case((2, 3, 4), (3, 1), axis=1, label="middle-axis"),
    _ln_case((3, 4), (4,), center=False, label="no-center"),
    _ln_case((3, 4), (4,), scale=False, label="no-scale"),
    # group normalisation: statistics per (sample, group), gamma per channel
    _ln_case((2, 3, 2, 3), (2, 3), axis=(1, 3), label="groups"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_batch_norm_normalises_each_feature(rng):
    x = rng.normal(3.0, 5.0, size=(64, 3))
    y, mean, var = apply("batch_norm", x, None, None, epsilon=0.0)
    np.testing.assert_allclose(y.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(y.std(axis=0), 1, rtol=1e-12)
    np.testing.assert_allclose(mean, x.mean(axis=0))
    np.testing.assert_allclose(var, x.var(axis=0))


def test_batch_norm_gradient_of_a_constant_feature_is_finite():
    x = np.ones((4, 2))
    with GradientTape() as tape:
        tape.watch(x)
        y, _, _ = apply("batch_norm", x, np.ones(2), np.zeros(2))
        loss = apply("sum", apply("multiply", y, np.arange(8.0).reshape(4, 2)))
    grad = tape.gradient(loss, x)
    assert np.all(np.isfinite(grad))


def test_batch_norm_shape_rule_with_unknown_feature_size():
    specs = apply("batch_norm", SymbolicTensor((None, None)), None, None)
    assert [s.shape for s in specs] == [(None, None), (None,), (None,)]


def test_layer_norm_rejects_an_axis_out_of_range():
    with pytest.raises(ValueError, match="axis"):
        apply("layer_norm", SymbolicTensor((None, 3)), None, None, axis=2)
