"""Activation ops, smooth and piecewise."""

import math

import numpy as np
import pytest

from hikeras.backend import GradientTape, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(6)


def r(*shape, low=-4.0, high=4.0, **kw):
    return random_array(_TABLE_RNG, *shape, low=low, high=high, **kw)


_erf = np.vectorize(math.erf)


def _softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def _keras_relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    out = np.where(x > threshold, x, 0.0)
    if max_value is not None:
        out = np.clip(out, 0.0, max_value)
    return out - negative_slope * np.maximum(threshold - x, 0.0)


def _hard_sigmoid(x):
    return np.clip(x + 3.0, 0.0, 6.0) / 6.0


SMOOTH = {
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "tanh": np.tanh,
    "softplus": lambda x: np.log1p(np.exp(x)),
    "softsign": lambda x: x / (1 + np.abs(x)),
    "silu": lambda x: x / (1 + np.exp(-x)),
    "gelu": lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2))),
    "selu": lambda x: 1.05070098 * _elu(x, 1.67326324),
    "elu": _elu,
}
KINKED = {  # name -> (reference, kinks to keep finite differences away from)
    "relu": (lambda x: np.maximum(x, 0), (0,)),
    "relu6": (lambda x: np.clip(x, 0, 6), (0, 6)),
    "leaky_relu": (lambda x: np.where(x > 0, x, 0.2 * x), (0,)),
    "hard_sigmoid": (_hard_sigmoid, (-3, 3)),
    "hard_silu": (lambda x: x * _hard_sigmoid(x), (-3, 3)),
}
SHAPES = [(), (7,), (3, 4)]

CASES = [case(name, r(*shape), reference=fn) for name, fn in SMOOTH.items() for shape in SHAPES]
CASES += [case(name, r(*shape, low=-8, high=8, avoid=kinks), reference=fn)
          for name, (fn, kinks) in KINKED.items() for shape in SHAPES]
CASES += [
    case("gelu", r(4, 5), attrs={"approximate": True},
         reference=lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3))),
         label="approximate"),
    case("gelu", np.array([-30.0, -12.0, -6.0, 0.0, 6.0, 30.0]), label="tails",
         reference=lambda x: np.array([0.5 * v * math.erfc(-v / math.sqrt(2)) for v in x]),
         rtol=2e-6, atol=1e-38),
    case("elu", r(3, 4), attrs={"alpha": 0.5}, reference=lambda x: _elu(x, 0.5), label="alpha"),
    case("leaky_relu", r(3, 4, avoid=(0,)), attrs={"negative_slope": 0.01},
         reference=lambda x: np.where(x > 0, x, 0.01 * x), label="slope"),
    case("sigmoid", np.array([-800.0, -30.0, 0.0, 30.0, 800.0]), label="extremes",
         reference=lambda x: np.exp(-np.logaddexp(0, -x)), atol=0),
    case("softplus", np.array([-800.0, -30.0, 0.0, 30.0, 800.0]), label="extremes",
         reference=lambda x: np.logaddexp(0, x)),
]
for _attrs in ({"negative_slope": 0.1}, {"max_value": 2.5}, {"threshold": 0.5},
               {"threshold": -0.5}, {"negative_slope": 0.1, "max_value": 2.5, "threshold": 0.5},
               {"negative_slope": 0.3, "threshold": -1.0}, {"max_value": 6.0}):
    CASES.append(case("relu", r(4, 5, avoid=(0, 0.5, -0.5, 2.5, -1.0, 6.0)), attrs=_attrs,
                      reference=lambda x, a=_attrs: _keras_relu(x, **a),
                      label="-".join(f"{k}={v}" for k, v in _attrs.items())))

for _shape, _axis in (((5,), -1), ((3, 4), -1), ((3, 4), 0), ((2, 3, 4), (1, 2))):
    CASES.append(case("softmax", r(*_shape), attrs={"axis": _axis},
                      reference=lambda x, a=_axis: _softmax(x, a), label=f"{_shape}-{_axis}"))
    CASES.append(case("log_softmax", r(*_shape), attrs={"axis": _axis},
                      reference=lambda x, a=_axis: np.log(_softmax(x, a)),
                      label=f"{_shape}-{_axis}"))
CASES += [
    case("softmax", np.array([[1000.0, 0.0], [-1000.0, -999.0]]), label="large",
         reference=_softmax),
    case("log_softmax", np.array([[1000.0, 0.0], [-1000.0, -999.0]]), label="large",
         reference=lambda x: x - np.max(x, -1, keepdims=True) - np.log(
             np.sum(np.exp(x - np.max(x, -1, keepdims=True)), -1, keepdims=True))),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_gelu_exact_is_accurate_in_float64():
    x = np.linspace(-10, 10, 2001)
    expected = np.array([0.5 * v * math.erfc(-v / math.sqrt(2)) for v in x])
    np.testing.assert_allclose(apply("gelu", x), expected, rtol=1e-13, atol=1e-300)


@pytest.mark.parametrize("name", ["relu", "relu6", "leaky_relu", "hard_sigmoid"])
def test_kinks_take_the_flat_side(name):
    x = np.array({"relu": 0.0, "relu6": 6.0, "leaky_relu": 0.0, "hard_sigmoid": 3.0}[name])
    with GradientTape() as tape:
        tape.watch(x)
        y = apply(name, x)
    expected = {"relu": 0.0, "relu6": 0.0, "leaky_relu": 0.2, "hard_sigmoid": 0.0}[name]
    assert float(tape.gradient(y, x)) == expected


def test_activations_of_integers_give_floats():
    ints = np.arange(-2, 3)
    for name in ("sigmoid", "softplus", "softsign", "silu", "gelu", "elu", "softmax"):
        assert apply(name, ints).dtype == np.float64, name
