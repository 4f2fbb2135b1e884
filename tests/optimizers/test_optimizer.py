"""The `Optimizer` base class: clipping, schedules, None gradients, errors, state."""

import math
import warnings

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Tensor, Variable
from hikeras.saving import register_keras_serializable


def var(*values, name="w"):
    return Variable(np.array(values, dtype=np.float64), name=name, path=f"layer/{name}")


def sgd_step(gradients, variables, **kwargs):
    """One plain-SGD step with learning rate 1: each variable moves by -gradient."""
    opt = optimizers.SGD(learning_rate=1.0, **kwargs)
    opt.apply(gradients, variables)
    return opt


# -- clipping -----------------------------------------------------------------

def test_clipnorm_rescales_each_gradient_separately():
    a, b = var(0.0, 0.0), var(0.0, 0.0)
    big, small = np.array([3.0, 4.0]), np.array([0.3, 0.4])  # norms 5 and 0.5
    sgd_step([big, small], [a, b], clipnorm=1.0)
    np.testing.assert_allclose(a.value, [-0.6, -0.8])
    np.testing.assert_allclose(b.value, [-0.3, -0.4])
    np.testing.assert_array_equal(big, [3.0, 4.0])  # the caller's gradient is untouched


def test_global_clipnorm_rescales_all_gradients_together():
    a, b = var(0.0, 0.0), var(0.0)
    sgd_step([np.array([3.0, 0.0]), np.array([4.0])], [a, b], global_clipnorm=1.0)
    np.testing.assert_allclose(a.value, [-0.6, 0.0])
    np.testing.assert_allclose(b.value, [-0.8])
    c = var(0.0)
    sgd_step([np.array([0.5])], [c], global_clipnorm=1.0)  # under the norm: unchanged
    np.testing.assert_allclose(c.value, [-0.5])


def test_global_clipnorm_with_infinite_norm_gives_nan():
    a, b = var(0.0), var(0.0)
    sgd_step([np.array([np.inf]), np.array([1.0])], [a, b], global_clipnorm=1.0)
    assert np.isnan(a.value).all() and np.isnan(b.value).all()


def test_clipvalue_clips_elementwise():
    a = var(0.0, 0.0, 0.0)
    sgd_step([np.array([-3.0, 0.5, 2.0])], [a], clipvalue=1.0)
    np.testing.assert_allclose(a.value, [1.0, -0.5, -1.0])


def test_only_one_clip_option():
    with pytest.raises(ValueError, match="Only one of"):
        optimizers.SGD(clipnorm=1.0, clipvalue=1.0)


# -- learning rate --------------------------------------------------------------

def test_schedule_is_called_with_the_step():
    seen = []

    def schedule(step):
        seen.append(step)
        return 0.1 / (1 + step)

    w = var(0.0)
    opt = optimizers.SGD(learning_rate=schedule)
    for _ in range(3):
        opt.apply([np.array([1.0])], [w])
    assert seen == [0, 1, 2]
    np.testing.assert_allclose(w.value, [-(0.1 + 0.05 + 0.1 / 3)])
    assert opt.learning_rate == pytest.approx(0.1 / 4)
    assert [v.name for v in opt.variables] == ["iteration"]  # no float learning-rate variable


def test_schedule_object_and_zero_argument_callable():
    class Halving:
        def __call__(self, step):
            return 1.0 / 2**step

    w = var(0.0)
    opt = optimizers.SGD(learning_rate=Halving())
    opt.apply([np.array([1.0])], [w])
    opt.apply([np.array([1.0])], [w])
    np.testing.assert_allclose(w.value, [-1.5])
    assert optimizers.SGD(learning_rate=lambda: 0.25).learning_rate == 0.25


