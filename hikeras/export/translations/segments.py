"""Segment reductions as ONNX's `ScatterND` with a reduction, into a tensor filled with
the reduction's identity (0, 1, the dtype's lowest or highest value).

Ids outside `[0, num_segments)` are dropped, as the backend does: they are sent
to one extra segment, cut off at the end. `ScatterND` takes "add" and "mul"
from opset 16, "max" and "min" from opset 18.
"""

import numpy as np

from ._common import is_float
from .registry import translates

_REDUCTIONS = {"sum": "add", "prod": "mul", "max": "max", "min": "min"}


def _identity(reduction, dtype):
    if reduction in ("sum", "prod"):
        return int(reduction == "prod")
    info = np.finfo(dtype) if is_float(dtype) else np.iinfo(dtype)
    return info.min if reduction == "max" else info.max


@translates("segment_reduce")
def _segment_reduce(g, op):
    data, segment_ids = op.inputs
    reduction = op.attrs.get("reduction", "sum")
    count = int(op.attrs["num_segments"])
    if reduction in ("max", "min") and g.opset < 18:
        raise g.error(f"segment_{reduction}, which ONNX's ScatterND reduces from opset 18 (the "
                      f"export uses opset {g.opset}); export with opset_version=18 or higher")
    dtype = np.dtype(op.outputs[0].dtype)
    values = g.value(data, dtype)
    ids = g.value(segment_ids, np.int64)
    inside = g.node("And", [g.node("GreaterOrEqual", [ids, g.scalar(0, np.int64)]),
                            g.node("Less", [ids, g.scalar(count, np.int64)])])
    ids = g.node("Where", [inside, ids, g.scalar(count, np.int64)])  # the dropped ones' row
    rows = g.node("Slice", [g.node("Shape", [values]), g.ints([1], "starts"),
                            g.ints([np.iinfo(np.int64).max], "ends")])
    shape = g.node("Concat", [g.ints([count + 1], "segments"), rows], axis=0)
    fill = g.onnx.numpy_helper.from_array(np.array([_identity(reduction, dtype)], dtype))
    start = g.node("ConstantOfShape", [shape], value=fill)
    out = g.node("ScatterND", [start, g.node("Unsqueeze", [ids, g.ints([1], "axes")]), values],
                 reduction=_REDUCTIONS[reduction])
    return g.node("Slice", [out, g.ints([0], "starts"), g.ints([count], "ends"),
                            g.ints([0], "axes")])
