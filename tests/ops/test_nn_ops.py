"""`hikeras.ops` activations, `one_hot` and the Keras-numerics cross-entropies."""

import math

import numpy as np
import pytest
from hikeras.backend import GradientTape, SymbolicTensor

from hikeras import backend, ops

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(1)
X = _TABLE_RNG.standard_normal((3, 5)).astype(np.float32)
LOG_1E7 = -math.log(1e-7)  # the cost of a clipped prediction of exactly 0: 16.118


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


ACTIVATIONS = [
    (ops.relu, lambda x: np.maximum(x, 0)),
    (ops.relu6, lambda x: np.clip(x, 0, 6)),
    (ops.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    (ops.tanh, np.tanh),
    (ops.softplus, lambda x: np.log1p(np.exp(x))),
    (ops.softsign, lambda x: x / (1 + np.abs(x))),
    (ops.elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    (ops.selu, lambda x: 1.05070098 * np.where(x > 0, x, 1.67326324 * np.expm1(x))),
    (ops.silu, lambda x: x / (1 + np.exp(-x))),
    (ops.swish, lambda x: x / (1 + np.exp(-x))),
    (ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    (ops.hard_sigmoid, lambda x: np.clip(x / 6 + 0.5, 0, 1)),
    (ops.hard_silu, lambda x: x * np.clip(x / 6 + 0.5, 0, 1)),
    (ops.softmax, _softmax),
    (ops.log_softmax, lambda x: np.log(_softmax(x))),
    (ops.gelu, lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))),
]


@pytest.mark.parametrize("fn, reference", ACTIVATIONS, ids=lambda f: getattr(f, "__name__", ""))
def test_activations_match_numpy(fn, reference):
    out = fn(X)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, reference(X.astype(np.float64)), rtol=1e-5, atol=1e-6)
    assert fn(SymbolicTensor((None, 5))).shape == (None, 5)


