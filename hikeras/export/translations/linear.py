"""Products: matmul, the fused dense op, einsum."""

from ._common import activation
from .registry import translates


@translates("matmul")
def _matmul(g, op):
    dtype = op.outputs[0].dtype
    a, b = (g.value(x, dtype) for x in op.inputs)
    return g.node("MatMul", [a, b])


@translates("dense")
def _dense(g, op):
    dtype = op.outputs[0].dtype
    x, kernel, *bias = op.inputs
    y = g.node("MatMul", [g.value(x, dtype), g.value(kernel, dtype)])
    if bias and bias[0] is not None:
        y = g.node("Add", [y, g.value(bias[0], dtype)])
    return activation(g, op.attrs.get("activation", "linear"), y, dtype)


@translates("einsum")
def _einsum(g, op):
    dtype = op.outputs[0].dtype
    equation = op.attrs["equation"].replace(" ", "")
    return g.node("Einsum", [g.value(x, dtype) for x in op.inputs], equation=equation)
