"""`hikeras.ops` array math against numpy, on arrays, scalars, tensors and symbols."""

import numpy as np
import pytest
from hikeras.backend import GradientTape, SymbolicTensor, Tensor, Variable

from hikeras import backend, ops

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(0)
X = _TABLE_RNG.standard_normal((3, 4)).astype(np.float32)
Y = _TABLE_RNG.standard_normal((4,)).astype(np.float32)
POSITIVE = _TABLE_RNG.uniform(0.5, 2.0, size=(3, 4)).astype(np.float32)

BINARY = [
    (ops.add, np.add), (ops.subtract, np.subtract), (ops.multiply, np.multiply),
    (ops.divide, np.divide), (ops.true_divide, np.true_divide), (ops.maximum, np.maximum),
    (ops.minimum, np.minimum), (ops.equal, np.equal), (ops.not_equal, np.not_equal),
    (ops.less, np.less), (ops.less_equal, np.less_equal), (ops.greater, np.greater),
    (ops.greater_equal, np.greater_equal), (ops.logical_and, np.logical_and),
    (ops.logical_or, np.logical_or),
]
UNARY = [
    (ops.negative, np.negative), (ops.square, np.square), (ops.exp, np.exp),
    (ops.expm1, np.expm1), (ops.abs, np.abs), (ops.absolute, np.abs), (ops.sign, np.sign),
    (ops.floor, np.floor), (ops.round, np.round), (ops.logical_not, np.logical_not),
]
POSITIVE_UNARY = [(ops.sqrt, np.sqrt), (ops.log, np.log), (ops.log1p, np.log1p),
                  (ops.rsqrt, lambda x: 1 / np.sqrt(x))]


@pytest.mark.parametrize("fn, reference", BINARY, ids=lambda f: getattr(f, "__name__", ""))
def test_binary_ops_match_numpy_and_keep_float32(fn, reference):
    out = fn(X, Y)
    np.testing.assert_allclose(out, reference(X, Y), rtol=1e-6)
    if out.dtype != bool:
        assert out.dtype == np.float32
        assert fn(X, 2.0).dtype == np.float32  # a Python scalar is weak
    assert fn(SymbolicTensor((None, 4)), Y).shape == (None, 4)


@pytest.mark.parametrize("fn, reference", UNARY + POSITIVE_UNARY,
                         ids=lambda f: getattr(f, "__name__", ""))
def test_unary_ops_match_numpy(fn, reference):
    x = POSITIVE if (fn, reference) in POSITIVE_UNARY else X
    np.testing.assert_allclose(fn(x), reference(x), rtol=1e-6)
    assert fn(SymbolicTensor((None, 4))).shape == (None, 4)


def test_python_numbers_and_lists_become_keras_dtypes():
    assert ops.exp(1.0).dtype == np.float32
    assert ops.add([1.0, 2.0], [3.0, 4.0]).dtype == np.float32
    assert ops.add(1, 2).dtype == np.int32
    assert ops.convert_to_tensor([1, 2]).dtype == np.int32
    assert ops.convert_to_tensor(np.zeros(2)).dtype == np.float64  # arrays keep theirs
    assert ops.convert_to_tensor([1, 2], dtype="float64").dtype == np.float64
    with pytest.raises(TypeError, match="Received"):
        ops.add({"a": 1}, 2)


def test_operator_expressions_on_tensors_under_a_tape():
    y_true = np.array([[1.0, 0.0], [0.5, 2.0]], np.float32)
    y_pred = Variable(np.array([[0.5, 0.5], [0.0, 1.0]], np.float32))
    with GradientTape() as tape:
        diff = y_true - y_pred
        loss = ops.mean(ops.square(diff)) + 0.5 * ops.sum(abs(y_pred)) / 2 - (-y_pred[0, 0])
    assert isinstance(diff, Tensor) and isinstance(loss, Tensor)
    grad = tape.gradient(loss, y_pred)
    expected = -2 * (y_true - y_pred.value) / 4 + 0.25 * np.sign(y_pred.value)
    expected[0, 0] += 1
    np.testing.assert_allclose(grad, expected, rtol=1e-6)
    assert grad.dtype == np.float32


def test_where_clip_and_nonzero():
    np.testing.assert_array_equal(ops.where(X > 0, X, 0.0), np.where(X > 0, X, 0))
    np.testing.assert_array_equal(ops.clip(X, -0.5, 0.5), np.clip(X, -0.5, 0.5))
    rows, cols = ops.where(np.array([[True, False], [False, True]]))
    assert rows.tolist() == [0, 1] and cols.tolist() == [0, 1]
    with pytest.raises(ValueError, match="Received"):
        ops.where(X > 0, X)


@pytest.mark.parametrize("s1, s2", [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)),
                                    ((2, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
                                    ((2, 2, 3), (5, 3, 4)), ((), (3, 2))])
def test_dot_follows_numpy(s1, s2, rng):
    a, b = rng.standard_normal(s1), rng.standard_normal(s2)
    np.testing.assert_allclose(ops.dot(a, b), np.dot(a, b), rtol=1e-10)
    assert ops.matmul(X, X.T).shape == (3, 3)


