"""Kernels behind `hikeras.ops.numpy`: trigonometry, two-input math, bits, sorting,
running sums and products, rearrangements and `slogdet`: values, gradients
(finite differences) and shape rules, through `check_op`."""

import numpy as np
import pytest
from hikeras.backend.numpy_backend.binary_math import SMOOTH_BINARY
from hikeras.backend.numpy_backend.bitwise import UNDIFFERENTIATED
from hikeras.backend.numpy_backend.trig import SMOOTH_UNARY

from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(3)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, **kw)


def distinct(*shape):
    """Values without ties, at least 0.1 apart (sort gradients need no ties)."""
    n = int(np.prod(shape))
    return (_TABLE_RNG.permutation(n).reshape(shape) * 0.1 - 0.3 * n / 10).astype(np.float64)


DOMAINS = {
    "arcsin": (-0.9, 0.9), "arccos": (-0.9, 0.9),
    "arctanh": (-0.9, 0.9), "arccosh": (1.2, 3.0),
    "log2": (0.5, 2.0), "log10": (0.5, 2.0),
    "reciprocal": (0.5, 2.0), "cbrt": (0.5, 2.0),
    "tan": (-1.2, 1.2),
}

CASES = []
for _name, (_forward, _) in SMOOTH_UNARY.items():
    for _shape in [(), (3, 4)]:
        CASES.append(case(_name, r(*_shape, low=DOMAINS.get(_name, (-2.0, 2.0))[0],
                            high=DOMAINS.get(_name, (-2.0, 2.0))[1]), reference=_forward,
                          grad_rtol=1e-4))
CASES.append(case("sinc", np.array([0.0, 0.5, -1.5]), reference=np.sinc, label="at-zero",
                  grad_rtol=1e-4))

BINARY_INPUTS = {
    "fmod": (lambda: r(3, 4), lambda: r(4, low=0.5, high=1.5)),
    "mod": (lambda: r(3, 4), lambda: r(4, low=0.5, high=1.5)),
    "divide_no_nan": (lambda: r(3, 4), lambda: r(4, avoid=(0,), margin=0.3)),
    "ldexp": (lambda: r(3, 4), lambda: _TABLE_RNG.integers(-2, 3, size=4).astype(np.int32)),
}
for _name, (_forward, _) in SMOOTH_BINARY.items():
    _make1, _make2 = BINARY_INPUTS.get(_name, (lambda: r(3, 4), lambda: r(4)))
    _x1, _x2 = _make1(), _make2()
    if _name in ("fmod", "mod"):  # keep x1 / x2 away from integers (kinks)
        _x1 = (np.floor(_x1 / _x2) + 0.5) * _x2
    CASES.append(case(_name, _x1, _x2, reference=_forward, grad_rtol=1e-4))
CASES.append(case("divide_no_nan", r(3), np.array([0.0, 2.0, 0.0]),
                  reference=lambda a, b: np.where(b == 0, 0.0, a / np.where(b == 0, 1, b)),
                  wrt=(0,), label="zero-divisor"))
CASES.append(case("fmax", np.array([1.0, np.nan, 2.0]), np.array([np.nan, 3.0, 1.0]),
                  reference=np.fmax, check_grad=False, label="nan"))

_ints = _TABLE_RNG.integers(1, 20, size=(2, 5)).astype(np.int32)
_small = _TABLE_RNG.integers(0, 4, size=(5,)).astype(np.int32)
_floats = np.array([-1.5, -0.0, 0.4, 2.5, np.inf, -np.inf, np.nan])
for _name, (_ufunc, _) in UNDIFFERENTIATED.items():
    if _name in ("ceil", "trunc", "isnan", "isinf", "isfinite", "isneginf", "isposinf",
                 "signbit", "i0"):
        _inputs = (_floats if _name != "i0" else r(5),)
    elif _name == "bitwise_invert":
        _inputs = (_ints,)
    elif _name == "logical_xor":
        _inputs = (_ints > 8, _small > 1)
    elif _name in ("heaviside", "nextafter", "floor_divide"):
        _inputs = (r(2, 5), r(5, low=0.5, high=2.0))
    else:
        _inputs = (_ints, _small)
    CASES.append(case(_name, *_inputs, reference=_ufunc))

CASES += [
    case("cumsum", r(3, 4), attrs={"axis": 1}, reference=lambda x: np.cumsum(x, 1)),
    case("cumsum", r(3, 4), attrs={"axis": -2}, reference=lambda x: np.cumsum(x, -2)),
    case("cumprod", r(3, 4, low=0.5), attrs={"axis": 1}, reference=lambda x: np.cumprod(x, 1)),
    case("cumprod", np.array([[1.5, 0.0, 2.0, -1.0]]), attrs={"axis": 1},
         reference=lambda x: np.cumprod(x, 1), label="with-zero"),
    case("sort", distinct(3, 4), attrs={"axis": -1}, reference=lambda x: np.sort(x, -1)),
    case("sort", distinct(3, 4), attrs={"axis": 0}, reference=lambda x: np.sort(x, 0)),
    case("argsort", distinct(3, 4), attrs={"axis": -1},
         reference=lambda x: np.argsort(x, -1).astype(np.int32)),
    case("argpartition", distinct(6), attrs={"kth": 2, "axis": -1},
         reference=lambda x: np.argpartition(x.astype(np.float32), 2).astype(np.int32),
         batch_none=False),
    case("flip", r(2, 3, 4), attrs={"axis": 1}, reference=lambda x: np.flip(x, 1)),
    case("flip", r(2, 3), attrs={"axis": None}, reference=np.flip),
    case("roll", r(2, 5), attrs={"shift": 2, "axis": -1}, reference=lambda x: np.roll(x, 2, -1)),
    case("roll", r(2, 3), attrs={"shift": -1, "axis": None}, reference=lambda x: np.roll(x, -1),
         batch_none=False),
    case("diagonal", r(3, 4), reference=np.diagonal),
    case("diagonal", r(2, 3, 4), attrs={"offset": -1, "axis1": 1, "axis2": 2},
         reference=lambda x: np.diagonal(x, -1, 1, 2)),
    case("take_along_axis", r(3, 4), np.array([[0, 1], [3, 3], [2, 0]]), attrs={"axis": 1},
         reference=lambda x, i: np.take_along_axis(x, i, 1), batch_none=False),
    case("take_along_axis", r(3, 4), np.array([[2, 0, 1, 1]]), attrs={"axis": 0},
         reference=lambda x, i: np.take_along_axis(x, np.broadcast_to(i, (1, 4)), 0),
         batch_none=False, label="broadcast"),
    case("take_along_axis", r(3, 4), np.array([0, 5, 5]), attrs={"axis": None},
         reference=lambda x, i: np.take(x.ravel(), i), label="flat"),
    case("slogdet", r(2, 3, 3) + 3 * np.eye(3), reference=np.linalg.slogdet),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_sort_gradient_follows_the_permutation():
    from hikeras.backend import GradientTape, apply

    x = np.array([3.0, 1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("sort", x, axis=-1)
    grad = tape.gradient(y, x, output_gradients=np.array([10.0, 20.0, 30.0]))
    np.testing.assert_array_equal(grad, [30.0, 10.0, 20.0])
