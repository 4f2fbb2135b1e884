"""Reductions: sum, mean, max, min, prod, any, all, arg-max/min, logsumexp, var, std."""

import numpy as np

from ._common import positive_axes, rank_of
from .registry import translates

_REDUCE = {"sum": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax", "min": "ReduceMin",
           "prod": "ReduceProd", "logsumexp": "ReduceLogSumExp"}


def reduce(g, kind, x, axes, keepdims):
    """`kind` (e.g. "ReduceMean") over `axes` of ONNX value `x`, whatever the opset.

    ReduceSum takes its axes as an input from opset 13, the others from 18.
    """
    if kind == "ReduceSum" or g.opset >= 18:
        return g.node(kind, [x, g.ints(axes, "axes")], keepdims=int(keepdims))
    return g.node(kind, [x], axes=list(axes), keepdims=int(keepdims))


def _axes(op):
    return positive_axes(op.attrs.get("axis"), rank_of(op.inputs[0]))


@translates(*_REDUCE)
def _reduction(g, op):
    dtype = op.outputs[0].dtype
    if dtype == np.bool_:  # ONNX reduces numbers only (bool from opset 20): via int32
        x = g.cast(g.value(op.inputs[0], np.bool_), np.int32)
        out = reduce(g, _REDUCE[op.name], x, _axes(op), op.attrs.get("keepdims", False))
        return g.cast(out, np.bool_)
    x = g.value(op.inputs[0], dtype)
    return reduce(g, _REDUCE[op.name], x, _axes(op), op.attrs.get("keepdims", False))


@translates("any", "all")
def _truth(g, op):
    x = g.cast(g.value(op.inputs[0], np.bool_), np.int32)
    kind = "ReduceMax" if op.name == "any" else "ReduceMin"
    return g.cast(reduce(g, kind, x, _axes(op), op.attrs.get("keepdims", False)), np.bool_)


@translates("argmax", "argmin")
def _arg(g, op):
    x = g.value(op.inputs[0])
    axis, keepdims = op.attrs.get("axis"), op.attrs.get("keepdims", False)
    if axis is None:
        x, axis = g.node("Reshape", [x, g.ints([-1])]), 0
        if keepdims:
            raise g.error("argmax/argmin with axis=None and keepdims=True")
    kind = "ArgMax" if op.name == "argmax" else "ArgMin"
    out = g.node(kind, [x], axis=int(axis), keepdims=int(bool(keepdims)))
    return g.cast(out, op.outputs[0].dtype) if op.outputs[0].dtype != np.int64 else out


@translates("var", "std")
def _moments(g, op):
    dtype = op.outputs[0].dtype
    x = g.value(op.inputs[0], dtype)
    axes, keepdims = _axes(op), op.attrs.get("keepdims", False)
    centred = g.node("Sub", [x, reduce(g, "ReduceMean", x, axes, True)])
    var = reduce(g, "ReduceMean", g.node("Mul", [centred, centred]), axes, keepdims)
    return var if op.name == "var" else g.node("Sqrt", [var])
