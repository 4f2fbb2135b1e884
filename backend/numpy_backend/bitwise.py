"""Elementwise ops without a gradient: rounding, classification, bits, integer math.

numpy's ufuncs are the kernels. Keras leaves all of these without a
gradient (rounding has a zero derivative almost everywhere; the others act
on integers or return bools).
"""

import numpy as np

from .. import shape_rules as rules
from ._registry import define

# name: (ufunc, shape rule)
UNDIFFERENTIATED = {
    "ceil": (np.ceil, rules.same),
    "trunc": (np.trunc, rules.same),
    "isnan": (np.isnan, rules.comparison),
    "isinf": (np.isinf, rules.comparison),
    "isfinite": (np.isfinite, rules.comparison),
    "isneginf": (np.isneginf, rules.comparison),
    "isposinf": (np.isposinf, rules.comparison),
    "signbit": (np.signbit, rules.comparison),
    "bitwise_invert": (np.invert, rules.same),
    "bitwise_and": (np.bitwise_and, rules.elementwise),
    "bitwise_or": (np.bitwise_or, rules.elementwise),
    "bitwise_xor": (np.bitwise_xor, rules.elementwise),
    "left_shift": (np.left_shift, rules.elementwise),
    "right_shift": (np.right_shift, rules.elementwise),
    "gcd": (np.gcd, rules.elementwise),
    "lcm": (np.lcm, rules.elementwise),
    "logical_xor": (np.logical_xor, rules.comparison),
    "floor_divide": (np.floor_divide, rules.elementwise),
    "heaviside": (np.heaviside, rules.elementwise),
    "nextafter": (np.nextafter, rules.elementwise),
    "i0": (lambda x: np.i0(x).astype(np.result_type(x), copy=False), rules.same),
}

for _name, (_ufunc, _rule) in UNDIFFERENTIATED.items():
    define(_name, shape=_rule, differentiable=False)(_ufunc)
