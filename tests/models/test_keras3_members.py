"""Behaviour of the Keras 3 `Layer`/`Model` members that `tests/test_keras_members.py` lists.

Expected values were read from real Keras 3.15 (TensorFlow backend) running
the same scripts, or are computed by hand where stated.
"""

import numpy as np
import pytest

import hikeras
from hikeras import layers


class _CountingModel(hikeras.Model):
    """A subclassed model whose `train_step` feeds a tracked metric 1, 2, 3, ..."""

    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(1)
        self.calls_seen = hikeras.metrics.Mean(name="calls")
        self.calls = 0

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        self.calls += 1
        self.calls_seen.update_state(float(self.calls))
        return {m.name: m.result() for m in self.metrics}


def test_a_metric_assigned_as_attribute_is_tracked_reset_each_epoch_and_logged():
    model = _CountingModel()
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(np.ones((8, 2)), np.ones((8, 1)), batch_size=2, epochs=2, verbose=0)
    # Four batches an epoch: mean(1..4) = 2.5, then after the reset mean(5..8) = 6.5
    # (without the reset it would be mean(1..8) = 4.5). Keras 3 logs the same.
    np.testing.assert_allclose(history.history["calls"], [2.5, 6.5])
    assert [m.name for m in model.metrics] == ["loss", "calls"]
    # Callbacks see Keras 3's pythonified logs: sorted keys, Python floats (the step
    # returned numpy scalars). Keras 3.15 gives {'calls': [2.5, 6.5], 'loss': [0.0, 0.0]}.
    assert list(history.history) == ["calls", "loss"]
    assert all(type(v) is float for values in history.history.values() for v in values)


class _TwoMetrics(layers.Layer):
    def __init__(self):
        super().__init__()
        self.trackers = [hikeras.metrics.Mean(name="a"), hikeras.metrics.Sum(name="b")]

    def call(self, x):
        return x


def test_a_layers_metrics_reach_the_model_and_its_variables_are_listed():
    layer = _TwoMetrics()
    assert [m.name for m in layer.metrics] == ["a", "b"]
    assert [v.path for v in layer.metrics_variables] == ["a/total", "a/count", "b/total"]
    inputs = hikeras.Input((3,))
    model = hikeras.Model(inputs, layer(inputs))
    model.compile(optimizer="sgd", loss="mse")
    assert [m.name for m in model.metrics] == ["loss", "a", "b"]


