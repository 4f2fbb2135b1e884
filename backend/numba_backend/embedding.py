"""The gradient of `gather_rows` (the Embedding kernel) as one compiled scatter-add.

numpy has no fast unbuffered scatter-add (`np.add.at` goes element by
element), so the numpy kernel sorts the indices and adds in rounds; compiled,
the scatter is a single loop over the rows in order, with no sort. The loop
is serial: rows with the same index must be added one after another, and in
a fixed order, for the result not to depend on threads.

Indices are checked first (a compiled loop would not), and anything out of
range, or an unusual dtype, goes to the numpy kernel, which reports it.
"""

import numpy as np

from ._jit import jit
from ._registry import override_vjp


@jit()
def _scatter_add(indices, rows, out):
    for k in range(indices.shape[0]):
        target = out[indices[k]]
        row = rows[k]
        for j in range(row.shape[0]):
            target[j] += row[j]


@override_vjp("gather_rows")
def _gather_rows_vjp(node, g):
    indices = np.asarray(node.inputs[1])
    table_shape = node.input_shapes[0]
    if (g.dtype not in (np.float32, np.float64) or indices.dtype.kind not in "iu"
            or indices.size == 0):
        return NotImplemented
    if (g.ndim == 3 and len(table_shape) == 2 and not g.flags.c_contiguous
            and g.transpose(1, 0, 2).flags.c_contiguous):
        # time-major in memory (from a recurrent op): visit the rows in memory order
        g, indices = g.transpose(1, 0, 2), indices.T
    flat = indices.reshape(-1)
    if flat.min() < 0 or flat.max() >= table_shape[0]:
        return NotImplemented
    rows = np.ascontiguousarray(g).reshape(flat.size, -1)
    out = np.zeros((table_shape[0], rows.shape[1]), g.dtype)
    _scatter_add(np.ascontiguousarray(flat), rows, out)
    return out.reshape(table_shape), None
