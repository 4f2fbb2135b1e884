"""The new losses against first-principles numpy formulas, and their gradients."""

import numpy as np
import pytest

import hikeras
from hikeras import losses

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(7)
Y = _TABLE_RNG.normal(size=(5, 3))
P = _TABLE_RNG.normal(size=(5, 3)) * 2
POS_Y, POS_P = _TABLE_RNG.random((5, 3)) * 3, _TABLE_RNG.random((5, 3)) * 3 + 0.1
B = _TABLE_RNG.integers(0, 2, (5, 3)).astype(float)
PROB = np.clip(_TABLE_RNG.random((5, 3)), 0.05, 0.95)


def softplus(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


def unit(x):
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-7)


CASES = [
    (losses.mean_absolute_percentage_error, Y, P,
     100 * np.mean(np.abs((Y - P) / np.maximum(np.abs(Y), 1e-7)), -1)),
    (losses.mean_squared_logarithmic_error, POS_Y, P,
     np.mean((np.log(np.maximum(P, 1e-7) + 1) - np.log(POS_Y + 1)) ** 2, -1)),
    (losses.cosine_similarity, Y, P, -np.sum(unit(Y) * unit(P), -1)),
    (losses.huber, Y, P, np.mean(np.where(np.abs(P - Y) <= 1, 0.5 * (P - Y) ** 2,
                                          np.abs(P - Y) - 0.5), -1)),
    (losses.log_cosh, Y, P, np.mean(np.log(np.cosh(P - Y)), -1)),
    (losses.hinge, B, P, np.mean(np.maximum(1 - (2 * B - 1) * P, 0), -1)),
    (losses.squared_hinge, B, P, np.mean(np.maximum(1 - (2 * B - 1) * P, 0) ** 2, -1)),
    (losses.poisson, POS_Y, POS_P, np.mean(POS_P - POS_Y * np.log(POS_P + 1e-7), -1)),
    (losses.kl_divergence, PROB / PROB.sum(-1, keepdims=True), PROB,
     np.sum((PROB / PROB.sum(-1, keepdims=True))
            * np.log((PROB / PROB.sum(-1, keepdims=True)) / PROB), -1)),
    (losses.binary_focal_crossentropy, B, PROB,
     np.mean(np.where(B == 1, 1 - PROB, PROB) ** 2
             * -(B * np.log(PROB) + (1 - B) * np.log(1 - PROB)), -1)),
]


@pytest.mark.parametrize("fn,y_true,y_pred,expected", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_matches_formula(fn, y_true, y_pred, expected):
    np.testing.assert_allclose(fn(y_true, y_pred), expected, rtol=1e-6)


def test_categorical_hinge_and_focal_formulas():
    onehot = np.eye(3)[[0, 2, 1, 1, 0]]
    positive = np.sum(onehot * P, -1)
    negative = np.max((1 - onehot) * P, -1)
    np.testing.assert_allclose(losses.categorical_hinge(onehot, P),
                               np.maximum(negative - positive + 1, 0))
    p = PROB / PROB.sum(-1, keepdims=True)
    np.testing.assert_allclose(
        losses.categorical_focal_crossentropy(onehot, PROB, alpha=0.5, gamma=1.5),
        np.sum(0.5 * (1 - p) ** 1.5 * -onehot * np.log(p), -1), rtol=1e-6)
    np.testing.assert_allclose(losses.log_cosh(np.zeros((1, 1)), np.array([[200.0]])),
                               [200 - np.log(2)])  # no overflow


@pytest.mark.parametrize("fn", [c[0] for c in CASES] + [losses.categorical_hinge],
                         ids=lambda f: f.__name__)
def test_gradient_matches_finite_differences(fn):
    y_true, y_pred = (B, PROB) if fn in (losses.binary_focal_crossentropy,
                                         losses.kl_divergence, losses.poisson) else (Y, P)
    if fn is losses.categorical_hinge:
        y_true = np.eye(3)[[0, 2, 1, 1, 0]]
    tracked = hikeras.backend.Tensor(y_pred.copy())  # like a model output under a tape
    with hikeras.GradientTape() as tape:
        tape.watch(tracked)
        total = hikeras.ops.sum(fn(y_true, tracked))
    grad = tape.gradient(total, tracked)
    direction = np.random.default_rng(0).normal(size=y_pred.shape)
    eps = 1e-6
    up = np.sum(fn(y_true, y_pred + eps * direction))
    down = np.sum(fn(y_true, y_pred - eps * direction))
    np.testing.assert_allclose(np.sum(grad * direction), (up - down) / (2 * eps),
                               rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", ["mape", "msle", "kld", "logcosh", "huber", "hinge",
                                  "binary_focal_crossentropy", "CategoricalFocalCrossentropy",
                                  "Poisson", "CosineSimilarity"])
def test_names_resolve(name):
    assert losses.get(name) is not None


def test_configs_round_trip():
    for loss in (losses.Huber(delta=0.3), losses.CosineSimilarity(axis=0),
                 losses.BinaryFocalCrossentropy(apply_class_balancing=True, gamma=3.0),
                 losses.CategoricalFocalCrossentropy(alpha=0.5), losses.KLDivergence(),
                 losses.MeanAbsolutePercentageError(reduction="sum")):
        rebuilt = losses.deserialize(losses.serialize(loss))
        assert type(rebuilt) is type(loss) and rebuilt.get_config() == loss.get_config()
