"""Arithmetic and matrix-product ops: values, gradients and shape rules."""

import numpy as np
import pytest

from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(1)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, **kw)


def positive(*shape):
    return random_array(_TABLE_RNG, *shape, low=0.5, high=2.0)


# Shape pairs every binary elementwise op is swept over: equal shapes of
# rank 0-2, and broadcasting pairs in both directions.
BINARY_SHAPES = [((), ()), ((5,), (5,)), ((3, 4), (3, 4)), ((3, 1), (1, 4)),
                 ((2, 3, 4), (4,)), ((4,), (2, 3, 4)), ((), (3, 2))]

BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
}

CASES = []
for _name, _fn in BINARY.items():
    for _sx, _sy in BINARY_SHAPES:
        _y = positive(*_sy) if _name == "divide" else r(*_sy)
        CASES.append(case(_name, r(*_sx), _y, reference=_fn))
    # A Python scalar operand stays "weak": float32 op 2.5 stays float32.
    CASES.append(case(_name, r(3, 2), 2.5, reference=_fn, label="python-scalar"))

for _sx, _sy in BINARY_SHAPES:
    CASES.append(case("power", positive(*_sx), r(*_sy), reference=np.power, rtol=2e-5))
CASES += [
    # A Python-number exponent must not promote a float32 gradient to float64.
    case("power", r(4, 3), 3.0, reference=np.power, label="python-exponent"),
    case("negative", r(), reference=np.negative),
    case("negative", r(3, 4), reference=np.negative),
    case("square", r(), reference=np.square),
    case("square", r(2, 3, 4), reference=np.square),
]

MATMUL_SHAPES = [((3, 4), (4, 5)), ((4,), (4, 2)), ((3, 4), (4,)),
                 ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((1, 3, 4), (2, 4, 2)),
                 ((5, 3), (2, 1, 3, 2))]
CASES += [case("matmul", r(*sx), r(*sy), reference=np.matmul) for sx, sy in MATMUL_SHAPES]
# vector . vector: the output gradient is 0-d.
CASES.append(case("matmul", r(4), r(4), reference=np.matmul, label="vector-vector"))


def _dense_reference(activation):
    functions = {
        "linear": lambda z: z,
        "relu": lambda z: np.maximum(z, 0),
        "sigmoid": lambda z: 1 / (1 + np.exp(-z)),
        "tanh": np.tanh,
    }

    def reference(x, kernel, *bias):
        z = x @ kernel
        return functions[activation](z + bias[0] if bias else z)

    return reference


for _activation in ("linear", "relu", "sigmoid", "tanh"):
    for _x_shape in ((4, 3), (2, 4, 3)):
        _x, _k, _b = r(*_x_shape), r(3, 5), r(5)
        if _activation == "relu":  # keep pre-activations away from the kink at 0
            _b = _b + np.where(np.abs(_x @ _k + _b) < 0.05, 0.1, 0.0).mean()
        CASES.append(case("dense", _x, _k, _b, attrs={"activation": _activation},
                          reference=_dense_reference(_activation),
                          label=f"{_activation}-bias-{len(_x_shape)}d"))
        CASES.append(case("dense", _x, _k, attrs={"activation": _activation},
                          reference=_dense_reference(_activation),
                          label=f"{_activation}-nobias-{len(_x_shape)}d"))


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_dense_first_layer_skips_input_gradient(rng):
    # The data fed to a first layer is not tracked: its VJP returns None for it.
    from hikeras.backend import GradientTape, Variable, apply

    kernel = Variable(random_array(rng, 3, 2))
    with GradientTape() as tape:
        out = apply("dense", random_array(rng, 4, 3), kernel, activation="relu")
    (g,) = tape.gradient(out, [kernel])
    assert g.shape == (3, 2)
