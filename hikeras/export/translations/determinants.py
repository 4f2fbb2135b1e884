"""`det` as ONNX's `Det`, and `slogdet`: the sign and log-magnitude of the determinants
from it.

The determinant is computed whole, so `log|det|` is exact while the
determinant itself is within the float range (numpy's `slogdet` sums the logs
of the LU pivots and goes further, to determinants that overflow).
"""

from .registry import translates


@translates("slogdet")
def _slogdet(g, op):
    det = g.node("Det", [g.value(op.inputs[0], op.outputs[0].dtype)])
    return g.node("Sign", [det]), g.node("Log", [g.node("Abs", [det])])


@translates("det")
def _det(g, op):
    return g.node("Det", [g.value(op.inputs[0], op.outputs[0].dtype)])
