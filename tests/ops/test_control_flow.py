"""Control flow (`cond`, `switch`, loops, scans, maps): values, Keras's argument
conventions, gradients through the iterations, and symbolic specs."""

import numpy as np
import pytest
from hikeras.backend import GradientTape, SymbolicTensor

from hikeras import ops


def test_cond_takes_one_branch_and_differentiates_it():
    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = ops.cond(ops.sum(x) > 0, lambda: ops.sum(ops.square(x)), lambda: ops.sum(x))
    np.testing.assert_allclose(tape.gradient(y, x), [2.0, 4.0])
    assert ops.cond(np.array(False), lambda: 1, lambda: 2) == 2


def test_cond_on_a_symbolic_predicate_merges_the_branch_specs():
    x = SymbolicTensor((None, 3))
    out = ops.cond(SymbolicTensor((), "bool"), lambda: x, lambda: ops.concatenate([x, x], 1))
    assert out.shape == (None, None)
    with pytest.raises(ValueError, match="ranks"):
        ops.cond(SymbolicTensor((), "bool"), lambda: x, lambda: ops.sum(x))


def test_cond_needs_a_scalar_predicate():
    with pytest.raises(ValueError, match="pred.shape"):
        ops.cond(np.array([True, False]), lambda: 1, lambda: 2)


def test_switch_clamps_the_index():
    branches = [lambda x: x + 1, lambda x: x * 10, lambda x: -x]
    assert [ops.switch(i, branches, 3) for i in (-4, 0, 1, 2, 9)] == [4, 4, 30, -3, -3]


def test_while_loop_keeps_the_structure_of_loop_vars():
    i, total = ops.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t + i), (0, 0))
    assert (i, total) == (4, 6)
    assert ops.while_loop(lambda v: v < 100, lambda v: v * 3, 1) == 243
    assert ops.while_loop(lambda v: True, lambda v: v + 1, 0, maximum_iterations=5) == 5
    out = ops.while_loop(lambda a, b: a < 2, lambda a, b: [a + 1, b * 2], [0, 1])
    assert out == [2, 4]


def test_fori_loop_gradient_runs_through_every_iteration():
    x = np.array(1.5)
    with GradientTape() as tape:
        tape.watch(x)
        y = ops.fori_loop(0, 3, lambda i, v: ops.multiply(v, x), np.array(1.0))
    np.testing.assert_allclose(tape.gradient(y, x), 3 * 1.5 ** 2)


def test_scan_carries_and_stacks_like_keras():
    xs = np.array([1.0, 2.0, 3.0])
    carry, ys = ops.scan(lambda c, x: (c + x, c * x), np.float64(0.0), xs)
    assert float(carry) == 6.0 and ys.tolist() == [0.0, 2.0, 9.0]
    carry, ys = ops.scan(lambda c, x: (c + x, c), np.float64(0.0), xs, reverse=True)
    assert float(carry) == 6.0 and ys.tolist() == [5.0, 3.0, 0.0]
    carry, ys = ops.scan(lambda c, _: (c * 2, None), np.float64(1.0), length=4)
    assert float(carry) == 16.0 and ys is None
    carry, ys = ops.scan(lambda c, x: (c + x["a"], {"b": x["a"] * 2}), np.float64(0.0),
                         {"a": xs})
    assert ys["b"].tolist() == [2.0, 4.0, 6.0]


def test_scan_gradient_matches_the_unrolled_product():
    xs = np.array([0.5, 2.0, -1.5])
    with GradientTape() as tape:
        tape.watch(xs)
        carry, _ = ops.scan(lambda c, x: (c * x, c), np.float64(1.0), xs)
    np.testing.assert_allclose(tape.gradient(carry, xs), [2.0 * -1.5, 0.5 * -1.5, 0.5 * 2.0])


def test_associative_scan_is_an_inclusive_prefix_scan():
    x = np.arange(1.0, 7.0).reshape(2, 3)
    np.testing.assert_allclose(ops.associative_scan(lambda a, b: a + b, x, axis=1),
                               np.cumsum(x, axis=1))
    np.testing.assert_allclose(ops.associative_scan(lambda a, b: a * b, x, reverse=True),
                               np.flip(np.cumprod(np.flip(x, 0), axis=0), 0))
    pairs = ops.associative_scan(lambda a, b: (a[0] + b[0], a[1] * b[1]),
                                 (np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])))
    assert pairs[0].tolist() == [1.0, 3.0, 6.0] and pairs[1].tolist() == [2.0, 4.0, 8.0]


def test_map_and_vectorized_map_stack_the_results():
    xs = np.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(ops.map(lambda v: ops.sum(v), xs), [1.0, 5.0, 9.0])
    np.testing.assert_allclose(ops.vectorized_map(lambda v: v * 2, xs), xs * 2)
    out = ops.map(lambda v: {"s": v[0], "d": v[1]}, (xs[:, 0], xs[:, 1]))
    assert out["s"].tolist() == [0.0, 2.0, 4.0] and out["d"].tolist() == [1.0, 3.0, 5.0]


def test_map_gradient():
    xs = np.array([1.0, 2.0, 3.0])
    with GradientTape() as tape:
        tape.watch(xs)
        y = ops.sum(ops.map(lambda v: v * v, xs))
    np.testing.assert_allclose(tape.gradient(y, xs), 2 * xs)


def test_loops_trace_symbolic_tensors():
    x = SymbolicTensor((None, 4))
    assert ops.map(lambda v: v * 2, SymbolicTensor((5, 4))).shape == (5, 4)
    assert ops.fori_loop(0, 3, lambda i, v: v + 1.0, x).shape == (None, 4)
