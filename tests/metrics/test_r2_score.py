"""R2Score against hand computations: aggregation, adjusted R², weights, edge cases.

The worked example has two outputs over three samples:

    y_true = [[1, 0], [4, 2], [3, 4]]     y_pred = [[2, 1], [4, 2], [4, 3]]

    output 0: mean 8/3, SS_tot = 1 + 16 + 9 - 3 * (8/3)**2 = 14/3, SS_res = 1 + 0 + 1 = 2,
              R² = 1 - 2 / (14/3) = 4/7
    output 1: mean 2,   SS_tot = 4 + 0 + 4 = 8,                   SS_res = 1 + 0 + 1 = 2,
              R² = 1 - 2/8 = 3/4

uniform average (4/7 + 3/4) / 2 = 37/56; variance-weighted
(14/3 * 4/7 + 8 * 3/4) / (14/3 + 8) = 1 - 4 / (38/3) = 13/19.
"""

import json
import warnings

import numpy as np
import pytest

from hikeras import metrics

Y_TRUE = np.array([[1, 0], [4, 2], [3, 4]], dtype="float32")
Y_PRED = np.array([[2, 1], [4, 2], [4, 3]], dtype="float32")


def _r2(y_true=Y_TRUE, y_pred=Y_PRED, sample_weight=None, **kwargs):
    m = metrics.R2Score(**kwargs)
    m.update_state(y_true, y_pred, sample_weight=sample_weight)
    return m.result()


def test_class_aggregations_by_hand():
    np.testing.assert_allclose(_r2(class_aggregation=None), [4 / 7, 3 / 4], rtol=1e-6)
    assert float(_r2()) == pytest.approx(37 / 56, rel=1e-6)
    assert float(_r2(class_aggregation="variance_weighted_average")) == \
        pytest.approx(13 / 19, rel=1e-6)
    assert _r2().dtype == np.float32 and _r2(dtype="float64").dtype == np.float64


def test_single_output_and_rank_one_labels():
    # Output 0 alone, with (3,) labels against (3, 1) predictions.
    assert float(_r2(Y_TRUE[:, 0], Y_PRED[:, :1])) == pytest.approx(4 / 7, rel=1e-6)
    assert float(_r2(Y_TRUE[:, :1], Y_PRED[:, 0])) == pytest.approx(4 / 7, rel=1e-6)


def test_adjusted_r2_counts_every_label_value():
    # n = 6 values (3 samples x 2 outputs), p = 2: 1 - (1 - 37/56) * 5 / 3 = 73/168.
    r2 = 37 / 56
    assert float(_r2(num_regressors=2)) == pytest.approx(1 - (1 - r2) * 5 / 3, rel=1e-6)
    assert float(_r2(num_regressors=4)) == pytest.approx(1 - (1 - r2) * 5 / 1, rel=1e-6)
    # Per output too.
    np.testing.assert_allclose(_r2(num_regressors=2, class_aggregation=None),
                               [1 - (3 / 7) * 5 / 3, 1 - (1 / 4) * 5 / 3], rtol=1e-6)


@pytest.mark.parametrize("num_regressors, reason", [(5, "division by zero"),
                                                    (6, "more independent regressors")])
def test_adjusted_r2_falls_back_with_a_warning_when_too_few_values(num_regressors, reason):
    # n = 6: p = n - 1 would divide by zero, p > n - 1 is meaningless; plain R² instead.
    with pytest.warns(UserWarning, match=f"R2Score: .*{reason}.*num_samples=6"):
        value = _r2(num_regressors=num_regressors)
    assert float(value) == pytest.approx(37 / 56, rel=1e-6)


def test_sample_weights_per_sample_and_per_value():
    # Weight 0 on the middle sample leaves [1, 3] vs [2, 4]: mean 2, SS_tot 2, SS_res 2.
    assert float(_r2(Y_TRUE[:, :1], Y_PRED[:, :1], sample_weight=[1, 0, 1])) == \
        pytest.approx(0.0, abs=1e-6)
    # Integer weights act as repeated samples.
    repeated = _r2(np.repeat(Y_TRUE, [2, 1, 3], axis=0), np.repeat(Y_PRED, [2, 1, 3], axis=0),
                   class_aggregation=None)
    np.testing.assert_allclose(_r2(sample_weight=[2, 1, 3], class_aggregation=None),
                               repeated, rtol=1e-6)
    np.testing.assert_allclose(_r2(sample_weight=[[2], [1], [3]], class_aggregation=None),
                               repeated, rtol=1e-6)
    # Per-value weights: each output weighted on its own.
    per_value = np.array([[1, 2], [1, 1], [1, 3]], dtype="float32")
    got = _r2(sample_weight=per_value, class_aggregation=None)
    assert float(got[0]) == pytest.approx(4 / 7, rel=1e-6)
    assert float(got[1]) == pytest.approx(float(_r2(np.repeat(Y_TRUE[:, 1:], [2, 1, 3], 0),
                                                    np.repeat(Y_PRED[:, 1:], [2, 1, 3], 0))),
                                          rel=1e-6)
    with pytest.raises(ValueError, match="R2Score: `sample_weight`.*Received"):
        _r2(sample_weight=[1.0, 2.0])


