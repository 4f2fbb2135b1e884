"""Image resizing as constant interpolation matrices and gathers.

The backend resizes each axis separately, by a half-pixel interpolation
matrix (bilinear) or a half-pixel index gather (nearest). The sizes are known
when exporting, so the same matrices and indices become constants of the
graph: the exported model computes exactly what the backend does, without
depending on how a runtime reads ONNX `Resize`'s coordinate modes.
"""

import numpy as np

from ...backend.numpy_backend.resize import interpolation_matrix, nearest_indices
from ._common import positive_axes
from .registry import translates


def _resized_axes(g, op):
    x = op.inputs[0]
    size = op.attrs["size"]
    axes = positive_axes(op.attrs.get("axes", (1, 2)), len(x.shape))
    size = (size,) * len(axes) if isinstance(size, (int, np.integer)) else tuple(size)
    for a in axes:
        if x.shape[a] is None:
            raise g.error("a resize of an axis whose length is unknown at export time")
    return [(a, x.shape[a], int(s)) for a, s in zip(axes, size) if x.shape[a] != s]


@translates("resize_bilinear")
def _resize_bilinear(g, op):
    dtype = op.outputs[0].dtype
    value = g.value(op.inputs[0], dtype)
    rank = len(op.inputs[0].shape)
    for axis, length, size in _resized_axes(g, op):
        # Move the axis last, multiply by the (in, out) matrix, move it back.
        perm = [i for i in range(rank) if i != axis] + [axis]
        back = list(np.argsort(perm))
        moved = g.node("Transpose", [value], perm=perm)
        matrix = g.constant(interpolation_matrix(length, size, dtype).T, dtype, hint="resize")
        value = g.node("Transpose", [g.node("MatMul", [moved, matrix])], perm=back)
    return value if _resized_axes(g, op) else g.node("Identity", [value])


@translates("resize_nearest")
def _resize_nearest(g, op):
    value = g.value(op.inputs[0])
    for axis, length, size in _resized_axes(g, op):
        indices = g.constant(nearest_indices(length, size).astype(np.int64), hint="nearest")
        value = g.node("Gather", [value, indices], axis=axis)
    return value if _resized_axes(g, op) else g.node("Identity", [value])