def test_learning_rate_setter():
    w = var(0.0)
    opt = optimizers.SGD(learning_rate=0.1)
    opt.apply([np.array([1.0])], [w])
    opt.learning_rate = 0.5
    assert opt.learning_rate == 0.5
    opt.apply([np.array([1.0])], [w])
    np.testing.assert_allclose(w.value, [-0.6])
    opt.learning_rate = lambda step: 0.01
    assert [v.name for v in opt.variables] == ["iteration"]
    with pytest.raises(TypeError, match="schedule"):
        opt.learning_rate = 0.3
    with pytest.raises(ValueError, match="learning_rate"):
        optimizers.SGD(learning_rate="fast")


# -- applying -------------------------------------------------------------------

def test_none_gradients_are_skipped_with_a_warning():
    a, b = var(1.0, name="a"), var(1.0, name="b")
    opt = optimizers.SGD(learning_rate=0.5, momentum=0.9)
    with pytest.warns(UserWarning, match=r"\['b'\]"):
        opt.apply_gradients([(np.array([1.0]), a), (None, b)])
    np.testing.assert_allclose(a.value, [0.5])
    np.testing.assert_allclose(b.value, [1.0])
    assert int(opt.iterations) == 1
    with pytest.raises(ValueError, match="No gradients"):
        opt.apply([None, None], [a, b])


def test_apply_gradients_accepts_generators_and_tensors():
    variables = [var(1.0, name="a"), var(2.0, name="b")]
    grads = [Tensor(np.array([1.0])), np.array([2.0])]
    opt = optimizers.SGD(learning_rate=0.1)
    result = opt.apply_gradients((g, v) for g, v in zip(grads, variables))
    assert result is opt.iterations
    np.testing.assert_allclose([v.value[0] for v in variables], [0.9, 1.8])


def test_iterations_counts_steps():
    w = var(0.0)
    opt = optimizers.Adam()
    assert int(opt.iterations) == 0 and opt.iterations.value.dtype == np.int64
    assert not opt.iterations.trainable
    for _ in range(4):
        opt.apply([np.array([1.0])], [w])
    assert int(opt.iterations) == 4


def test_apply_without_variables_uses_the_built_ones():
    w = var(1.0)
    opt = optimizers.SGD(learning_rate=0.1)
    with pytest.raises(ValueError, match="build"):
        opt.apply([np.array([1.0])])
    opt.build([w])
    opt.apply([np.array([1.0])])
    np.testing.assert_allclose(w.value, [0.9])


def test_subset_of_built_variables_is_fine():
    a, b = var(1.0, name="a"), var(1.0, name="b")
    opt = optimizers.Adam(learning_rate=0.1)
    opt.build([a, b])
    opt.apply([np.array([1.0])], [b])  # e.g. a layer frozen after compile
    assert a.value[0] == 1.0 and b.value[0] == pytest.approx(0.9)


def test_variables_of_another_model_are_refused():
    opt = optimizers.Adam()
    opt.apply([np.array([1.0])], [var(1.0, name="first")])
    with pytest.raises(ValueError, match="Create a new optimizer"):
        opt.apply([np.array([1.0])], [var(1.0, name="second")])


def test_bad_inputs_are_refused():
    w = var(1.0, 2.0)
    with pytest.raises(ValueError, match="shape"):
        optimizers.SGD().apply([np.array([1.0])], [w])
    with pytest.raises(ValueError, match="twice"):
        optimizers.SGD().apply([np.ones(2), np.ones(2)], [w, w])
    with pytest.raises(ValueError, match="one gradient per variable"):
        optimizers.SGD().apply([np.ones(2)], [w, var(1.0)])
    with pytest.raises(TypeError, match="Variable"):
        optimizers.SGD().apply([np.ones(2)], [np.zeros(2)])


def test_weight_decay_and_exclusions():
    kernel, bias = var(1.0, name="kernel"), var(1.0, name="bias")
    opt = optimizers.SGD(learning_rate=0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_names=["bias"])
    opt.apply([np.array([0.0]), np.array([0.0])], [kernel, bias])
    np.testing.assert_allclose(kernel.value, [1.0 - 1.0 * 0.5 * 0.1])
    np.testing.assert_allclose(bias.value, [1.0])