def test_epoch_value_does_not_depend_on_batching():
    rng = np.random.default_rng(0)
    y = rng.normal(size=(30, 3)).astype("float32")
    p = (y + rng.normal(size=(30, 3))).astype("float32")
    w = rng.random(30).astype("float32")
    whole, pieces = metrics.R2Score(num_regressors=4), metrics.R2Score(num_regressors=4)
    whole.update_state(y, p, sample_weight=w)
    for lo, hi in ((0, 4), (4, 21), (21, 30)):
        pieces.update_state(y[lo:hi], p[lo:hi], sample_weight=w[lo:hi])
    assert float(pieces.result()) == pytest.approx(float(whole.result()), rel=1e-5)


def test_constant_labels():
    # SS_tot = 0: a nonzero residual gives -inf, which counts as 0 (Keras's rule) ...
    y = np.stack([Y_TRUE[:, 0], np.full(3, 5.0, "float32")], axis=1)
    np.testing.assert_allclose(_r2(y, Y_PRED, class_aggregation=None), [4 / 7, 0.0],
                               rtol=1e-6)
    # ... while a perfect prediction of constant labels is 0 / 0 = NaN, as in Keras.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(_r2(y, y, class_aggregation=None)[1])


@pytest.mark.parametrize("y_true, y_pred", [
    (np.zeros(3), np.zeros(3)),                  # no output axis
    (np.zeros((3, 2, 1)), np.zeros((3, 2, 1))),  # too many axes
    (np.zeros((3, 2)), np.zeros((3, 3))),        # outputs differ
])
def test_inputs_must_be_batch_by_outputs(y_true, y_pred):
    with pytest.raises(ValueError, match=r"^R2Score expects .*Received: y_true.shape="):
        metrics.R2Score().update_state(y_true, y_pred)


def test_later_batches_must_keep_the_number_of_outputs():
    m = metrics.R2Score()
    m.update_state(Y_TRUE, Y_PRED)
    with pytest.raises(ValueError, match=r"\(batch_size, 2\)"):
        m.update_state(Y_TRUE[:, :1], Y_PRED[:, :1])


@pytest.mark.parametrize("kwargs, message", [
    ({"class_aggregation": "mean"}, "Received: class_aggregation='mean'"),
    ({"num_regressors": -1}, "Received: num_regressors=-1"),
    ({"num_regressors": 1.5}, "Received: num_regressors=1.5"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=rf"^R2Score: .*{message}$"):
        metrics.R2Score(**kwargs)


def test_config_round_trip_and_names():
    m = metrics.R2Score(class_aggregation="variance_weighted_average", num_regressors=3,
                        name="fit", dtype="float64")
    config = m.get_config()
    assert config == {"name": "fit", "dtype": "float64",
                      "class_aggregation": "variance_weighted_average", "num_regressors": 3}
    assert metrics.R2Score.from_config(json.loads(json.dumps(config))).get_config() == config
    assert metrics.R2Score().get_config() == {
        "name": "r2_score", "dtype": "float32", "class_aggregation": "uniform_average",
        "num_regressors": 0}
    assert isinstance(metrics.get("r2_score"), metrics.R2Score)
    assert isinstance(metrics.get("R2Score"), metrics.R2Score)
    assert metrics.R2Score()._direction == "up"


def test_result_before_any_batch_and_reset_state():
    m = metrics.R2Score()
    assert float(m.result()) == 0.0  # Keras has no per-output state to read yet
    m.update_state(Y_TRUE, Y_PRED)
    assert [v.name for v in m.variables] == ["num_samples", "squared_sum", "sum", "residual",
                                             "count"]
    m.reset_state()
    assert all(not np.any(v.value) for v in m.variables)
    m.update_state(Y_TRUE, Y_PRED)
    assert float(m.result()) == pytest.approx(37 / 56, rel=1e-6)
    assert float(m.num_samples.value) == 6


def test_in_evaluate_alongside_the_other_new_metrics():
    import hikeras
    from hikeras import layers

    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(3)])
    model.compile(optimizer="sgd", loss="mse", metrics=[
        metrics.R2Score(), "pearson_correlation", metrics.SpecificityAtSensitivity(0.5)])
    rng = np.random.default_rng(0)
    x = rng.normal(size=(10, 3)).astype("float32")
    first = x[:, :1] > 0  # a one-hot pair keeps every row non-constant for Pearson
    y = np.concatenate([first, ~first, x[:, 1:2] > x[:, 2:]], axis=1).astype("float32")
    logs = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    pred = model.predict(x, verbose=0)
    direct = metrics.R2Score()
    direct.update_state(y, pred)
    assert logs["r2_score"] == pytest.approx(float(direct.result()), rel=1e-5)
    assert set(logs) == {"loss", "r2_score", "pearson_correlation",
                         "specificity_at_sensitivity"}
    assert all(np.isfinite(value) for value in logs.values())
