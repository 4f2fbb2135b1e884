"""`erf`, `erfc` and `erfinv`: values against the standard library, gradients, shape rules."""

import math

import numpy as np
import pytest

from tests.helpers.check_op import case, params, random_array

_TABLE_RNG = np.random.default_rng(11)

_erf = np.vectorize(math.erf)
_erfc = np.vectorize(math.erfc)


def _erfinv_by_bisection(y):
    """The inverse of `math.erf` by bisection: an independent reference."""
    low, high = np.full(np.shape(y), -6.0), np.full(np.shape(y), 6.0)
    for _ in range(80):
        middle = (low + high) / 2
        below = _erf(middle) < y
        low, high = np.where(below, middle, low), np.where(below, high, middle)
    return (low + high) / 2


CASES = [
    case("erf", random_array(_TABLE_RNG, 3, 4, low=-3, high=3), reference=_erf),
    case("erf", np.array([-6.0, -0.4, 0.0, 1e-3, 0.49, 0.51, 4.0]), reference=_erf,
         label="centre-and-tails"),
    case("erfc", random_array(_TABLE_RNG, 3, 4, low=-3, high=3), reference=_erfc),
    case("erfc", np.array([2.0, 4.0, 6.0, 9.0]), reference=_erfc, rtol=1e-5, atol=0,
         label="tiny-tail"),
    case("erfinv", random_array(_TABLE_RNG, 3, 4, low=-0.95, high=0.95),
         reference=_erfinv_by_bisection, rtol=1e-5, atol=1e-6),
    # float32-representable inputs, so that the float32 run sees the reference's values.
    case("erfinv", np.array([-0.999999, -0.5, 0.0, 0.9, 0.99999], np.float32).astype(np.float64),
         reference=_erfinv_by_bisection, rtol=1e-4, atol=1e-6, label="near-one",
         check_grad=False),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_erfinv_is_infinite_at_one_and_nan_outside():
    from hikeras.backend import apply

    out = apply("erfinv", np.array([-1.0, 1.0, 1.5, -2.0]))
    assert out[0] == -np.inf and out[1] == np.inf and np.isnan(out[2:]).all()