def test_loss_scale_factor_is_undone_on_gradients():
    w = var(0.0)
    opt = optimizers.SGD(learning_rate=1.0, loss_scale_factor=8.0)
    assert opt.scale_loss(2.0) == 16.0
    opt.apply([np.array([8.0])], [w])
    np.testing.assert_allclose(w.value, [-1.0])


# -- state and config -------------------------------------------------------------

def test_saved_state_resumes_identically():
    grads = [np.array([0.3, -1.0]), np.array([2.0, 0.1]), np.array([-0.5, 0.5])]
    original, w = optimizers.Adam(learning_rate=0.1), var(1.0, 2.0)
    original.apply([grads[0]], [w])
    store = {}
    original.save_own_variables(store)
    assert sorted(store) == ["0", "1", "2", "3"]

    copy_w = var(*w.value)
    resumed = optimizers.Adam(learning_rate=0.1)
    resumed.build([copy_w])
    resumed.load_own_variables(store)
    assert int(resumed.iterations) == 1
    for g in grads[1:]:
        original.apply([g], [w])
        resumed.apply([g], [copy_w])
    np.testing.assert_array_equal(copy_w.value, w.value)


def test_set_weights_checks_counts_and_shapes():
    opt = optimizers.SGD(momentum=0.5)
    with pytest.raises(ValueError, match="build"):
        opt.set_weights([])
    opt.build([var(1.0, 2.0)])
    with pytest.raises(ValueError, match="3 arrays"):
        opt.set_weights([np.array(0)])
    with pytest.raises(ValueError, match="shape"):
        opt.set_weights([np.array(0), np.array(0.1), np.zeros(3)])


def test_keras_only_arguments():
    assert optimizers.SGD(use_ema=False, ema_momentum=0.99, jit_compile=True).momentum == 0.0
    with pytest.raises(ValueError, match="ema_momentum"):
        optimizers.SGD(use_ema=True, ema_momentum=1.5)
    with pytest.raises(ValueError, match="ema_overwrite_frequency"):
        optimizers.SGD(use_ema=True, ema_overwrite_frequency=0)
    with pytest.raises(ValueError, match="gradient_accumulation_steps"):
        optimizers.SGD(gradient_accumulation_steps=1)
    with pytest.raises(ValueError, match="not recognized"):
        optimizers.SGD(momentun=0.9)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        optimizers.SGD(decay=0.1)
    assert any("decay" in str(w.message) for w in caught)


def test_registered_schedule_round_trips_through_config():
    @register_keras_serializable(package="test_optimizer")
    class InverseTime:
        def __init__(self, initial, rate):
            self.initial, self.rate = initial, rate

        def __call__(self, step):
            return self.initial / (1 + self.rate * step)

        def get_config(self):
            return {"initial": self.initial, "rate": self.rate}

    opt = optimizers.SGD(learning_rate=InverseTime(0.1, 1.0))
    config = optimizers.serialize(opt)
    assert config["config"]["learning_rate"]["config"] == {"initial": 0.1, "rate": 1.0}
    rebuilt = optimizers.deserialize(config)
    assert isinstance(rebuilt._learning_rate, InverseTime)
    assert math.isclose(rebuilt.learning_rate, 0.1)


def test_optimizer_applies_variable_constraints_in_custom_loops():
    import numpy as np

    import hikeras
    from hikeras import layers

    layer = layers.Dense(2, kernel_constraint=hikeras.constraints.NonNeg())
    layer(np.ones((1, 3), "float32"))
    optimizer = hikeras.optimizers.SGD(1.0)
    with hikeras.GradientTape() as tape:
        loss = hikeras.ops.sum(layer(np.ones((1, 3), "float32")))
    grads = tape.gradient(loss, layer.trainable_weights)
    optimizer.apply_gradients(zip(grads, layer.trainable_weights))
    # Each kernel entry dropped by 1.0; NonNeg clipped the negatives to 0.
    assert layer.kernel.numpy().min() == 0.0
    assert layer.kernel.constraint is not None and layer.bias.constraint is None
