"""Every optimizer: defaults, configs, saved state; EMA and gradient accumulation."""

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable

ALL = [optimizers.SGD, optimizers.Adam, optimizers.AdamW, optimizers.Adamax,
       optimizers.Nadam, optimizers.RMSprop, optimizers.Adagrad, optimizers.Adadelta,
       optimizers.Ftrl, optimizers.Lion, optimizers.Lamb, optimizers.Adafactor,
       optimizers.ScheduleFreeAdamW]


def variables(seed=0):
    rng = np.random.default_rng(seed)
    return [Variable(rng.normal(size=(3, 2)).astype("float32"), name="kernel",
                     path="dense/kernel"),
            Variable(rng.normal(size=(2,)).astype("float32"), name="bias", path="dense/bias")]


def gradients(step):
    rng = np.random.default_rng(100 + step)
    return [rng.normal(size=(3, 2)).astype("float32"), rng.normal(size=(2,)).astype("float32")]


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_names_resolve_and_configs_round_trip(cls):
    opt = optimizers.get(cls.__name__.lower())
    assert type(opt) is cls
    config = opt.get_config()
    rebuilt = cls.from_config(config)
    assert rebuilt.get_config() == config
    assert type(optimizers.deserialize(optimizers.serialize(opt))) is cls


def test_keras_3_defaults():
    assert optimizers.Adam().epsilon == 1e-7
    assert optimizers.RMSprop().get_config()["rho"] == 0.9
    assert optimizers.AdamW().weight_decay == 0.004
    assert optimizers.Adagrad().initial_accumulator_value == 0.1
    assert optimizers.Adadelta().rho == 0.95
    assert optimizers.Lion().beta_2 == 0.99
    assert (optimizers.Lamb().beta_1, optimizers.Lamb().beta_2) == (0.9, 0.999)
    assert optimizers.Lamb().epsilon == 1e-7
    assert optimizers.Ftrl().learning_rate_power == -0.5
    assert optimizers.Adafactor().get_config()["beta_2_decay"] == -0.8
    assert optimizers.ScheduleFreeAdamW().epsilon == 1e-8
    assert optimizers.SGD().learning_rate == 0.01
    assert optimizers.ScheduleFreeAdamW().learning_rate == 0.0025
    for cls in ALL[1:]:
        if cls is not optimizers.ScheduleFreeAdamW:
            assert cls().learning_rate == 0.001, cls.__name__


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_saved_state_resumes_exactly(cls):
    """Six steps in one go equal three steps, save, restore into a new optimizer, three more."""
    kwargs = {"momentum": 0.9} if cls is optimizers.SGD else {}
    straight, resumed = variables(), variables()
    opt = cls(learning_rate=0.05, **kwargs)
    for step in range(6):
        opt.apply(gradients(step), straight)
    first = cls(learning_rate=0.05, **kwargs)
    for step in range(3):
        first.apply(gradients(step), resumed)
    store = {}
    first.save_own_variables(store)
    second = cls(learning_rate=0.05, **kwargs)
    second.build(resumed)
    second.load_own_variables(store)
    for step in range(3, 6):
        second.apply(gradients(step), resumed)
    for a, b in zip(straight, resumed):
        np.testing.assert_array_equal(a.value, b.value)


def test_variables_are_listed_in_keras_order():
    opt = optimizers.Adam(use_ema=True, gradient_accumulation_steps=2)
    opt.build(variables())
    assert [v.name for v in opt.variables] == [
        "iteration", "learning_rate", "dense_kernel_average", "dense_bias_average",
        "dense_kernel_gradient_accumulator", "dense_bias_gradient_accumulator",
        "dense_kernel_momentum", "dense_kernel_velocity", "dense_bias_momentum",
        "dense_bias_velocity"]
    nadam = optimizers.Nadam()
    nadam.build(variables())
    assert nadam.variables[-1].name == "u_product"


def test_ema_is_the_exponential_average_of_the_iterates():
    w = Variable(np.array([0.0]))
    opt = optimizers.SGD(learning_rate=1.0, use_ema=True, ema_momentum=0.5)
    iterates = []
    for g in (1.0, 2.0, 4.0):
        opt.apply([np.array([g])], [w])
        iterates.append(float(w.value[0]))
    assert iterates == [-1.0, -3.0, -7.0]
    # the first step copies, then average = 0.5 * average + 0.5 * w
    expected = 0.5 * (0.5 * -1.0 + 0.5 * -3.0) + 0.5 * -7.0
    opt.finalize_variable_values([w])
    assert float(w.value[0]) == expected


def test_ema_overwrite_frequency_writes_averages_into_the_variables():
    w = Variable(np.array([0.0]))
    opt = optimizers.SGD(learning_rate=1.0, use_ema=True, ema_momentum=0.5,
                         ema_overwrite_frequency=2)
    opt.apply([np.array([1.0])], [w])
    assert float(w.value[0]) == -1.0
    opt.apply([np.array([2.0])], [w])  # w=-3, average=-2, written back on step 2
    assert float(w.value[0]) == -2.0


def test_gradient_accumulation_updates_every_n_calls_with_the_mean():
    w = Variable(np.array([1.0]))
    opt = optimizers.SGD(learning_rate=0.1, gradient_accumulation_steps=3)
    for g in (1.0, 2.0):
        opt.apply([np.array([g])], [w])
        assert float(w.value[0]) == 1.0
    assert int(opt.iterations) == 0
    opt.apply([np.array([6.0])], [w])
    np.testing.assert_allclose(w.value, [1.0 - 0.1 * 3.0])
    assert int(opt.iterations) == 1
    assert all(not acc.value.any() for acc in opt._accumulators)


def test_accumulated_adam_equals_adam_on_mean_gradients():
    accumulated, plain = variables(), variables()
    opt_acc = optimizers.Adam(learning_rate=0.01, gradient_accumulation_steps=2)
    opt = optimizers.Adam(learning_rate=0.01)
    for step in range(0, 6, 2):
        g1, g2 = gradients(step), gradients(step + 1)
        opt_acc.apply(g1, accumulated)
        opt_acc.apply(g2, accumulated)
        opt.apply([(a + b) / 2 for a, b in zip(g1, g2)], plain)
    for a, b in zip(accumulated, plain):
        np.testing.assert_allclose(a.value, b.value, rtol=1e-6)


def test_adamw_requires_weight_decay_and_decays_before_the_update():
    with pytest.raises(ValueError, match="weight_decay"):
        optimizers.AdamW(weight_decay=None)
    w = Variable(np.array([2.0]))
    optimizers.AdamW(learning_rate=0.1, weight_decay=0.5).apply([np.array([1.0])], [w])
    # decay: 2 - 2 * 0.05 = 1.9; first Adam step moves by ~lr
    np.testing.assert_allclose(w.value, [1.9 - 0.1], rtol=1e-6)


def test_argument_validation():
    with pytest.raises(ValueError, match="beta_1"):
        optimizers.Lion(beta_1=0.0)
    with pytest.raises(ValueError, match="learning_rate_power"):
        optimizers.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="l1_regularization_strength"):
        optimizers.Ftrl(l1_regularization_strength=-1.0)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_float64_variables_stay_float64(cls):
    w = Variable(np.array([0.5, -0.25]))
    opt = cls(learning_rate=0.1)
    opt.apply([np.array([0.3, -0.7])], [w])
    assert w.value.dtype == np.float64
    assert np.all(np.isfinite(w.value))
