"""Optimizers do their arithmetic through the backend's fused update ops, in place.

The update rules themselves are checked in
`tests/backend/test_ops_optimizer_updates.py` (against plain-numpy
transcriptions) and against Keras in `test_keras_golden.py`.
"""

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable
from tests.helpers.recording_backend import recording_update_ops

# optimizer, the op its update_step runs
OPTIMIZERS = [
    (lambda: optimizers.SGD(0.1), "sgd_update"),
    (lambda: optimizers.SGD(0.1, momentum=0.9), "sgd_momentum_update"),
    (lambda: optimizers.SGD(0.1, momentum=0.9, nesterov=True), "sgd_momentum_update"),
    (lambda: optimizers.Adam(0.1), "adam_update"),
    (lambda: optimizers.Adam(0.1, amsgrad=True), "amsgrad_update"),
    (lambda: optimizers.AdamW(0.1), "adam_update"),
    (lambda: optimizers.Adamax(0.1), "adamax_update"),
    (lambda: optimizers.Nadam(0.1), "nadam_update"),
    (lambda: optimizers.Lamb(0.1), "lamb_update"),
    (lambda: optimizers.ScheduleFreeAdamW(0.1), "schedule_free_adamw_update"),
    (lambda: optimizers.RMSprop(0.1), "rmsprop_update"),
    (lambda: optimizers.RMSprop(0.1, momentum=0.5, centered=True), "rmsprop_update"),
    (lambda: optimizers.Adagrad(0.1), "adagrad_update"),
    (lambda: optimizers.Adadelta(1.0), "adadelta_update"),
    (lambda: optimizers.Lion(0.1), "lion_update"),
    (lambda: optimizers.Ftrl(0.1), "ftrl_update"),
    (lambda: optimizers.Adafactor(0.1), "adafactor_update"),
]


def _variables():
    rng = np.random.default_rng(3)
    return [Variable(rng.standard_normal((3, 2)).astype(np.float32), name="kernel"),
            Variable(rng.standard_normal(2).astype(np.float32), name="bias")]


def _gradients(variables, seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(v.value.shape).astype(np.float32) for v in variables]


@pytest.mark.parametrize("make,op", OPTIMIZERS, ids=lambda x: x if isinstance(x, str) else "")
def test_update_step_runs_the_backends_update_op(make, op):
    variables = _variables()
    optimizer = make()
    with recording_update_ops() as calls:
        optimizer.apply(_gradients(variables, 0), variables)
    expected = [op] * len(variables)
    if optimizer.weight_decay:
        expected = ["weight_decay_update"] * len(variables) + expected
    assert calls == expected


@pytest.mark.parametrize("make,op", OPTIMIZERS, ids=lambda x: x if isinstance(x, str) else "")
def test_updates_write_into_the_variables_and_slots(make, op):
    variables = _variables()
    optimizer = make()
    optimizer.build(variables)
    state = variables + optimizer.variables
    arrays = [v.value for v in state]
    before = [a.copy() for a in arrays]
    for seed in range(2):
        optimizer.apply(_gradients(variables, seed), variables)
    assert all(v.value is a for v, a in zip(state, arrays)), "an update replaced an array"
    for variable, old in zip(variables, before):
        assert not np.array_equal(variable.value, old), f"{variable.name} did not move"


def test_moving_averages_and_weight_decay_are_update_ops():
    variables = _variables()
    optimizer = optimizers.SGD(0.1, weight_decay=0.01, use_ema=True)
    with recording_update_ops() as calls:
        optimizer.apply(_gradients(variables, 0), variables)
    assert calls == ["weight_decay_update"] * 2 + ["sgd_update"] * 2 + ["ema_update"] * 2


def test_a_custom_numpy_update_step_still_works():
    class HalfStep(optimizers.Optimizer):
        def update_step(self, gradient, variable, learning_rate):
            variable.value -= 0.5 * learning_rate * gradient

    w = Variable(np.array([1.0]))
    HalfStep(learning_rate=0.2).apply([np.array([1.0])], [w])
    assert w.value.tolist() == [0.9]
