"""Reductions: sum, mean, max, min, prod, argmax, argmin, logsumexp, var, std."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(5)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, **kw)


def _logsumexp(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


REDUCTIONS = {
    "sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod,
    "logsumexp": _logsumexp, "var": np.var, "std": np.std,
}
# (input shape, attrs): all axes, one axis, negative axis, several axes, keepdims, scalar.
SWEEP = [
    ((3, 4), {}),
    ((3, 4), {"axis": 0}),
    ((2, 3, 4), {"axis": -1, "keepdims": True}),
    ((2, 3, 4), {"axis": (0, 2)}),
    ((2, 3, 4), {"axis": [2, 0], "keepdims": True}),
    ((5,), {"axis": 0}),
    ((), {}),
]

CASES = []
for _name, _fn in REDUCTIONS.items():
    for _shape, _attrs in SWEEP:
        _np_attrs = {k: tuple(v) if isinstance(v, list) else v for k, v in _attrs.items()}
        CASES.append(case(_name, r(*_shape), attrs=_attrs,
                          reference=lambda x, f=_fn, a=_np_attrs: f(x, **a),
                          label=f"{_shape}-{_attrs}"))

CASES += [
    case("prod", np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 1.5]]), attrs={"axis": 1},
         reference=lambda x: np.prod(x, axis=1), label="zeros"),
    case("logsumexp", np.array([[1000.0, 1000.0], [-1000.0, -1001.0]]), attrs={"axis": 1},
         reference=lambda x: _logsumexp(x, axis=1), label="large"),
]
for _name, _fn in (("argmax", np.argmax), ("argmin", np.argmin)):
    CASES += [
        case(_name, r(3, 4), reference=_fn),
        case(_name, r(3, 4), attrs={"axis": 1}, reference=lambda x, f=_fn: f(x, axis=1)),
        case(_name, r(2, 3, 4), attrs={"axis": -2, "keepdims": True},
             reference=lambda x, f=_fn: f(x, axis=-2, keepdims=True)),
        case(_name, np.array([1.0, 3.0, 3.0, -3.0, -3.0]), reference=_fn, label="ties"),
    ]

_TRUTH = np.array([[True, False, False], [True, True, True]])
for _name, _fn in (("any", np.any), ("all", np.all)):
    CASES += [
        case(_name, _TRUTH, reference=_fn),
        case(_name, _TRUTH, attrs={"axis": 1}, reference=lambda x, f=_fn: f(x, axis=1)),
        case(_name, np.array([[0.0, 2.0], [0.0, 0.0]]), attrs={"axis": 0, "keepdims": True},
             reference=lambda x, f=_fn: f(x, axis=0, keepdims=True), label="numbers"),
    ]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


@pytest.mark.parametrize("name, expected", [("max", [0.5, 0, 0.5]), ("min", [0, 1, 0])])
def test_extremum_gradient_is_split_among_ties(name, expected):
    x = np.array([2.0, 1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = apply(name, x)
    np.testing.assert_array_equal(tape.gradient(y, x), expected)


def test_std_gradient_of_a_constant_is_zero():
    x = np.full((2, 3), 4.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("std", x, axis=1)
    np.testing.assert_array_equal(tape.gradient(y, x), np.zeros((2, 3)))


def test_logsumexp_of_all_minus_infinity():
    out = apply("logsumexp", np.array([[-np.inf, -np.inf], [0.0, -np.inf]]), axis=1)
    np.testing.assert_array_equal(out, [-np.inf, 0.0])


def test_reduction_dtypes_of_integers():
    ints = np.arange(6).reshape(2, 3)
    assert apply("sum", ints).dtype == apply("sum", SymbolicTensor((2, 3), "int64")).dtype
    assert apply("mean", ints, axis=0).dtype == np.float64
    assert apply("mean", SymbolicTensor((2, 3), "int64"), axis=0).dtype == np.float64
    assert apply("argmax", SymbolicTensor((None, 3)), axis=1).shape == (None,)
