"""`gather_rows` (the Embedding kernel) and its scatter-add gradient."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, apply
from hikeras.backend.numpy_backend.embedding import scatter_add_rows
from tests.helpers.check_op import case, params

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(5)
table = _TABLE_RNG.standard_normal((7, 3))


def _gather(embeddings, indices):
    return embeddings[indices]


CASES = [
    case("gather_rows", table, _TABLE_RNG.integers(0, 7, (4, 5)), reference=_gather),
    case("gather_rows", table, np.array([2, 2, 2, 2, 2, 2, 1, 0]), reference=_gather,
         label="one-index-many-times"),
    case("gather_rows", table, np.array(6), reference=_gather, label="scalar-index"),
    case("gather_rows", table, _TABLE_RNG.integers(0, 7, (2, 3, 2)), reference=_gather,
         label="rank-3-indices"),
    case("gather_rows", _TABLE_RNG.standard_normal((6, 2, 3)), np.array([5, 0, 5]),
         reference=_gather, label="rows-of-rank-2"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


@pytest.mark.parametrize("indices", [
    np.array([3, 1, 3, 3, 0, 1]),
    np.array([5] * 40 + [1, 2, 5]),                 # more repeats than the rounds: reduceat
    _TABLE_RNG.integers(0, 50, 500),
    np.array([], dtype=np.int64),
])
def test_scatter_add_matches_add_at(indices, rng):
    rows = rng.standard_normal((len(indices), 4))
    expected = np.zeros((50, 4))
    np.add.at(expected, indices, rows)
    np.testing.assert_allclose(scatter_add_rows(indices, rows, 50), expected, atol=1e-12)


@pytest.mark.parametrize("num_rows", [1 << 16, (1 << 16) + 5])
def test_scatter_add_sorts_tables_of_any_size(num_rows, rng):
    """Up to 2**16 rows the indices are sorted as 16-bit keys (a radix sort)."""
    indices = np.concatenate([rng.integers(0, num_rows, 300), [num_rows - 1] * 3, [0, 0]])
    rows = rng.standard_normal((len(indices), 3))
    expected = np.zeros((num_rows, 3))
    np.add.at(expected, indices, rows)
    np.testing.assert_allclose(scatter_add_rows(indices, rows, num_rows), expected, atol=1e-12)


def test_gradient_counts_every_occurrence_of_an_index():
    embeddings = np.zeros((4, 2), np.float32)
    indices = np.array([[1, 1, 3], [1, 0, 0]])
    with GradientTape() as tape:
        tape.watch(embeddings)
        out = apply("gather_rows", embeddings, indices)
    grad = tape.gradient(out, embeddings)
    np.testing.assert_array_equal(grad, [[2, 2], [3, 3], [0, 0], [1, 1]])
    assert grad.dtype == np.float32


def test_gradient_arriving_time_major_in_memory(rng):
    """A transposed (non-contiguous) output gradient, as recurrent ops produce."""
    embeddings = rng.standard_normal((6, 2))
    indices = rng.integers(0, 6, (3, 4))
    weights = rng.standard_normal((4, 3, 2))
    with GradientTape() as tape:
        tape.watch(embeddings)
        out = apply("gather_rows", embeddings, indices)
        time_major = apply("transpose", out, axes=(1, 0, 2))
        loss = apply("sum", apply("multiply", time_major, weights))
    expected = np.zeros((6, 2))
    np.add.at(expected, indices, weights.transpose(1, 0, 2))
    np.testing.assert_allclose(tape.gradient(loss, embeddings), expected, atol=1e-12)
