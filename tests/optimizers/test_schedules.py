"""Learning-rate schedules: Keras's values, closed forms, configs."""

import math

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable
from hikeras.optimizers import schedules
from tests.fixtures.keras_training import golden

CASES = golden()["schedules"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_schedule_matches_keras(name):
    entry = CASES[name]
    schedule = getattr(schedules, entry["class_name"])(**entry["config"])
    values = [float(schedule(step)) for step in range(len(entry["values"]))]
    np.testing.assert_allclose(values, entry["values"], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", sorted(CASES))
def test_schedule_config_round_trip(name):
    entry = CASES[name]
    schedule = getattr(schedules, entry["class_name"])(**entry["config"])
    rebuilt = schedules.deserialize(schedules.serialize(schedule))
    assert type(rebuilt) is type(schedule)
    assert rebuilt.get_config() == schedule.get_config()
    assert float(rebuilt(7)) == float(schedule(7))


def test_closed_forms():
    assert math.isclose(float(schedules.ExponentialDecay(0.1, 4, 0.5)(6)), 0.1 * 0.5 ** 1.5,
                        rel_tol=1e-6)
    assert math.isclose(float(schedules.ExponentialDecay(0.1, 4, 0.5, staircase=True)(6)),
                        0.05, rel_tol=1e-6)
    assert math.isclose(float(schedules.InverseTimeDecay(1.0, 2, 3.0)(4)), 1 / 7, rel_tol=1e-6)
    assert math.isclose(float(schedules.PolynomialDecay(1.0, 10, 0.0, power=2.0)(15)), 0.0,
                        abs_tol=1e-9)  # past decay_steps: stays at the end value
    cosine = schedules.CosineDecay(2.0, 8, alpha=0.25)
    assert math.isclose(float(cosine(4)), 2.0 * (0.75 * 0.5 + 0.25), rel_tol=1e-6)
    warm = schedules.CosineDecay(0.0, 10, warmup_target=1.0, warmup_steps=5)
    assert [round(float(warm(s)), 6) for s in (0, 1, 5, 10, 15, 30)] == \
        [0.0, 0.2, 1.0, 0.5, 0.0, 0.0]
    restarts = schedules.CosineDecayRestarts(1.0, 2, t_mul=2.0)
    # periods of 2, 4, 8 steps: restarts at steps 2 and 6
    assert [round(float(restarts(s)), 6) for s in (0, 2, 4, 6)] == [1.0, 1.0, 0.5, 1.0]


def test_invalid_arguments():
    with pytest.raises(ValueError, match="decay_steps"):
        schedules.ExponentialDecay(0.1, 0, 0.5)
    with pytest.raises(ValueError, match="boundaries"):
        schedules.PiecewiseConstantDecay([1, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="first_decay_steps"):
        schedules.CosineDecayRestarts(0.1, -1)


def test_optimizer_evaluates_schedule_at_its_iteration_count():
    schedule = schedules.PiecewiseConstantDecay([1], [1.0, 0.5])
    w = Variable(np.array([0.0], dtype="float32"))
    opt = optimizers.SGD(learning_rate=schedule)
    for _ in range(3):
        opt.apply([np.array([1.0], dtype="float32")], [w])
    # steps 0 and 1 use 1.0, step 2 uses 0.5
    np.testing.assert_allclose(w.value, [-2.5])
    assert opt.learning_rate == 0.5


def test_optimizer_with_schedule_round_trips_through_config():
    opt = optimizers.Adam(learning_rate=schedules.CosineDecay(0.01, 100, warmup_target=0.1,
                                                              warmup_steps=10))
    config = optimizers.serialize(opt)
    assert config["config"]["learning_rate"]["class_name"] == "CosineDecay"
    rebuilt = optimizers.deserialize(config)
    assert isinstance(rebuilt._learning_rate, schedules.CosineDecay)
    assert rebuilt._learning_rate.get_config() == opt._learning_rate.get_config()
    with pytest.raises(TypeError, match="schedule"):
        rebuilt.learning_rate = 0.1
