"""Segment reductions: rows of `data` combined by the segment id of each row.

`segment_reduce` sums, multiplies, or takes the maximum or minimum of the
rows of `data` that share an id in `segment_ids` (one id per row of the
first axis). Ids outside `[0, num_segments)` are dropped, as TensorFlow's
unsorted segment ops do; an empty segment holds the reduction's identity
(0, 1, the dtype's lowest or highest value). Gradients: a row of a sum gets
its segment's gradient; ties of a maximum or minimum share it equally; a
product's row gets the product of the others in its segment.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define

_UFUNCS = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


def _identity(reduction, dtype):
    if reduction == "sum":
        return 0
    if reduction == "prod":
        return 1
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return info.min if reduction == "max" else info.max


def _segment_shape(data, segment_ids, num_segments, reduction="sum"):
    shape, ids = rules.shape_of(data), rules.shape_of(segment_ids)
    if len(ids) != 1 or not shape or None not in (ids[0], shape[0]) and ids[0] != shape[0]:
        raise ValueError(
            f"segment_{reduction} needs one segment id per row of data (a 1-D "
            f"segment_ids as long as data's first axis). Received: data.shape={shape}, "
            f"segment_ids.shape={ids}")
    return SymbolicTensor((num_segments,) + shape[1:], rules.dtype_of(data))


def _valid(segment_ids, num_segments):
    ids = np.asarray(segment_ids).astype(np.int64)
    return ids, (ids >= 0) & (ids < num_segments)


@define("segment_reduce", shape=_segment_shape, save_inputs=(0, 1), save_outputs=(0,))
def segment_reduce(data, segment_ids, num_segments, reduction="sum"):
    data = np.asarray(data)
    ids, keep = _valid(segment_ids, num_segments)
    out = np.full((num_segments,) + data.shape[1:], _identity(reduction, data.dtype), data.dtype)
    _UFUNCS[reduction].at(out, ids[keep], data[keep])
    return out


@segment_reduce.defvjp
def _segment_reduce_vjp(node, g):
    data, segment_ids = node.inputs
    reduction = node.attrs.get("reduction", "sum")
    ids, keep = _valid(segment_ids, node.attrs["num_segments"])
    safe = np.where(keep, ids, 0)
    mask = keep.reshape((-1,) + (1,) * (data.ndim - 1))
    spread = g[safe] * mask
    if reduction == "sum":
        return spread.astype(data.dtype), None
    out = node.outputs[0]
    if reduction in ("max", "min"):
        chosen = (data == out[safe]) & mask
        ties = np.zeros_like(out)
        np.add.at(ties, ids[keep], chosen[keep].astype(out.dtype))
        return (spread * chosen / np.maximum(ties[safe], 1)).astype(data.dtype), None
    # prod: the product of the segment's other rows, exact even with zeros.
    zero = data == 0
    zeros = np.zeros(out.shape, np.int64)
    np.add.at(zeros, ids[keep], zero[keep].astype(np.int64))
    nonzero_prod = np.ones_like(out)
    np.multiply.at(nonzero_prod, ids[keep], np.where(zero, 1, data)[keep])
    count = zeros[safe]
    others = np.where(zero, np.where(count == 1, nonzero_prod[safe], 0),
                      np.where(count == 0, nonzero_prod[safe] / np.where(zero, 1, data), 0))
    return (spread * others).astype(data.dtype), None
