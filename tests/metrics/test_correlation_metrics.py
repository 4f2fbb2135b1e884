"""Pearson and concordance correlation: functions and metrics, by hand.

Worked example for the concordance coefficient: `y_true = [1, 2, 3]`,
`y_pred = [2, 3, 4]` (a shift by one). Means 2 and 3, population variances
2/3 and 2/3, covariance 2/3, so `2 * (2/3) / (2/3 + 2/3 + (2 - 3)**2) = 4/7`,
while Pearson's coefficient is 1 (the shift keeps the points on a line).
"""

import json

import numpy as np
import pytest

from hikeras import metrics

BASE = np.array([1.0, 2.0, 3.0], dtype="float32")


def test_pearson_by_hand():
    y_true = np.stack([BASE, BASE, BASE])
    y_pred = np.stack([2 * BASE, 4 - BASE, BASE + 1])  # scaled, reversed, shifted
    np.testing.assert_allclose(metrics.pearson_correlation(y_true, y_pred), [1, -1, 1],
                               rtol=1e-6)
    # [1, 2, 3] against [1, 3, 2]: centred [-1, 0, 1] and [-1, 1, 0], covariance 1/3,
    # variances 2/3: (1/3) / (2/3) = 1/2.
    assert float(metrics.pearson_correlation(BASE, np.array([1.0, 3.0, 2.0]))) == \
        pytest.approx(0.5)


def test_concordance_by_hand():
    y_true = np.stack([BASE, BASE, BASE])
    y_pred = np.stack([BASE, BASE + 1, 2 * BASE])
    # 2 * BASE: means 2 and 4, variances 2/3 and 8/3, covariance 4/3:
    # 2 * (4/3) / (2/3 + 8/3 + 4) = (8/3) / (22/3) = 4/11.
    np.testing.assert_allclose(metrics.concordance_correlation(y_true, y_pred),
                               [1, 4 / 7, 4 / 11], rtol=1e-5)


def test_functions_match_keras_docstring_values():
    y_true = [[0, 1, 0.5], [1, 1, 0.2]]
    y_pred = [[0.1, 0.9, 0.5], [1, 0.9, 0.2]]
    np.testing.assert_allclose(metrics.pearson_correlation(y_true, y_pred),
                               [1.0, 0.99339927], rtol=1e-6)
    np.testing.assert_allclose(metrics.concordance_correlation(y_true, y_pred),
                               [0.97560976, 0.98765432], rtol=1e-6)


def test_axis_and_tuple_axis():
    y_true = np.stack([BASE, 2 * BASE], axis=1)       # (3, 2): correlate down the batch
    y_pred = np.stack([BASE, 4 - BASE], axis=1)
    np.testing.assert_allclose(metrics.pearson_correlation(y_true, y_pred, axis=0), [1, -1],
                               rtol=1e-6)
    cube_true, cube_pred = y_true[None], y_pred[None]  # (1, 3, 2): both axes at once
    for axis in ((1, 2), [1, 2]):                      # a list as JSON gives it back
        np.testing.assert_allclose(
            metrics.pearson_correlation(cube_true, cube_pred, axis=axis),
            np.corrcoef(y_true.ravel(), y_pred.ravel())[0, 1:], rtol=1e-5)


def test_constant_values():
    # Pearson's coefficient is undefined (NaN, as in Keras); the concordance one is 0
    # for a constant prediction thanks to its epsilon, and 1 when both are the same.
    ones = np.ones((1, 3), dtype="float32")
    assert np.isnan(metrics.pearson_correlation(ones, BASE[None])[0])
    assert float(metrics.concordance_correlation(BASE[None], ones)[0]) == 0.0
    assert float(metrics.concordance_correlation(BASE[None], BASE[None])[0]) == \
        pytest.approx(1.0)


@pytest.mark.parametrize("cls, fn", [(metrics.PearsonCorrelation, metrics.pearson_correlation),
                                     (metrics.ConcordanceCorrelation,
                                      metrics.concordance_correlation)])
def test_metric_is_the_weighted_mean_of_per_sample_values(cls, fn):
    rng = np.random.default_rng(0)
    y = rng.normal(size=(10, 4)).astype("float32")
    p = (y + rng.normal(size=(10, 4))).astype("float32")
    w = rng.random(10).astype("float32")
    m = cls()
    m.update_state(y[:6], p[:6], sample_weight=w[:6])
    m.update_state(y[6:], p[6:], sample_weight=w[6:])
    assert float(m.result()) == pytest.approx(np.average(fn(y, p), weights=w), rel=1e-5)


def test_metric_by_hand_with_weights():
    # Per-sample concordance 1 and 4/7, weighted 1 and 3: (1 + 12/7) / 4 = 19/28.
    m = metrics.ConcordanceCorrelation()
    m.update_state(np.stack([BASE, BASE]), np.stack([BASE, BASE + 1]), sample_weight=[1, 3])
    assert float(m.result()) == pytest.approx(19 / 28, rel=1e-5)


@pytest.mark.parametrize("cls", [metrics.PearsonCorrelation, metrics.ConcordanceCorrelation])
def test_config_names_and_reset(cls):
    m = cls(name="corr", dtype="float64", axis=0)
    config = m.get_config()
    assert config == {"name": "corr", "dtype": "float64", "axis": 0}
    assert cls.from_config(json.loads(json.dumps(config))).get_config() == config
    default = cls().get_config()
    assert default["axis"] == -1 and metrics.get(cls.__name__).name == default["name"]
    assert metrics.get(default["name"]).__name__ == default["name"]  # the function
    assert cls()._direction == "up"
    m.update_state(np.stack([BASE, BASE]).T, np.stack([BASE, BASE + 1]).T)
    assert float(m.result()) != 0.0
    m.reset_state()
    assert float(m.result()) == 0.0 and all(not np.any(v.value) for v in m.variables)
