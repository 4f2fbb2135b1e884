"""Writing into tensors at indices: `scatter` and `scatter_update` as ONNX's `ScatterND`.

`scatter` writes into zeros and sums duplicates (`reduction="add"`, from
opset 16). `scatter_update` without reduction overwrites; where an index
repeats, numpy keeps the last update and ONNX leaves the order unspecified.
"""

import numpy as np

from .registry import translates


@translates("scatter")
def _scatter(g, op):
    indices, values = op.inputs
    dtype = op.outputs[0].dtype
    fill = g.onnx.numpy_helper.from_array(np.zeros(1, dtype))
    zeros = g.node("ConstantOfShape", [g.ints(op.attrs["shape"], "shape")], value=fill)
    return g.node("ScatterND", [zeros, g.value(indices, np.int64), g.value(values, dtype)],
                  reduction="add")


@translates("scatter_update")
def _scatter_update(g, op):
    inputs, indices, updates = op.inputs
    dtype = op.outputs[0].dtype
    reduction = op.attrs.get("reduction")
    return g.node("ScatterND", [g.value(inputs, dtype), g.value(indices, np.int64),
                                g.value(updates, dtype)],
                  reduction="add" if reduction == "add" else None)
