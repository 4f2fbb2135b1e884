"""Elementwise math and comparison ops: values, gradients and shape rules."""

import numpy as np
import pytest

from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(2)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, **kw)


def positive(*shape):
    return random_array(_TABLE_RNG, *shape, low=0.5, high=2.0)


UNARY_SHAPES = [(), (5,), (3, 4), (2, 3, 4)]

UNARY = {
    "exp": (np.exp, r),
    "expm1": (np.expm1, r),
    "log": (np.log, positive),
    "log1p": (np.log1p, positive),
    "sqrt": (np.sqrt, positive),
    "rsqrt": (lambda x: 1 / np.sqrt(x), positive),
    "abs": (np.abs, lambda *s: r(*s, avoid=(0,))),
}

CASES = [case(name, make(*shape), reference=fn)
         for name, (fn, make) in UNARY.items() for shape in UNARY_SHAPES]

CASES += [
    case("sign", r(3, 4), reference=np.sign),
    case("sign", np.array([-2.0, 0.0, 3.0]), reference=np.sign, label="zero"),
    case("floor", r(3, 4), reference=np.floor),
    case("round", np.array([0.5, 1.5, 2.5, -0.5, 1.26]), reference=np.round,
         label="half-to-even"),
    case("round", r(3, 4), attrs={"decimals": 1}, reference=lambda x: np.round(x, 1),
         label="decimals"),
    case("zeros_like", r(3, 4), reference=np.zeros_like),
    case("ones_like", r(2, 3), reference=np.ones_like),
    case("zeros_like", r(3), attrs={"dtype": "int32"},
         reference=lambda x: np.zeros(3, "int32"), label="dtype"),
    case("stop_gradient", r(3, 4), reference=lambda x: x),
]

for _sx, _sy in [((), ()), ((3, 4), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (4,))]:
    CASES.append(case("maximum", r(*_sx), r(*_sy), reference=np.maximum))
    CASES.append(case("minimum", r(*_sx), r(*_sy), reference=np.minimum))
CASES += [
    case("maximum", r(3, 4), 0.5, reference=np.maximum, label="python-scalar"),
    case("minimum", r(3, 4), 0.5, reference=np.minimum, label="python-scalar"),
]

_condition = _TABLE_RNG.uniform(size=(3, 4)) > 0.5
CASES += [
    case("where", _condition, r(3, 4), r(3, 4), reference=np.where),
    case("where", _condition[:, :1], r(3, 1), r(1, 4), reference=np.where, label="broadcast"),
    case("where", _condition, r(3, 4), 0.0, reference=np.where, label="python-scalar"),
    case("where", np.array(True), r(2, 3), r(3), reference=np.where, label="scalar-condition"),
]

for _attrs in ({"x_min": -0.5, "x_max": 0.7}, {"x_min": -0.5}, {"x_max": 0.7}):
    CASES.append(case(
        "clip", r(4, 5, avoid=(-0.5, 0.7)), attrs=_attrs,
        reference=lambda x, a=_attrs: np.clip(x, a.get("x_min"), a.get("x_max")),
        label="-".join(_attrs)))
CASES.append(case("clip", r(avoid=(-0.5, 0.7)), attrs={"x_min": -0.5, "x_max": 0.7},
                  reference=lambda x: np.clip(x, -0.5, 0.7), label="scalar"))

CASES += [
    case("cast", r(3, 4), attrs={"dtype": "float64"},
         reference=lambda x: x.astype(np.float32).astype(np.float64), label="to-float64"),
    case("cast", r(3, 4), attrs={"dtype": "float16"}, reference=lambda x: x.astype(np.float16),
         rtol=1e-3, atol=1e-3, check_grad=False, label="to-float16"),
    case("cast", r(3, 4) * 3, attrs={"dtype": "int32"},
         reference=lambda x: x.astype(np.float32).astype(np.int32), label="to-int32"),
    case("cast", np.array([0.0, 1.5, -2.0]), attrs={"dtype": "bool"},
         reference=lambda x: x.astype(bool), label="to-bool"),
]

COMPARISONS = {
    "equal": np.equal, "not_equal": np.not_equal, "less": np.less,
    "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal,
}
_ties = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, -1.0]])
for _name, _fn in COMPARISONS.items():
    CASES.append(case(_name, _ties, np.array([1.0, 1.0, 2.0]), reference=_fn))
    CASES.append(case(_name, r(3, 1), r(1, 4), reference=_fn, label="broadcast"))
    CASES.append(case(_name, r(4), 0.5, reference=_fn, label="python-scalar"))

_a = _TABLE_RNG.uniform(size=(3, 4)) > 0.5
_b = _TABLE_RNG.uniform(size=(4,)) > 0.5
CASES += [
    case("logical_and", _a, _b, reference=np.logical_and),
    case("logical_or", _a, _b, reference=np.logical_or),
    case("logical_not", _a, reference=np.logical_not),
    case("logical_and", r(3), r(3), reference=np.logical_and, label="floats"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_maximum_and_minimum_send_ties_to_the_first_input():
    from hikeras.backend import GradientTape, apply

    x, y = np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 3.0])
    for name in ("maximum", "minimum"):
        with GradientTape() as tape:
            tape.watch([x, y])
            out = apply(name, x, y)
        gx, gy = tape.gradient(out, [x, y])
        np.testing.assert_array_equal(gx[[0, 2]], [1.0, 1.0])
        np.testing.assert_array_equal(gy[[0, 2]], [0.0, 0.0])


def test_cast_to_integer_gives_no_gradient():
    from hikeras.backend import GradientTape, apply

    x = np.array([1.5, 2.5])
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("cast", x, dtype="int32")
        z = apply("multiply", apply("cast", y, dtype="float64"), x)
    (g,) = tape.gradient(z, [x])
    np.testing.assert_array_equal(g, [1.0, 2.0])  # only the direct path contributes


def test_cast_to_half_precision_casts_the_gradient_back():
    from hikeras.backend import GradientTape, apply

    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("cast", x, dtype="float16")
    g = tape.gradient(y, x, output_gradients=np.array([2.0, 3.0], np.float16))
    assert g.dtype == np.float64
    np.testing.assert_array_equal(g, [2.0, 3.0])


def test_stop_gradient_blocks_a_watched_array():
    from hikeras.backend import GradientTape, apply

    x = np.array([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("multiply", apply("stop_gradient", x), x)
    np.testing.assert_array_equal(tape.gradient(y, x), x)


def test_clip_passes_gradient_on_the_closed_interval():
    from hikeras.backend import GradientTape, apply

    x = np.array([-1.0, -0.5, 0.0, 0.7, 1.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = apply("clip", x, x_min=-0.5, x_max=0.7)
    np.testing.assert_array_equal(tape.gradient(y, x), [0, 1, 1, 1, 0])
