"""Fused cross-entropy ops and dropout."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(7)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, low=-3.0, high=3.0, **kw)


def _log_softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _probabilities(*shape):
    p = _TABLE_RNG.uniform(0.1, 1.0, size=shape)
    return p / p.sum(axis=-1, keepdims=True)


def _one_hot(labels, classes):
    return np.eye(classes)[labels]


def _softmax_ce(axis=-1):
    return lambda logits, labels: -np.sum(labels * _log_softmax(logits, axis), axis=axis)


def _sparse_ce(logits, labels):
    return -np.take_along_axis(_log_softmax(logits), labels[..., None], -1)[..., 0]


def _sigmoid_ce(logits, labels):
    p = 1 / (1 + np.exp(-logits))
    return -labels * np.log(p) - (1 - labels) * np.log(1 - p)


_labels = _TABLE_RNG.integers(0, 5, size=(4,))
_labels_3d = _TABLE_RNG.integers(0, 3, size=(2, 3))
CASES = [
    case("softmax_cross_entropy", r(4, 5), _probabilities(4, 5), reference=_softmax_ce()),
    case("softmax_cross_entropy", r(4, 5), _one_hot(_labels, 5), reference=_softmax_ce(),
         wrt=(0,), label="one-hot"),
    case("softmax_cross_entropy", r(5), _probabilities(5), reference=_softmax_ce(),
         label="single"),
    case("softmax_cross_entropy", r(2, 3, 4), _probabilities(2, 3, 4), reference=_softmax_ce()),
    case("softmax_cross_entropy", r(3, 4), _probabilities(4, 3).T, attrs={"axis": 0},
         reference=_softmax_ce(0), label="axis0"),
    case("softmax_cross_entropy", r(4, 5), _probabilities(5), reference=_softmax_ce(),
         label="broadcast-labels"),
    case("softmax_cross_entropy", r(5), _probabilities(3, 5), reference=_softmax_ce(),
         label="broadcast-logits"),
    case("softmax_cross_entropy", r(4, 5), 2 * _probabilities(4, 5), reference=_softmax_ce(),
         label="unnormalised-labels"),
    case("sparse_softmax_cross_entropy", r(4, 5), _labels, reference=_sparse_ce),
    case("sparse_softmax_cross_entropy", r(2, 3, 3), _labels_3d, reference=_sparse_ce),
    case("sparse_softmax_cross_entropy", r(5), np.array(3), reference=_sparse_ce,
         label="single"),
    case("sparse_softmax_cross_entropy", r(4, 5), _labels.astype(np.float64), wrt=(0,),
         reference=lambda x, y: _sparse_ce(x, y.astype(int)), label="float-labels"),
    case("sigmoid_cross_entropy", r(4, 3), _TABLE_RNG.uniform(size=(4, 3)), reference=_sigmoid_ce),
    case("sigmoid_cross_entropy", r(6), (_TABLE_RNG.uniform(size=6) > 0.5).astype(float),
         reference=_sigmoid_ce, label="binary"),
    case("sigmoid_cross_entropy", r(), _TABLE_RNG.uniform(size=()), reference=_sigmoid_ce),
    case("sigmoid_cross_entropy", r(4, 3), _TABLE_RNG.uniform(size=(3,)), reference=_sigmoid_ce,
         label="broadcast"),
    case("sigmoid_cross_entropy", np.array([-100.0, 100.0, 0.0]), np.array([1.0, 0.0, 0.5]),
         reference=lambda x, z: np.array([100.0, 100.0, np.log(2.0)]), label="extremes"),
]


def _dropout_reference(rate, seed, noise_shape=None):
    def reference(x):
        shape = x.shape if noise_shape is None else noise_shape
        keep = np.random.default_rng(seed).random(shape, dtype=np.float32) >= rate
        return x * keep / (1 - rate)

    return reference


CASES += [
    case("dropout", r(20, 30), attrs={"rate": 0.3, "rng": 11},
         reference=_dropout_reference(0.3, 11)),
    case("dropout", r(4, 5, 6), attrs={"rate": 0.5, "rng": 3, "noise_shape": (4, 1, 6)},
         reference=_dropout_reference(0.5, 3, (4, 1, 6)), label="noise-shape", batch_none=False),
    case("dropout", r(3, 4), attrs={"rate": 0.0}, reference=lambda x: x, label="rate0"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_fused_losses_are_finite_for_huge_logits():
    logits = np.array([[1e4, -1e4, 0.0]], dtype=np.float32)
    assert np.isfinite(apply("softmax_cross_entropy", logits, np.array([[0.0, 1.0, 0.0]]))).all()
    assert apply("sparse_softmax_cross_entropy", logits, np.array([1]))[0] == 2e4
    assert np.isfinite(apply("sigmoid_cross_entropy", logits, np.ones((1, 3)))).all()
    with GradientTape() as tape:
        tape.watch(logits)
        loss = apply("sparse_softmax_cross_entropy", logits, np.array([1]))
    np.testing.assert_allclose(tape.gradient(loss, logits), [[1, -1, 0]])


def test_sparse_labels_must_match_the_leading_shape():
    with pytest.raises(ValueError, match="Received"):
        apply("sparse_softmax_cross_entropy", np.zeros((4, 3)), np.zeros((4, 1), int))
    with pytest.raises(ValueError, match="Received"):
        apply("sparse_softmax_cross_entropy", SymbolicTensor((None, 3)), SymbolicTensor((None, 1)))


def test_dropout_statistics_and_generator():
    generator = np.random.default_rng(0)
    x = np.ones((200, 500), dtype=np.float32)
    y = apply("dropout", x, rate=0.25, rng=generator)
    assert y.dtype == np.float32
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.01
    assert abs(y.mean() - 1.0) < 0.01
    z = apply("dropout", x, rate=0.25, rng=generator)
    assert not np.array_equal(y, z)  # the generator advanced


def test_dropout_gradient_uses_the_same_mask():
    x = np.ones((10, 10))
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("dropout", x, rate=0.5, rng=np.random.default_rng(1))
    np.testing.assert_array_equal(tape.gradient(y, x), y.value)


@pytest.mark.parametrize("rate", [-0.1, 1.0, 1.5])
def test_dropout_rejects_rates_outside_zero_one(rate):
    with pytest.raises(ValueError, match="Received: rate"):
        apply("dropout", np.ones(3), rate=rate)
