"""`resample` (the kernel of `resize` and `scale_and_translate`) as constant matrices.

The backend resamples each axis by a matrix built from the sizes; they are
known at export time, so the same matrices become constants and the graph
multiplies by them: the exported model computes what the backend does, for
every interpolation, antialiasing, scale and translation.
"""

import numpy as np

from ...backend.numpy_backend.resampling import KERNELS, kernel_matrix, resize_matrix
from .registry import translates


@translates("resample")
def _resample(g, op):
    x = op.inputs[0]
    attrs = op.attrs
    dtype = op.outputs[0].dtype
    rank = len(x.shape)
    value = g.value(x, dtype)
    scales, translations = attrs.get("scales"), attrs.get("translations")
    for k, (axis, size) in enumerate(zip(attrs["axes"], attrs["sizes"])):
        axis = int(axis) % rank
        length = x.shape[axis]
        if length is None:
            raise g.error("a resampling of an axis whose length is unknown at export time")
        method, antialias = attrs.get("method", "bilinear"), attrs.get("antialias", False)
        if scales is None:
            matrix = resize_matrix(length, int(size), method, antialias)
        else:
            shift = float(translations[k])
            matrix = kernel_matrix(length, int(size), float(scales[k]), shift, KERNELS[method],
                                   antialias)
        # Move the axis last, multiply by the (in, out) matrix, move it back.
        perm = [i for i in range(rank) if i != axis] + [axis]
        moved = g.node("Transpose", [value], perm=perm)
        product = g.node("MatMul", [moved, g.constant(np.asarray(matrix).T, dtype,
                                                      hint="resample")])
        value = g.node("Transpose", [product], perm=[int(i) for i in np.argsort(perm)])
    return g.node("Identity", [value])
