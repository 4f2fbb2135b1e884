"""`sparsemax`: the threshold `tau` from the scores sorted in descending order (`TopK`),
their running sums and the support size, then `max(x - tau, 0)`."""

import numpy as np

from .registry import translates


@translates("sparsemax")
def _sparsemax(g, op):
    x = op.inputs[0]
    dtype = op.outputs[0].dtype
    axis = int(op.attrs.get("axis", -1)) % len(x.shape)
    value = g.value(x, dtype)
    axis_ = g.ints([axis], "axis")
    length = g.node("Gather", [g.node("Shape", [value]), axis_], axis=0)
    ordered, _ = g.node("TopK", [value, length], outputs=2, axis=axis, largest=1, sorted=1)
    cumulative = g.node("CumSum", [ordered, g.scalar(axis, np.int64, "axis")])
    ones = g.node("ConstantOfShape", [g.node("Shape", [value])],
                  value=g.onnx.numpy_helper.from_array(np.ones(1, dtype)))
    ranks = g.node("CumSum", [ones, g.scalar(axis, np.int64, "axis")])  # 1, 2, 3, ...
    one = g.scalar(1, dtype)
    support = g.node("Greater", [g.node("Add", [one, g.node("Mul", [ranks, ordered])]),
                                 cumulative])
    size = g.node("ReduceSum", [g.cast(support, np.int64), axis_], keepdims=1)
    total = g.node("GatherElements", [cumulative, g.node("Sub", [size, g.ints([1], "one")])],
                   axis=axis)
    tau = g.node("Div", [g.node("Sub", [total, one]), g.cast(size, dtype)])
    return g.node("Relu", [g.node("Sub", [value, tau])])