def test_activation_arguments():
    erf = np.vectorize(math.erf)
    np.testing.assert_allclose(ops.gelu(X, approximate=False),
                               0.5 * X * (1 + erf(X / np.sqrt(2))), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(ops.elu(X, alpha=0.5), np.where(X > 0, X, 0.5 * np.expm1(X)),
                               rtol=1e-6)
    np.testing.assert_allclose(ops.leaky_relu(X, 0.1), np.where(X > 0, X, 0.1 * X))
    np.testing.assert_allclose(ops.relu(X, max_value=0.5), np.clip(X, 0, 0.5))
    np.testing.assert_allclose(ops.softmax(X, axis=0), _softmax(X, 0), rtol=1e-6)


def test_one_hot():
    np.testing.assert_array_equal(ops.one_hot(np.array([2, 0, 5, -1]), 3),
                                  [[0, 0, 1], [1, 0, 0], [0, 0, 0], [0, 0, 0]])
    assert ops.one_hot(np.array([1, 0]), 3, axis=0).tolist() == [[0, 1], [1, 0], [0, 0]]
    assert ops.one_hot(np.array([1]), 2).dtype == np.float32
    assert ops.one_hot(SymbolicTensor((None,), "int32"), 4).shape == (None, 4)
    with pytest.raises(ValueError, match="Received"):
        ops.one_hot(np.array([1]), 2, axis=3)


def test_categorical_crossentropy_on_probabilities():
    y_true = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    y_pred = np.array([[0.05, 0.95, 0.0],
                       [0.1, 0.8, 0.1],
                       [0.0, 1.0, 0.0],    # exactly 0 for the true class: clipped to 1e-7
                       [1.0, 2.0, 1.0]])   # not normalised: rescaled to sum to one first
    out = ops.categorical_crossentropy(y_true, y_pred)
    np.testing.assert_allclose(out, [-math.log(0.95), -math.log(0.1), LOG_1E7, math.log(2)],
                               rtol=1e-6)
    # exactly 1 for the true class is clipped to 1 - 1e-7 (in float32 for lists)
    np.testing.assert_allclose(ops.categorical_crossentropy([[0.0, 1.0]], [[0.0, 1.0]]),
                               [-np.log(np.float32(1 - 1e-7))], rtol=1e-3)


def test_categorical_crossentropy_from_logits_and_gradient(rng):
    labels = _softmax(rng.standard_normal((3, 5)))
    expected = -np.sum(labels * np.log(_softmax(X.astype(np.float64))), axis=-1)
    np.testing.assert_allclose(ops.categorical_crossentropy(labels, X, from_logits=True),
                               expected, rtol=1e-5)
    one_hot = np.eye(5, dtype=np.float32)[[0, 3, 1]]
    logits = X.astype(np.float64)
    with GradientTape() as tape:
        tape.watch(logits)
        loss = ops.sum(ops.categorical_crossentropy(one_hot, logits, from_logits=True))
    np.testing.assert_allclose(tape.gradient(loss, logits), _softmax(logits) - one_hot,
                               rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="Received"):
        ops.categorical_crossentropy(np.zeros(3), X)


def test_probability_crossentropy_gradient_matches_finite_differences(rng):
    y_true = np.eye(5)[[1, 4, 2]]
    p = _softmax(rng.standard_normal((3, 5)))
    with GradientTape() as tape:
        tape.watch(p)
        loss = ops.sum(ops.categorical_crossentropy(y_true, p))
    direction = rng.standard_normal(p.shape)
    step = 1e-6

    def f(t):
        return float(ops.sum(ops.categorical_crossentropy(y_true, p + t * direction)))

    numeric = (f(step) - f(-step)) / (2 * step)
    np.testing.assert_allclose(np.sum(tape.gradient(loss, p) * direction), numeric, rtol=1e-6)


def test_sparse_categorical_crossentropy(rng):
    labels = np.array([1, 4, 0])
    probs = _softmax(X.astype(np.float64))
    expected = -np.log(probs[np.arange(3), labels])
    np.testing.assert_allclose(ops.sparse_categorical_crossentropy(labels, X, from_logits=True),
                               expected, rtol=1e-5)
    np.testing.assert_allclose(ops.sparse_categorical_crossentropy(labels, probs), expected,
                               rtol=1e-6)
    np.testing.assert_allclose(ops.sparse_categorical_crossentropy(labels[:, None], probs),
                               expected, rtol=1e-6)  # a trailing axis of 1 is accepted
    np.testing.assert_allclose(ops.sparse_categorical_crossentropy(labels.astype("float32"), X,
                                                                   from_logits=True),
                               expected, rtol=1e-5)
    # class axis in the middle: (batch, classes, steps)
    logits = rng.standard_normal((2, 4, 3))
    targets = rng.integers(0, 4, size=(2, 3))
    moved = np.moveaxis(logits, 1, -1)
    expected = -np.take_along_axis(np.log(_softmax(moved)), targets[..., None], -1)[..., 0]
    for from_logits, output in ((True, logits), (False, _softmax(logits, axis=1))):
        np.testing.assert_allclose(
            ops.sparse_categorical_crossentropy(targets, output, from_logits=from_logits,
                                                axis=1), expected, rtol=1e-6)
    assert ops.sparse_categorical_crossentropy(SymbolicTensor((None,), "int64"),
                                               SymbolicTensor((None, 5)),
                                               from_logits=True).shape == (None,)


def test_sparse_prediction_of_exactly_zero_costs_the_clipped_value():
    out = ops.sparse_categorical_crossentropy(np.array([0]), np.array([[0.0, 1.0]]))
    np.testing.assert_allclose(out, [LOG_1E7], rtol=1e-6)


def test_binary_crossentropy():
    target = np.array([[1.0, 0.0, 1.0, 0.0, 1.0]])
    output = np.array([[0.0, 0.0, 1.0, 1.0, 0.8]])
    out = ops.binary_crossentropy(target, output)
    assert out.shape == (1, 5)  # elementwise, no reduction
    np.testing.assert_allclose(out, [[LOG_1E7, -math.log1p(-1e-7), -math.log1p(-1e-7),
                                      LOG_1E7, -math.log(0.8)]], rtol=1e-3)
    logits = np.array([-100.0, 0.0, 3.0, 100.0], np.float32)
    labels = np.array([1.0, 0.5, 0.0, 0.0], np.float32)
    expected = np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits)))
    from_logits = ops.binary_crossentropy(labels, logits, from_logits=True)
    assert from_logits.dtype == np.float32
    np.testing.assert_allclose(from_logits, expected, rtol=1e-6)


def test_epsilon_setting_is_respected():
    backend.set_epsilon(1e-3)
    try:
        np.testing.assert_allclose(ops.binary_crossentropy([1.0], [0.0]), [-math.log(1e-3)],
                                   rtol=1e-5)
    finally:
        backend.set_epsilon(1e-7)


def test_losses_on_tensors_under_a_tape():
    kernel = backend.Variable(np.zeros((5, 2), np.float32))
    target = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]], np.float32)
    with GradientTape() as tape:
        probs = ops.softmax(ops.matmul(X, kernel))
        loss = ops.mean(ops.categorical_crossentropy(target, probs))
    grad = tape.gradient(loss, kernel)
    np.testing.assert_allclose(grad, X.T @ (np.full((3, 2), 0.5) - target) / 3, rtol=1e-5,
                               atol=1e-7)


def test_einsum_and_dot_product_attention_match_numpy(rng):
    import numpy as np

    from hikeras import ops

    rng = np.random.default_rng(0)
    a, b = rng.random((2, 3, 4)), rng.random((2, 4, 5))
    np.testing.assert_allclose(ops.einsum("bij,bjk->bik", a, b),
                               np.einsum("bij,bjk->bik", a, b), rtol=1e-12)
    q, k, v = (rng.random((2, 5, 3, 4)) for _ in range(3))
    scores = np.einsum("btnh,bsnh->bnts", q, k) / 2.0
    causal = np.tril(np.ones((5, 5), bool))
    scores = np.where(causal, scores, -np.inf)
    probs = np.exp(scores - scores.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    expected = np.einsum("bnts,bsnh->btnh", probs, v)
    np.testing.assert_allclose(ops.dot_product_attention(q, k, v, is_causal=True), expected,
                               rtol=1e-10)
