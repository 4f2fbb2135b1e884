"""SensitivityAtSpecificity & co. against hand counts; arguments, config and reset.

The worked example: labels `Y = [0, 0, 0, 1, 1]`, scores `S = [0, .3, .8, .3, .8]`,
and with `num_thresholds=3` the thresholds 0, 0.5 and 1 (a score counts as
positive when it is strictly above):

    threshold   tp fp tn fn   sensitivity  specificity  precision
    0           2  2  1  0    1            1/3          1/2   (S = 0 is not > 0)
    0.5         1  1  2  1    1/2          2/3          1/2
    1           0  0  3  2    0            1            0     (nothing predicted)
"""

import json

import numpy as np
import pytest

from hikeras import metrics

Y = np.array([0, 0, 0, 1, 1], dtype="float32")
S = np.array([0.0, 0.3, 0.8, 0.3, 0.8], dtype="float32")

CLASSES = [metrics.SensitivityAtSpecificity, metrics.SpecificityAtSensitivity,
           metrics.PrecisionAtRecall, metrics.RecallAtPrecision]
ARGUMENTS = {metrics.SensitivityAtSpecificity: "specificity",
             metrics.SpecificityAtSensitivity: "sensitivity",
             metrics.PrecisionAtRecall: "recall", metrics.RecallAtPrecision: "precision"}


def _result(cls, value, **kwargs):
    m = cls(value, **kwargs)
    m.update_state(Y, S)
    return float(m.result())


@pytest.mark.parametrize("num_thresholds", [3, 200])
@pytest.mark.parametrize("cls, value, expected", [
    # specificity >= 0.5 at thresholds 0.5 and 1: best sensitivity max(1/2, 0)
    (metrics.SensitivityAtSpecificity, 0.5, 0.5),
    (metrics.SensitivityAtSpecificity, 0.3, 1.0),       # every threshold qualifies
    # sensitivity >= 0.5 at thresholds 0 and 0.5: best specificity max(1/3, 2/3)
    (metrics.SpecificityAtSensitivity, 0.5, 2 / 3),
    (metrics.SpecificityAtSensitivity, 1.0, 1 / 3),     # only threshold 0
    (metrics.PrecisionAtRecall, 0.5, 0.5),              # recall >= 0.5 at 0 and 0.5
    (metrics.RecallAtPrecision, 0.5, 1.0),              # precision 1/2 at 0 and 0.5
    (metrics.RecallAtPrecision, 0.6, 0.0),              # precision never reaches 0.6
])
def test_by_hand(cls, value, expected, num_thresholds):
    # With 200 thresholds the scores fall between the same counts as with 3.
    assert _result(cls, value, num_thresholds=num_thresholds) == pytest.approx(expected)


def test_sample_weights():
    # weights [1, 1, 2, 2, 1]: at threshold 0.5, tp = 1 (item 4), fn = 2 (item 3),
    # tn = 2 (items 0, 1), fp = 2 (item 2): specificity 2/4 qualifies, sensitivity 1/3.
    w = np.array([1, 1, 2, 2, 1], dtype="float32")
    m = metrics.SensitivityAtSpecificity(0.5, num_thresholds=3)
    m.update_state(Y, S, sample_weight=w)
    assert float(m.result()) == pytest.approx(1 / 3)
    # A zero weight removes a sample: without item 2, threshold 0.5 has no false
    # positive, so precision 1 at recall 1/2.
    m = metrics.PrecisionAtRecall(0.5, num_thresholds=3)
    m.update_state(Y, S, sample_weight=[1, 1, 0, 1, 1])
    assert float(m.result()) == pytest.approx(1.0)


def test_one_threshold_is_one_half():
    m = metrics.SpecificityAtSensitivity(0.5, num_thresholds=1)
    assert m.thresholds == [0.5]
    m.update_state(Y, S)
    assert float(m.result()) == pytest.approx(2 / 3)  # the 0.5 row of the table


