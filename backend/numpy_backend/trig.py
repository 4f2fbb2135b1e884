"""Smooth elementwise functions of one input, declared as a table.

Each row is a numpy ufunc and its derivative written from the input `x` and
the output `y` (whichever is cheaper). The VJP is `g * derivative(x, y)`.
Derivatives use numpy on saved arrays, so these ops support first-order
gradients. Integer inputs are cast to floatx by `hikeras.ops` before they
get here, as Keras does.
"""

import math

import numpy as np

from .. import shape_rules as rules
from ._registry import define


def _sinc_derivative(x, y):
    safe = np.where(x == 0, 1.0, x)
    return np.where(x == 0, 0.0, (np.cos(np.pi * safe) - y) / safe)


# name: (forward, derivative(x, y))
SMOOTH_UNARY = {
    "sin": (np.sin, lambda x, y: np.cos(x)),
    "cos": (np.cos, lambda x, y: -np.sin(x)),
    "tan": (np.tan, lambda x, y: 1.0 + y * y),
    "arcsin": (np.arcsin, lambda x, y: 1.0 / np.sqrt(1.0 - x * x)),
    "arccos": (np.arccos, lambda x, y: -1.0 / np.sqrt(1.0 - x * x)),
    "arctan": (np.arctan, lambda x, y: 1.0 / (1.0 + x * x)),
    "sinh": (np.sinh, lambda x, y: np.cosh(x)),
    "cosh": (np.cosh, lambda x, y: np.sinh(x)),
    "arcsinh": (np.arcsinh, lambda x, y: 1.0 / np.sqrt(x * x + 1.0)),
    "arccosh": (np.arccosh, lambda x, y: 1.0 / np.sqrt(x * x - 1.0)),
    "arctanh": (np.arctanh, lambda x, y: 1.0 / (1.0 - x * x)),
    "log2": (np.log2, lambda x, y: 1.0 / (x * math.log(2.0))),
    "log10": (np.log10, lambda x, y: 1.0 / (x * math.log(10.0))),
    "exp2": (np.exp2, lambda x, y: y * math.log(2.0)),
    "cbrt": (np.cbrt, lambda x, y: 1.0 / (3.0 * y * y)),
    "reciprocal": (np.reciprocal, lambda x, y: -(y * y)),
    "sinc": (np.sinc, _sinc_derivative),
    "deg2rad": (np.deg2rad, lambda x, y: np.full_like(x, math.pi / 180.0)),
    "rad2deg": (np.rad2deg, lambda x, y: np.full_like(x, 180.0 / math.pi)),
}


def _register(name, forward, derivative):
    op = define(name, shape=rules.elementwise_float, save_inputs=(0,), save_outputs=(0,))(
        forward)

    @op.defvjp
    def _vjp(node, g):
        grad = g * derivative(node.inputs[0], node.outputs[0])
        return (grad.astype(node.inputs[0].dtype, copy=False),)

    return op


for _name, (_forward, _derivative) in SMOOTH_UNARY.items():
    _register(_name, _forward, _derivative)