def test_compile_trackers_are_not_counted_twice():
    inputs = hikeras.Input((3,))
    model = hikeras.Model(inputs, layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    model.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
    assert [v.path for v in model.metrics_variables] == [
        "loss/total", "loss/count", "mean_absolute_error/total", "mean_absolute_error/count"]


def test_add_metric_is_refused_as_in_keras_3():
    with pytest.raises(NotImplementedError, match="compile\\(metrics"):
        layers.Dense(1).add_metric(1.0)


def test_add_variable_is_add_weight_with_keras_3s_positional_arguments():
    layer = layers.Layer(name="holder")
    variable = layer.add_variable((2, 3), "ones", name="w", trainable=False)
    assert variable.path == "holder/w" and not variable.trainable
    np.testing.assert_array_equal(variable.numpy(), np.ones((2, 3)))
    assert layer.non_trainable_weights == [variable]


def test_call_signature_parameters_and_path():
    model = hikeras.Model(*_graph())
    assert model.call_signature_parameters == ["inputs", "training", "mask"]
    dense = model.get_layer("d")
    assert dense.path == "d" and dense.kernel.path == "d/kernel"


def _graph():
    inputs = hikeras.Input((4,))
    return inputs, layers.Dense(2, name="d")(inputs)


def test_symbolic_call_records_a_node_like_calling_on_a_keras_tensor():
    dense = layers.Dense(3)
    out = dense.symbolic_call(hikeras.Input((4,)))
    assert out.shape == (None, 3)
    assert dense.output is out


def test_operations_list_the_graph_with_its_input_layer():
    model = hikeras.Model(*_graph())
    assert [type(op).__name__ for op in model.operations] == ["InputLayer", "Dense"]


def test_quantization_members_refuse_clearly():
    dense = layers.Dense(2)
    assert dense.quantization_mode is None
    with pytest.raises(NotImplementedError, match="not supported"):
        dense.quantized_call(np.ones((1, 2)))
    with pytest.raises(NotImplementedError, match="int8"):
        dense.quantized_build((None, 2), mode="int8")
    assert hikeras.Model(*_graph()).get_quantization_layer_structure("gptq") is None


def _compiled():
    model = hikeras.Model(*_graph())
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    model.fit(np.ones((4, 4)), np.ones((4, 2)), verbose=0)
    return model


def test_state_tree_groups_and_nests_by_path_as_keras():
    model = _compiled()
    tree = model.get_state_tree()
    # Keras 3.15 gives the same keys for this model.
    assert {k: list(v) for k, v in tree.items()} == {
        "trainable_variables": ["d"], "non_trainable_variables": [],
        "optimizer_variables": ["adam"],
        "metrics_variables": ["loss", "mean_absolute_error"]}
    assert sorted(tree["trainable_variables"]["d"]) == ["bias", "kernel"]
    np.testing.assert_array_equal(tree["trainable_variables"]["d"]["kernel"],
                                  model.get_layer("d").kernel.numpy())
    assert tree["metrics_variables"]["loss"]["count"] == 4.0  # samples seen, as in Keras


def test_set_state_tree_round_trips_and_refuses_unknown_paths_before_assigning():
    model = _compiled()
    tree = model.get_state_tree("numpy_array")
    kernel = tree["trainable_variables"]["d"]["kernel"]
    tree["trainable_variables"]["d"]["kernel"] = kernel + 1.0
    model.set_state_tree(tree)
    np.testing.assert_array_equal(model.get_layer("d").kernel.numpy(), kernel + 1.0)
    before = model.get_layer("d").kernel.numpy()
    bad = {"trainable_variables": {"d": {"kernel": np.zeros((4, 2))}, "nope": {"w": 1.0}}}
    with pytest.raises(ValueError, match="'nope/w'"):
        model.set_state_tree(bad)
    np.testing.assert_array_equal(model.get_layer("d").kernel.numpy(), before)
    with pytest.raises(ValueError, match="expected \\(4, 2\\)"):
        model.set_state_tree({"trainable_variables": {"d": {"kernel": np.zeros(3)}}})
    with pytest.raises(ValueError, match="value_format"):
        model.get_state_tree("jax")


def test_stateless_compute_loss_uses_the_given_values_and_leaves_the_model_alone():
    model = _compiled()
    x, y = np.ones((2, 4), "float32"), np.zeros((2, 2), "float32")
    trainable = [np.zeros(v.shape, "float32") for v in model.trainable_variables]
    trainable[0][:] = 0.5  # kernel 0.5, bias 0: every output is 4 * 0.5 = 2, loss (2 - 0)^2 = 4
    before = model.get_weights()
    y_pred = model.stateless_call(trainable, [], x)[0]
    loss, (new_trainable, new_non_trainable, _) = model.stateless_compute_loss(
        trainable, [], [np.array(0.0, "float32")] * len(model.metrics_variables),
        x=x, y=y, y_pred=y_pred)
    assert float(loss) == pytest.approx(4.0)
    np.testing.assert_array_equal(new_trainable[0], trainable[0])
    assert new_non_trainable == []
    for now, then in zip(model.get_weights(), before):
        np.testing.assert_array_equal(now, then)
    with pytest.raises(ValueError, match="metrics_variables"):
        model.stateless_compute_loss(trainable, [], [], x=x, y=y, y_pred=y_pred)


def test_train_function_runs_steps_per_execution_steps_from_an_iterator():
    reference = hikeras.Model(*_graph())
    model = hikeras.models.clone_model(reference)
    model.set_weights(reference.get_weights())
    for m, spe in ((reference, 1), (model, 2)):
        m.compile(optimizer="sgd", loss="mse", steps_per_execution=spe)
    batches = [(np.full((2, 4), i, "float32"), np.ones((2, 2), "float32")) for i in (1, 2)]
    for batch in batches:
        reference.train_on_batch(*batch)
    assert model.train_function is None
    logs = model.make_train_function()(iter(batches))
    assert model.make_train_function() is model.train_function
    for ours, theirs in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    assert "loss" in logs
    predicted = model.make_predict_function()(iter([(b[0],) for b in batches]))
    np.testing.assert_allclose(predicted, model.predict(np.concatenate([b[0] for b in batches]),
                                                        verbose=0), rtol=1e-6)


def test_compile_records_keras_flags():
    model = hikeras.Model(*_graph())
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True, jit_compile=True)
    assert model.run_eagerly is True and model.jit_compile is False
    assert model.steps_per_execution == 1 and not model.supports_jit
    with pytest.raises(ValueError, match="steps_per_execution"):
        model.compile(optimizer="sgd", loss="mse", steps_per_execution=0)