def test_thresholds_are_evenly_spaced_with_exact_ends():
    m = metrics.PrecisionAtRecall(0.5, num_thresholds=5)
    assert m.thresholds == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert metrics.RecallAtPrecision(0.5, num_thresholds=2).thresholds == [0.0, 1.0]
    assert len(metrics.RecallAtPrecision(0.5).thresholds) == 200


def test_class_id_uses_one_column():
    y = np.stack([1 - Y, Y], axis=1)
    s = np.stack([1 - S, S], axis=1)
    m = metrics.SensitivityAtSpecificity(0.5, num_thresholds=3, class_id=1)
    m.update_state(y, s)
    assert float(m.result()) == pytest.approx(0.5)  # column 1 is the worked example
    with pytest.raises(ValueError, match="class_id"):
        metrics.SensitivityAtSpecificity(0.5, class_id=1).update_state(Y, S)


@pytest.mark.parametrize("cls", CLASSES)
def test_epoch_value_does_not_depend_on_batching(cls):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 40).astype("float32")
    s = np.clip(0.5 * y + 0.7 * rng.random(40), 0, 1).astype("float32")
    w = rng.random(40).astype("float32")
    whole, pieces = cls(0.6), cls(0.6)
    whole.update_state(y, s, sample_weight=w)
    for lo, hi in ((0, 9), (9, 25), (25, 40)):
        pieces.update_state(y[lo:hi], s[lo:hi], sample_weight=w[lo:hi])
    assert float(pieces.result()) == pytest.approx(float(whole.result()), rel=1e-6)
    assert 0.0 < float(whole.result()) <= 1.0


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("value", [-0.1, 1.5, None, "0.5", True])
def test_constraint_outside_zero_one_is_rejected(cls, value):
    argument = ARGUMENTS[cls]
    with pytest.raises(ValueError, match=rf"^{cls.__name__}: .*`{argument}`.*"
                                         rf"Received: {argument}=.*$"):
        cls(value)


@pytest.mark.parametrize("num_thresholds", [0, -3, 2.5])
def test_num_thresholds_must_be_a_positive_integer(num_thresholds):
    with pytest.raises(ValueError, match=r"^RecallAtPrecision: .*num_thresholds.* "
                                         rf"Received: num_thresholds={num_thresholds}$"):
        metrics.RecallAtPrecision(0.5, num_thresholds=num_thresholds)


@pytest.mark.parametrize("cls", CLASSES)
def test_config_round_trip_and_names(cls):
    argument = ARGUMENTS[cls]
    m = cls(0.25, num_thresholds=17, class_id=2, name="custom", dtype="float64")
    config = m.get_config()
    assert config == {"name": "custom", "dtype": "float64", "class_id": 2,
                      "num_thresholds": 17, argument: 0.25}
    rebuilt = cls.from_config(json.loads(json.dumps(config)))
    assert rebuilt.get_config() == config and len(rebuilt.thresholds) == 17
    again = metrics.deserialize(metrics.serialize(m))
    assert type(again) is cls and again.get_config() == config
    default = cls(0.5)
    assert metrics.ALL_OBJECTS_DICT[default.name] is cls  # snake_case name resolves
    assert metrics.ALL_OBJECTS_DICT[cls.__name__] is cls
    assert default.get_config()["num_thresholds"] == 200 and default.class_id is None
    assert getattr(default, argument) == 0.5 and default._direction == "up"


@pytest.mark.parametrize("cls", CLASSES)
def test_reset_state(cls):
    m = cls(0.0, num_thresholds=3)
    m.update_state(Y, S)
    assert float(m.result()) > 0
    m.reset_state()
    assert all(not np.any(v.value) for v in m.variables) and len(m.variables) == 4
    assert float(m.result()) == 0.0
    m.update_state(Y, S)
    fresh = cls(0.0, num_thresholds=3)
    fresh.update_state(Y, S)
    assert float(m.result()) == float(fresh.result())
