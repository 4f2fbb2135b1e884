"""The executor: Kahn scheduling and reverse-mode differentiation through tapes."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, Tensor, Variable, apply, kahn_order


class RecordingTape(GradientTape):
    """A tape that also keeps the nodes it recorded, to inspect them afterwards."""

    def __init__(self, persistent=False):
        super().__init__(persistent=persistent)
        self.seen = []

    def record(self, node):
        super().record(node)
        self.seen.append(node)


def test_kahn_order_schedules_a_diamond():
    parents = {"a": [], "b": ["a"], "c": ["a"], "d": ["b", "c"]}
    order = kahn_order(["d", "c", "b", "a"], parents.__getitem__)
    assert order[0] == "a" and order[-1] == "d"
    assert set(order[1:3]) == {"b", "c"}


def test_kahn_order_ignores_parents_outside_the_graph():
    assert kahn_order(["x", "y"], {"x": ["outside"], "y": ["x"]}.__getitem__) == ["x", "y"]


def test_kahn_order_rejects_a_cycle():
    parents = {"a": ["c"], "b": ["a"], "c": ["b"], "d": []}
    with pytest.raises(ValueError, match="cycle"):
        kahn_order(list(parents), parents.__getitem__)


def test_backward_releases_saved_arrays_of_a_non_persistent_tape():
    x = np.array([0.5, -1.0, 2.0])
    with RecordingTape() as tape:
        tape.watch(x)
        y = apply("exp", x)
        z = apply("sum", apply("multiply", y, y))
    assert all(node.outputs is not None for node in tape.seen)
    np.testing.assert_allclose(tape.gradient(z, x), 2 * np.exp(2 * x))
    for node in tape.seen:
        assert node.inputs is None and node.outputs is None and node.residual is None
    with pytest.raises(RuntimeError, match="persistent"):
        tape.gradient(z, x)


def test_persistent_tape_computes_gradients_twice():
    x = np.array([1.0, 2.0, 3.0])
    with RecordingTape(persistent=True) as tape:
        tape.watch(x)
        y = apply("sum", apply("log", x))
        z = apply("sum", apply("square", x))
    np.testing.assert_allclose(tape.gradient(y, x), 1 / x)
    np.testing.assert_allclose(tape.gradient(z, x), 2 * x)
    np.testing.assert_allclose(tape.gradient(y, x), 1 / x)
    assert all(node.inputs is not None for node in tape.seen if node.op.save_inputs)


def test_unconnected_gradients_none_or_zero():
    x, unused = np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0])
    with GradientTape(persistent=True) as tape:
        tape.watch([x, unused])
        y = apply("sum", x)
    gx, gu = tape.gradient(y, [x, unused])
    np.testing.assert_array_equal(gx, [1.0, 1.0])
    assert gu is None
    gx, gu = tape.gradient(y, [x, unused], unconnected_gradients="zero")
    np.testing.assert_array_equal(gu, np.zeros(3))
    assert tape.gradient(np.float64(1.0), x) is None  # a target not computed on the tape


def test_watch_numpy_arrays_and_tensors():
    array = np.array([1.0, 2.0])
    tensor = Tensor(np.array([3.0, 4.0]))
    assert not tensor.tracked
    with GradientTape() as tape:
        tape.watch([array, tensor])
        y = apply("sum", apply("multiply", array, tensor))
    assert tensor.tracked
    g_array, g_tensor = tape.gradient(y, [array, tensor])
    np.testing.assert_array_equal(g_array, tensor.value)
    np.testing.assert_array_equal(g_tensor, array)
    with pytest.raises(TypeError, match="Received"):
        GradientTape().watch([1.0])


def test_variables_are_tracked_without_watch_and_frozen_ones_are_not():
    trainable, frozen = Variable([1.0, 2.0]), Variable([3.0, 4.0], trainable=False)
    with GradientTape() as tape:
        y = apply("sum", apply("multiply", trainable, frozen))
    g_trainable, g_frozen = tape.gradient(y, [trainable, frozen])
    np.testing.assert_array_equal(g_trainable, [3.0, 4.0])
    assert g_frozen is None


def test_a_shared_input_accumulates_gradients():
    x = np.array([1.0, -2.0, 3.0])
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = apply("sum", apply("multiply", x, x))
        # x reaches the target along three paths of different lengths
        z = apply("sum", apply("add", apply("add", x, apply("exp", x)), x))
    np.testing.assert_allclose(tape.gradient(y, x), 2 * x)
    np.testing.assert_allclose(tape.gradient(z, x), 2 + np.exp(x))


def test_gradients_of_a_multi_output_op_with_one_unused_output():
    x = np.arange(6.0)
    with GradientTape() as tape:
        tape.watch(x)
        first, _, third = apply("split", x, indices_or_sections=3)
        y = apply("sum", apply("multiply", first, third))
    np.testing.assert_array_equal(tape.gradient(y, x), [4, 5, 0, 0, 0, 1])


def test_output_gradients_seed_and_returned_gradients_are_writable():
    x = np.ones((2, 3))
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("mean", x, axis=1)  # its VJP returns a broadcast view
    g = tape.gradient(y, x, output_gradients=np.array([3.0, 6.0]))
    np.testing.assert_allclose(g, [[1, 1, 1], [2, 2, 2]])
    g *= 2  # optimizers may scale gradients in place


def test_ops_outside_a_tape_return_plain_arrays():
    out = apply("sum", apply("exp", np.zeros(3)))
    assert not isinstance(out, Tensor) and float(out) == 3.0
    with GradientTape() as tape:
        tape.watch(x := np.zeros(2))
        tracked = apply("sum", x)
    assert isinstance(tracked, Tensor) and isinstance(tracked.value, np.ndarray)
    assert np.asarray(tracked).shape == ()


def test_sources_never_share_a_gradient_array():
    a, b = np.ones(3), np.ones(3)
    with GradientTape() as tape:
        tape.watch([a, b])
        y = apply("add", a, b)  # its VJP hands the same array to both inputs
    ga, gb = tape.gradient(y, [a, b])
    ga *= 5
    np.testing.assert_array_equal(gb, np.ones(3))
