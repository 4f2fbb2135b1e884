"""Comparisons and logical ops: broadcasting, bool outputs, no gradients.

The numpy ufuncs serve directly as forward kernels.
"""

import numpy as np

from .. import shape_rules as rules
from ._registry import define


def _register(name, ufunc):
    return define(name, shape=rules.comparison, differentiable=False)(ufunc)


equal = _register("equal", np.equal)
not_equal = _register("not_equal", np.not_equal)
less = _register("less", np.less)
less_equal = _register("less_equal", np.less_equal)
greater = _register("greater", np.greater)
greater_equal = _register("greater_equal", np.greater_equal)
logical_and = _register("logical_and", np.logical_and)
logical_or = _register("logical_or", np.logical_or)
logical_not = _register("logical_not", np.logical_not)