def test_shape_manipulation():
    assert ops.reshape(X, (2, -1)).shape == (2, 6)
    assert ops.reshape(X, 12).shape == (12,)
    assert ops.transpose(X).shape == (4, 3)
    assert ops.transpose(np.zeros((2, 3, 4)), [2, 0, 1]).shape == (4, 2, 3)
    assert ops.expand_dims(X, 0).shape == (1, 3, 4)
    assert ops.squeeze(np.zeros((1, 3, 1)), axis=-1).shape == (1, 3)
    assert ops.broadcast_to(Y, (2, 4)).shape == (2, 4)
    assert ops.tile(Y, 2).shape == (8,)
    assert ops.repeat(X, [1, 2, 0], axis=0).shape == (3, 4)
    np.testing.assert_array_equal(ops.concatenate([X, X], axis=1), np.concatenate([X, X], 1))
    np.testing.assert_array_equal(ops.stack([Y, Y], axis=1), np.stack([Y, Y], 1))
    pieces = ops.split(X, 2, axis=1)
    assert isinstance(pieces, list) and [p.shape for p in pieces] == [(3, 2), (3, 2)]
    assert [p.shape for p in ops.split(SymbolicTensor((None, 4)), [1], axis=1)] == [
        (None, 1), (None, 3)]
    with pytest.raises(TypeError, match="Received"):
        ops.concatenate(X)


def test_take_and_pad():
    np.testing.assert_array_equal(ops.take(X, [2, 0], axis=0), X[[2, 0]])
    np.testing.assert_array_equal(ops.take(X, np.array([1.0, 3.0]), axis=1), X[:, [1, 3]])
    np.testing.assert_array_equal(ops.pad(X, [[1, 1], [0, 2]], constant_values=5.0),
                                  np.pad(X, [[1, 1], [0, 2]], constant_values=5.0))
    np.testing.assert_array_equal(ops.pad(X, 1, mode="reflect"), np.pad(X, 1, mode="reflect"))
    with pytest.raises(ValueError, match="Received"):
        ops.pad(X, 1, mode="reflect", constant_values=1.0)


def test_reductions():
    np.testing.assert_allclose(ops.sum(X, axis=[0, 1]), X.sum(), rtol=1e-6)
    np.testing.assert_allclose(ops.mean(X, axis=0, keepdims=True), X.mean(0, keepdims=True))
    np.testing.assert_allclose(ops.var(X, axis=1), X.var(1), rtol=1e-6)
    np.testing.assert_allclose(ops.std(X), X.std(), rtol=1e-6)
    np.testing.assert_allclose(ops.prod(POSITIVE, axis=1), POSITIVE.prod(1), rtol=1e-6)
    assert ops.max(X, initial=10.0) == 10.0
    assert ops.min(X, axis=1).shape == (3,)
    assert ops.argmax(X, axis=1).dtype == np.int64
    np.testing.assert_array_equal(ops.argmin(X), np.argmin(X))
    np.testing.assert_allclose(ops.logsumexp(X, axis=1),
                               np.log(np.exp(X).sum(1)), rtol=1e-6)
    assert ops.mean(np.arange(4)).dtype == np.float32  # integers give floatx
    assert ops.sum(SymbolicTensor((None, 4)), axis=0).shape == (4,)


def test_creation_functions():
    assert ops.zeros((2, 3)).dtype == np.float32
    assert ops.ones(2, dtype="int32").dtype == np.int32
    assert ops.full((2,), 3.0).dtype == np.float32
    assert ops.full((2,), 3).dtype == np.int32
    np.testing.assert_array_equal(ops.eye(2, 3, k=1), np.eye(2, 3, k=1))
    assert ops.arange(5).dtype == np.int32 and ops.arange(0.0, 1.0, 0.25).dtype == np.float32
    assert ops.arange(2, 8, 2).tolist() == [2, 4, 6]
    np.testing.assert_array_equal(ops.zeros_like(X), np.zeros_like(X))
    assert ops.ones_like(X, dtype="int32").dtype == np.int32
    np.testing.assert_array_equal(ops.full_like(X, 2.0), np.full_like(X, 2.0))
    assert ops.zeros_like(SymbolicTensor((None, 2))).shape == (None, 2)


def test_core_helpers():
    symbolic = SymbolicTensor((None, 3))
    assert ops.shape(symbolic) == (None, 3)
    assert ops.shape(X) == (3, 4) and ops.ndim(X) == 2 and ops.size(X) == 12
    assert ops.size(symbolic) is None
    assert ops.dtype(X) == "float32"
    assert ops.cast(X, "float64").dtype == np.float64
    assert ops.cast(symbolic, "int32").dtype == np.int32
    assert ops.convert_to_numpy(Tensor(X)) is X
    assert ops.is_tensor(X) and not ops.is_tensor([1.0])
    with pytest.raises(TypeError, match="Received"):
        ops.convert_to_numpy(symbolic)
    with GradientTape() as tape:
        tape.watch(x := np.array([1.0, 2.0]))
        y = ops.sum(ops.multiply(ops.stop_gradient(x), x))
    np.testing.assert_array_equal(tape.gradient(y, x), x)


def test_float64_floatx_is_respected():
    backend.set_floatx("float64")
    try:
        assert ops.convert_to_tensor([1.0]).dtype == np.float64
        assert ops.zeros(2).dtype == np.float64
    finally:
        backend.set_floatx("float32")
