"""Core ops outside `ops.numpy`: slices, scatters, `unstack`, `saturate_cast`,
`custom_gradient`, and the name coverage of the whole flat `keras.ops`."""

import numpy as np
import pytest
from hikeras.backend import GradientTape, SymbolicTensor

from hikeras import ops
from tests.helpers.keras_names import missing_names

def test_every_keras_ops_name_is_flat_in_hikeras_ops():
    """All 341 names of Keras 3.15's `keras.ops`, the core and control-flow ops included."""
    assert missing_names("keras.ops", ops, {}) == []


def test_slice_and_slice_update():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(ops.slice(x, (1, 1), (2, 2)), x[1:3, 1:3])
    np.testing.assert_array_equal(ops.slice(x, np.array([0, 2]), (3, -1)), x[:, 2:])
    out = ops.slice_update(x, (1, 2), np.full((2, 2), -1.0))
    expected = x.copy()
    expected[1:3, 2:4] = -1.0
    np.testing.assert_array_equal(out, expected)
    with pytest.raises(ValueError, match="do not fit"):
        ops.slice_update(x, (2, 3), np.zeros((2, 2)))
    assert ops.slice(SymbolicTensor((None, 4)), (0, 1), (2, 3)).shape == (2, 3)


def test_slice_update_gradients_split_between_inputs_and_updates():
    x, u = np.ones((3, 3)), np.full((1, 2), 2.0)
    with GradientTape() as tape:
        tape.watch(x)
        tape.watch(u)
        y = ops.sum(ops.multiply(ops.slice_update(x, (0, 1), u), np.arange(9.0).reshape(3, 3)))
    gx, gu = tape.gradient(y, [x, u])
    weights = np.arange(9.0).reshape(3, 3)
    expected = weights.copy()
    expected[0, 1:] = 0
    np.testing.assert_array_equal(gx, expected)
    np.testing.assert_array_equal(gu, weights[:1, 1:])


def test_scatter_and_scatter_update_follow_keras_examples():
    # keras.ops.scatter's docstring example, worked by hand.
    out = ops.scatter(np.array([[0, 0], [1, 1]]), np.array([1.0, 1.0]), (2, 2))
    np.testing.assert_array_equal(out, [[1.0, 0.0], [0.0, 1.0]])
    inputs = np.zeros((2, 3))
    out = ops.scatter_update(inputs, np.array([[0, 0], [1, 1]]), np.array([1.0, 1.0]))
    np.testing.assert_array_equal(out, [[1, 0, 0], [0, 1, 0]])
    assert inputs.sum() == 0  # never writes into its input


def test_unstack():
    x = np.arange(6.0).reshape(2, 3)
    parts = ops.unstack(x, axis=1)
    assert len(parts) == 3 and parts[2].tolist() == [2.0, 5.0]
    parts = ops.unstack(SymbolicTensor((None, 3)), num=2, axis=0)
    assert [p.shape for p in parts] == [(3,), (3,)]
    with pytest.raises(ValueError, match="num"):
        ops.unstack(SymbolicTensor((None, 3)))


def test_saturate_cast_clips_to_the_target_range():
    assert ops.saturate_cast(np.array([-5.0, 3.7, 1e12]), "uint8").tolist() == [0, 3, 255]
    out = ops.saturate_cast(np.array([3e9, -3e9], np.float32), "int32")
    assert out.tolist() == [np.iinfo(np.int32).max - 127, np.iinfo(np.int32).min]
    assert ops.saturate_cast(np.array([300], np.int32), "int8").tolist() == [127]


def test_custom_gradient_with_keyword_arguments():
    @ops.custom_gradient
    def scaled(x, scale=1.0):
        return ops.multiply(x, scale), lambda upstream: upstream * 0.0 + 7.0

    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(scaled(x, scale=3.0))
    np.testing.assert_array_equal(y, 9.0)
    np.testing.assert_array_equal(tape.gradient(y, x), [7.0, 7.0])


def test_rearrange_splits_merges_and_checks_patterns():
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(ops.rearrange(x, "b h w -> b w h"), x.transpose(0, 2, 1))
    np.testing.assert_array_equal(ops.rearrange(x, "b h (w c) -> b h w c", c=2),
                                  x.reshape(2, 3, 2, 2))
    assert ops.rearrange(SymbolicTensor((None, 3, 4)), "b h w -> b (h w)").shape == (None, 12)
    for pattern, message in [("b h -> b h", "input has 2 axes"), ("b h w -> b h", "same axis names"),
                             ("b (h w -> b h w", "unbalanced"), ("b h w", "'->'")]:
        with pytest.raises(ValueError, match=message):
            ops.rearrange(x, pattern)
    with pytest.raises(ValueError, match="does not split"):
        ops.rearrange(x, "b (h k) w -> b h k w", k=2)
