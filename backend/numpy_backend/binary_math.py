"""Smooth elementwise functions of two inputs, declared as a table.

Each row is a numpy kernel and its two partial derivatives, written from the
inputs and the output; the VJP multiplies them by the output gradient and
sums each back to its input's shape (`unbroadcast`). A partial derivative of
`None` means that input gets no gradient (an integer exponent).
"""


import numpy as np

from .. import shape_rules as rules
from ._grad import unbroadcast
from ._registry import define


def _divide_no_nan(x1, x2):
    zero = x2 == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.true_divide(x1, np.where(zero, 1, x2))
    return np.where(zero, np.zeros((), out.dtype), out)


def _divide_no_nan_partials(x1, x2, y):
    safe = np.where(x2 == 0, 1, x2)
    keep = x2 != 0
    return keep / safe, -(keep * x1) / (safe * safe)


def _fmax_partials(x1, x2, y):
    first = (x1 >= x2) | np.isnan(x2)
    return first, ~first


def _fmin_partials(x1, x2, y):
    first = (x1 <= x2) | np.isnan(x2)
    return first, ~first


# name: (forward, partials(x1, x2, y) -> (d/dx1, d/dx2))
SMOOTH_BINARY = {
    "arctan2": (np.arctan2, lambda a, b, y: (b / (a * a + b * b), -a / (a * a + b * b))),
    "hypot": (np.hypot, lambda a, b, y: (a / y, b / y)),
    "logaddexp": (np.logaddexp, lambda a, b, y: (np.exp(a - y), np.exp(b - y))),
    "logaddexp2": (np.logaddexp2, lambda a, b, y: (np.exp2(a - y), np.exp2(b - y))),
    "fmod": (np.fmod, lambda a, b, y: (np.ones_like(y), -np.trunc(a / b))),
    "mod": (np.mod, lambda a, b, y: (np.ones_like(y), -np.floor(a / b))),
    "fmax": (np.fmax, _fmax_partials),
    "fmin": (np.fmin, _fmin_partials),
    "divide_no_nan": (_divide_no_nan, _divide_no_nan_partials),
    "ldexp": (np.ldexp, lambda a, b, y: (np.exp2(b), None)),
}


def _first_dtype(x1, x2, **_):
    """Broadcast shape, the first input's dtype (`ldexp` scales `x1` by an integer power)."""
    spec = rules.elementwise(x1, x2)
    return type(spec)(spec.shape, rules.dtype_of(x1))


def _register(name, forward, partials):
    rule = _first_dtype if name == "ldexp" else rules.elementwise
    op = define(name, shape=rule, save_inputs=(0, 1), save_outputs=(0,))(forward)

    @op.defvjp
    def _vjp(node, g):
        x1, x2 = node.inputs
        derivatives = partials(x1, x2, node.outputs[0])
        grads = []
        for x, derivative, shape, ref in zip(node.inputs, derivatives, node.input_shapes,
                                             node.input_refs):
            if ref is None or derivative is None or not np.issubdtype(
                    np.asarray(x).dtype, np.inexact):
                grads.append(None)
                continue
            grad = unbroadcast(g * derivative, shape)
            grads.append(np.asarray(grad).astype(np.asarray(x).dtype, copy=False))
        return tuple(grads)

    return op


for _name, (_forward, _partials) in SMOOTH_BINARY.items():
    _register(_name, _forward, _partials)

