"""`sparsemax`: the Euclidean projection of each row onto the probability simplex.

Like softmax it maps scores to probabilities, but it can give exact zeros:
`out = max(x - tau, 0)` with the threshold `tau` chosen so that the row
sums to one (found by sorting). On the support `S` (the positive outputs)
the Jacobian is `I - 1 1^T / |S|`, so the VJP subtracts the gradient's mean
over the support and zeroes the rest.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def _sparsemax_shape(x, axis=-1):
    shape = rules.shape_of(x)
    rules.normalize_axes(axis, len(shape))
    return SymbolicTensor(shape, rules.dtype_of(x))


@define("sparsemax", shape=_sparsemax_shape, save_outputs=(0,))
def sparsemax(x, axis=-1):
    x = np.moveaxis(np.asarray(x), axis, -1)
    ordered = -np.sort(-x, axis=-1)
    ranks = np.arange(1, x.shape[-1] + 1, dtype=x.dtype)
    cumulative = np.cumsum(ordered, axis=-1)
    in_support = 1 + ranks * ordered > cumulative
    size = np.sum(in_support, axis=-1, keepdims=True)
    tau = (np.take_along_axis(cumulative, size - 1, axis=-1) - 1) / size.astype(x.dtype)
    return np.moveaxis(np.maximum(x - tau, 0), -1, axis)


@sparsemax.defvjp
def _sparsemax_vjp(node, g):
    axis = node.attrs.get("axis", -1)
    support = node.outputs[0] > 0
    count = np.sum(support, axis=axis, keepdims=True)
    mean = np.sum(g * support, axis=axis, keepdims=True) / count
    return (((g - mean) * support).astype(node.outputs[0].dtype),)
