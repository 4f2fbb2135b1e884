"""`name_scope`, `SymbolicScope` and `StatelessScope`: behaviour beyond the Keras records."""

import numpy as np
import pytest

import hikeras
from hikeras import layers, ops
from hikeras.scopes import current_path, in_stateless_scope, in_symbolic_scope


def test_name_scope_is_left_on_exceptions_and_rejects_bad_names():
    with pytest.raises(RuntimeError), hikeras.name_scope("broken"):
        raise RuntimeError("boom")
    assert current_path() == ""
    for bad in ("", "a/b", 3):
        with pytest.raises(ValueError, match="Received: name="):
            hikeras.name_scope(bad)


def test_name_scope_prefix_survives_a_models_renaming():
    with hikeras.name_scope("encoder"):
        model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2)])
    assert [v.path for v in model.weights] == ["encoder/dense/kernel", "encoder/dense/bias"]


def test_symbolic_scope_is_active_while_a_layer_is_traced():
    seen = []

    class Probe(layers.Layer):
        def call(self, x):
            seen.append(in_symbolic_scope())
            return x

    probe = Probe()
    probe(hikeras.Input((2,)))
    probe(np.ones((1, 2), "float32"))
    assert seen == [True, False]
    assert not in_symbolic_scope()


def test_stateless_scope_restores_variables_after_an_exception():
    v = hikeras.Variable(np.array([1.0, 2.0]), name="v")
    with pytest.raises(RuntimeError), hikeras.StatelessScope(state_mapping=[(v, np.zeros(2))]):
        v.assign(np.array([9.0, 9.0]))
        raise RuntimeError("boom")
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    assert not in_stateless_scope()


def test_nested_stateless_scopes_keep_their_own_writes():
    v = hikeras.Variable(np.array([1.0]), name="v")
    with hikeras.StatelessScope(state_mapping=[(v, np.array([5.0]))]) as outer:
        with hikeras.StatelessScope() as inner:
            v.assign_add(np.array([1.0]))
            assert v.numpy().tolist() == [6.0]
        assert v.numpy().tolist() == [5.0]
    assert inner.get_current_value(v).tolist() == [6.0]
    assert outer.get_current_value(v).tolist() == [5.0]
    assert v.numpy().tolist() == [1.0]


def test_stateless_scope_holds_gradients_with_respect_to_mapped_variables():
    v = hikeras.Variable(np.array([1.0, 2.0], "float32"), name="v")
    with hikeras.StatelessScope(state_mapping=[(v, np.array([3.0, 4.0], "float32"))]):
        with hikeras.GradientTape() as tape:
            loss = ops.sum(ops.square(v))
        grad = tape.gradient(loss, v)
    np.testing.assert_allclose(np.asarray(grad), [6.0, 8.0])


def test_stateless_scope_bad_arguments_name_what_was_received():
    v = hikeras.Variable(np.ones(2), name="v")
    with pytest.raises(ValueError, match=r"'v' of shape \(2,\).*Received: value.shape=\(3,\)"):
        hikeras.StatelessScope(state_mapping=[(v, np.zeros(3))])
    with pytest.raises(ValueError, match="must be Variable instances. Received: 1"):
        hikeras.StatelessScope(state_mapping=[(1, np.zeros(3))])
    scope = hikeras.StatelessScope()
    with scope, pytest.raises(RuntimeError, match="already active"), scope:
        pass


def test_stateless_call_leaves_a_model_and_its_optimizer_free_variables_untouched(rng):
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2),
                                layers.BatchNormalization()])
    before = model.get_weights()
    trainable = [rng.normal(size=v.shape).astype("float32") for v in model.trainable_variables]
    non_trainable = [np.abs(rng.normal(size=v.shape)).astype("float32")
                     for v in model.non_trainable_variables]
    x = rng.normal(size=(4, 3)).astype("float32")
    out, new = model.stateless_call(trainable, non_trainable, x, training=True)
    for a, b in zip(model.get_weights(), before):
        np.testing.assert_array_equal(a, b)
    model.set_weights(trainable + non_trainable)
    np.testing.assert_allclose(np.asarray(out), np.asarray(model(x, training=True)), rtol=1e-6)
    for a, b in zip(new, model.non_trainable_variables):
        np.testing.assert_allclose(a, b.numpy(), rtol=1e-6)
