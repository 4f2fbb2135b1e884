"""`getitem` (basic and advanced keys) and `take` (gather)."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, Tensor, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(4)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, **kw)


BASIC_KEYS = [
    0, -1, slice(1, 3), (Ellipsis, 1), (None, slice(None), 2), slice(None, None, -1),
    (1, slice(0, 4, 2)), (slice(None), None, slice(1, None), Ellipsis), (),
]
ADVANCED_KEYS = [
    np.array([0, 2, 2]),                                    # repeated rows accumulate
    [1, 0],
    (slice(None), [0, 3, 3]),
    ([0, 2], slice(None), [1, 0]),                          # separated: dims go first
    (0, slice(None), [1, 1]),                               # an int counts as an index array
    (np.array([[0], [2]]), np.array([0, 3])),               # broadcasting index arrays
    (slice(1, None), np.array([[1, 1], [0, 2]]), Ellipsis),
    ([0, 1], None, [2, 3]),
]

CASES = [case("getitem", r(3, 4, 2), attrs={"key": k}, reference=lambda x, k=k: x[k],
              label=f"basic{i}") for i, k in enumerate(BASIC_KEYS)]
CASES += [case("getitem", r(3, 4, 2), attrs={"key": k}, reference=lambda x, k=k: x[k],
               label=f"advanced{i}") for i, k in enumerate(ADVANCED_KEYS)]
_mask = np.array([True, False, True])
CASES += [
    case("getitem", r(3, 4), attrs={"key": _mask}, reference=lambda x: x[_mask], label="mask",
         batch_none=False),
    case("getitem", r(3, 4), attrs={"key": (slice(None), r(4) > 0)},
         reference=None, label="mask-axis1"),
    case("getitem", r(), attrs={"key": ()}, reference=lambda x: x[()], label="scalar"),
]

_ids = np.array([[1, 0, 4], [4, 4, 2]])
CASES += [
    case("take", r(5, 3), _ids, attrs={"axis": 0}, reference=lambda x, i: np.take(x, i, 0),
         label="embedding"),
    case("take", r(2, 5, 3), np.array([-1, 0, 1, -1]), attrs={"axis": 1},
         reference=lambda x, i: np.take(x, i, axis=1), label="negative"),
    case("take", r(3, 4), np.array([2, 11, 2]), reference=lambda x, i: np.take(x, i),
         label="flat"),
    case("take", r(3, 4), np.array(2), attrs={"axis": -1},
         reference=lambda x, i: np.take(x, i, axis=-1), label="scalar-index"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


@pytest.mark.parametrize("key", BASIC_KEYS + ADVANCED_KEYS + [_mask, (_mask, 0)],
                         ids=lambda k: repr(k)[:40])
def test_getitem_rule_matches_numpy(key):
    x = np.zeros((3, 4, 2))
    assert apply("getitem", SymbolicTensor(x.shape), key=key).shape == x[key].shape


def test_getitem_rule_with_unknown_dims():
    def shape(key, input_shape=(None, 4, 2)):
        return apply("getitem", SymbolicTensor(input_shape), key=key).shape

    assert shape((slice(None), 0)) == (None, 2)
    assert shape((slice(None), slice(1, 3))) == (None, 2, 2)
    assert shape(slice(1, 3)) == (None, 4, 2)
    assert shape((Ellipsis, None)) == (None, 4, 2, 1)
    assert shape((slice(None), [0, 1, 1])) == (None, 3, 2)
    assert shape(([0, 1], slice(None), 0)) == (2, 4)
    with pytest.raises(IndexError):
        shape((0, 0, 0, 0))
    with pytest.raises(IndexError):
        shape((slice(None), 5))


def test_tensor_indexing_operator_under_a_tape():
    x = np.arange(6.0).reshape(2, 3)
    with GradientTape() as tape:
        tape.watch(x)
        y = Tensor(x, tape.watched_ref(x))[:, Tensor(np.array([2, 2]))]
    assert isinstance(y, Tensor)
    np.testing.assert_array_equal(y.value, x[:, [2, 2]])
    np.testing.assert_array_equal(tape.gradient(y, x), [[0, 0, 2], [0, 0, 2]])


def test_take_accumulates_repeated_indices():
    table = np.ones((4, 2))
    with GradientTape() as tape:
        tape.watch(table)
        rows = apply("take", table, np.array([3, 3, 0, 3]), axis=0)
    np.testing.assert_array_equal(tape.gradient(rows, table)[:, 0], [1, 0, 0, 3])


def test_rejected_keys():
    with pytest.raises(TypeError, match="Received"):
        apply("getitem", np.zeros(3), key=1.5)
    with pytest.raises(TypeError, match="Received"):
        apply("getitem", np.zeros(3), key=np.array([0.5]))
