"""`cholesky` and `lu_factor` column by column in an ONNX `Loop` (ONNX has no
factorisation).

Pass `j` of `cholesky` computes column `j` of the lower factor from `x`'s
column and the columns already found: `s = x[:, j] - L L[j]^T`, then
`sqrt(s_j)` on the diagonal and `s / sqrt(s_j)` below (only `x`'s lower
triangle is read, as LAPACK does). Pass `k` of `lu_factor` is the backend's
elimination step: the largest-magnitude pivot of column `k` among rows
`k..n-1` (the first of equals) is swapped into row `k` and recorded, the
column below it divided by it, and the trailing block updated. A matrix that
is not positive definite (or a zero pivot) gives NaN or inf where the eager
op raises.
"""

import numpy as np

from ._common import loop
from .registry import translates


def _square(g, op):
    """The input in the output dtype, its size `n` (an int64 scalar value), the row and
    column ids `(n, 1)` and `(n,)`."""
    dtype = op.outputs[0].dtype
    x = g.value(op.inputs[0], dtype)
    n = g.node("Gather", [g.node("Shape", [x]), g.scalar(-1, np.int64, "last")], axis=0)
    columns = g.node("Range", [g.scalar(0, np.int64), n, g.scalar(1, np.int64)])
    return x, dtype, n, g.node("Unsqueeze", [columns, g.ints([-1], "axes")]), columns


def _at(g, k):
    return g.node("Unsqueeze", [k, g.ints([0], "axes")])


@translates("cholesky")
def _cholesky(g, op):
    x, dtype, n, rows, columns = _square(g, op)
    rank = len(op.inputs[0].shape)
    to_column = list(range(rank - 2)) + [rank - 1, rank - 2]

    def next_column(carried):
        factor, j = carried
        row_j = g.node("Gather", [factor, _at(g, j)], axis=-2)  # (..., 1, n)
        known = g.node("MatMul", [factor, g.node("Transpose", [row_j], perm=to_column)])
        s = g.node("Sub", [g.node("Gather", [x, _at(g, j)], axis=-1), known])  # (..., n, 1)
        root = g.node("Sqrt", [g.node("Gather", [s, _at(g, j)], axis=-2)])  # (..., 1, 1)
        below = g.node("Where", [g.node("Greater", [rows, j]), g.node("Div", [s, root]),
                                 g.scalar(0, dtype)])
        column = g.node("Where", [g.node("Equal", [rows, j]), root, below])
        factor = g.node("Where", [g.node("Equal", [columns, j]), column, factor])
        return g.scalar(True, np.bool_), [factor, g.node("Add", [j, g.scalar(1, np.int64)])]

    zeros = g.node("ConstantOfShape", [g.node("Shape", [x])],
                   value=g.onnx.numpy_helper.from_array(np.zeros(1, dtype)))
    factor, _ = loop(g, g.scalar(True, np.bool_), [zeros, g.scalar(0, np.int64, "j")],
                     [dtype, np.int64], next_column, max_trips=n)
    return factor


@translates("lu_factor")
def _lu_factor(g, op):
    x, dtype, n, rows, columns = _square(g, op)
    shape = g.node("Shape", [x])
    batch = g.node("Slice", [shape, g.ints([0], "starts"), g.ints([-2], "ends")])
    one_row = g.node("Concat", [batch, g.ints([1], "one"),
                                g.node("Slice", [shape, g.ints([-1], "starts"),
                                                 g.ints([np.iinfo(np.int64).max], "ends")])],
                     axis=0)
    zero = g.scalar(0, dtype)

    def eliminate(carried):
        m, pivots, k = carried
        column = g.node("Gather", [m, k], axis=-1)  # (..., n)
        candidates = g.node("Where", [g.node("GreaterOrEqual", [columns, k]),
                                      g.node("Abs", [column]), g.scalar(-1, dtype)])
        p = g.node("ArgMax", [candidates], axis=-1, keepdims=1)  # (..., 1)
        pivots = g.node("Where", [g.node("Equal", [columns, k]), p, pivots])
        p_index = g.node("Expand", [g.node("Unsqueeze", [p, g.ints([-1], "axes")]), one_row])
        pivot_row = g.node("GatherElements", [m, p_index], axis=-2)  # (..., 1, n)
        k_row = g.node("Gather", [m, _at(g, k)], axis=-2)
        is_p = g.node("Equal", [rows, g.node("Unsqueeze", [p, g.ints([-1], "axes")])])
        m = g.node("Where", [g.node("Equal", [rows, k]), pivot_row,
                             g.node("Where", [is_p, k_row, m])])
        pivot = g.node("Gather", [pivot_row, _at(g, k)], axis=-1)  # (..., 1, 1)
        safe = g.node("Where", [g.node("Equal", [pivot, zero]), g.scalar(1, dtype), pivot])
        below = g.node("Greater", [rows, k])  # (n, 1)
        factors = g.node("Where", [below, g.node("Div", [g.node("Gather", [m, _at(g, k)],
                                                                axis=-1), safe]), zero])
        right = g.node("Where", [g.node("Greater", [columns, k]), pivot_row, zero])
        m = g.node("Sub", [m, g.node("Mul", [factors, right])])
        m = g.node("Where", [g.node("And", [below, g.node("Equal", [columns, k])]), factors, m])
        return g.scalar(True, np.bool_), [m, pivots, g.node("Add", [k, g.scalar(1, np.int64)])]

    pivots = g.node("ConstantOfShape", [g.node("Slice", [shape, g.ints([0], "starts"),
                                                         g.ints([-1], "ends")])],
                    value=g.onnx.numpy_helper.from_array(np.zeros(1, np.int64)))
    lu, pivots, _ = loop(g, g.scalar(True, np.bool_), [x, pivots, g.scalar(0, np.int64, "k")],
                         [dtype, np.int64, np.int64], eliminate, max_trips=n)
    return lu, g.cast(pivots, op.outputs[1].dtype)
