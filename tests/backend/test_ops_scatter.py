"""`scatter`, `scatter_update` and `custom_gradient` kernels: values, gradients, shapes."""

import numpy as np
import pytest

from hikeras import ops
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(4)


def r(*shape):
    return random_array(_TABLE_RNG, *shape)


def _scatter_reference(indices, values, shape):
    out = np.zeros(shape)
    np.add.at(out, tuple(indices.T), values)
    return out


def _update_reference(inputs, indices, updates, add=False):
    out = inputs.copy()
    if add:
        np.add.at(out, tuple(indices.T), updates)
    else:
        out[tuple(indices.T)] = updates
    return out


_rows = np.array([[0], [2], [0]])
_cells = np.array([[0, 1], [2, 3]])


def _square_with_gradient(x):
    return ops.square(x), lambda upstream: upstream * 2.0 * x


CASES = [
    case("scatter", _rows, r(3, 4), attrs={"shape": (4, 4)},
         reference=lambda i, v: _scatter_reference(i, v, (4, 4)), batch_none=False,
         label="rows-duplicates"),
    case("scatter", _cells, r(2), attrs={"shape": (3, 4)},
         reference=lambda i, v: _scatter_reference(i, v, (3, 4)), batch_none=False,
         label="cells"),
    case("scatter_update", r(4, 3), np.array([[1], [3]]), r(2, 3),
         reference=_update_reference, label="rows"),
    case("scatter_update", r(4, 3), _cells[:, ::-1] % 3, r(2), attrs={"reduction": "add"},
         reference=lambda x, i, u: _update_reference(x, i, u, add=True), label="add"),
    case("custom_gradient", r(3, 4), attrs={"fn": _square_with_gradient},
         reference=np.square),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_custom_gradient_replaces_the_inner_gradient():
    from hikeras.backend import GradientTape

    @ops.custom_gradient
    def log1pexp(x):
        e = ops.exp(x)
        return ops.log(1 + e), lambda upstream: upstream * (1.0 - 1.0 / (1.0 + e))

    x = np.array([0.0, 100.0])  # the plain gradient would be nan at 100
    with GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    np.testing.assert_allclose(tape.gradient(y, x), [0.5, 1.0])


def test_scatter_update_rejects_unknown_reductions():
    with pytest.raises(ValueError, match="reduction"):
        ops.scatter_update(np.zeros(3), np.array([[0]]), np.ones(1), reduction="max")
