"""Normalisation: `layer_norm` (layer and group normalisation) composed from reductions.

Batch normalisation at inference is a multiply and an add in the layer, so it
needs no translation of its own; the `batch_norm` op is the training-time
kernel and never runs in an inference trace.
"""

from ._common import positive_axes, rank_of
from .reductions import reduce
from .registry import translates


@translates("layer_norm")
def _layer_norm(g, op):
    x, gamma, beta = op.inputs
    dtype = op.outputs[0].dtype
    axes = positive_axes(op.attrs.get("axis", -1), rank_of(x))
    value = g.value(x, dtype)
    centred = g.node("Sub", [value, reduce(g, "ReduceMean", value, axes, True)])
    var = reduce(g, "ReduceMean", g.node("Mul", [centred, centred]), axes, True)
    eps = g.scalar(op.attrs.get("epsilon", 1e-3), dtype)
    y = g.node("Div", [centred, g.node("Sqrt", [g.node("Add", [var, eps])])])
    if gamma is not None:
        y = g.node("Mul", [y, g.value(gamma, dtype)])
    if beta is not None:
        y = g.node("Add", [y, g.value(beta, dtype)])
    return y
