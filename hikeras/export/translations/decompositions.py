"""`cholesky`, `lu_factor` and `qr` column by column in an ONNX `Loop` (ONNX has no
factorisation).

Pass `j` of `cholesky` computes column `j` of the lower factor from `x`'s
column and the columns already found: `s = x[:, j] - L L[j]^T`, then
`sqrt(s_j)` on the diagonal and `s / sqrt(s_j)` below (only `x`'s lower
triangle is read, as LAPACK does). Pass `k` of `lu_factor` is the backend's
elimination step: the largest-magnitude pivot of column `k` among rows
`k..n-1` (the first of equals) is swapped into row `k` and recorded, the
column below it divided by it, and the trailing block updated. Pass `k` of
`qr` is LAPACK's Householder step (`geqrf`): the reflection `I - tau v v^T`
that maps column `k` below the diagonal onto `beta e_k`, with `beta` of the
opposite sign to the diagonal entry (and no reflection when the column is
already zero below it), applied to `r` and accumulated into `q`; so the signs
of `q`'s columns and `r`'s rows are numpy's. A matrix that
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


@translates("qr")
def _qr(g, op):
    x = op.inputs[0]
    rows_count, cols_count = x.shape[-2:]
    if rows_count is None or cols_count is None:
        raise g.error(f"a QR decomposition of matrices of unknown size ({x.shape})")
    dtype = op.outputs[0].dtype
    rank = len(x.shape)
    r = g.value(x, dtype)
    rows = g.constant(np.arange(rows_count, dtype=np.int64).reshape(-1, 1), hint="rows")
    zero, one = g.scalar(0, dtype), g.scalar(1, dtype)
    to_row = list(range(rank - 2)) + [rank - 1, rank - 2]

    def reflect(carried):
        r, q, k = carried
        column = g.node("Gather", [r, _at(g, k)], axis=-1)  # (..., m, 1)
        alpha = g.node("Gather", [column, _at(g, k)], axis=-2)  # (..., 1, 1)
        below = g.node("Where", [g.node("Greater", [rows, k]), column, zero])
        rest = g.node("ReduceSum", [g.node("Mul", [below, below]), g.ints([-2], "axes")],
                      keepdims=1)
        trivial = g.node("Equal", [rest, zero])
        norm = g.node("Sqrt", [g.node("Add", [g.node("Mul", [alpha, alpha]), rest])])
        beta = g.node("Where", [g.node("GreaterOrEqual", [alpha, zero]),
                                g.node("Neg", [norm]), norm])
        safe_beta = g.node("Where", [trivial, one, beta])
        tau = g.node("Where", [trivial, zero, g.node("Div", [g.node("Sub", [beta, alpha]),
                                                             safe_beta])])
        gap = g.node("Where", [trivial, one, g.node("Sub", [alpha, beta])])
        v = g.node("Where", [g.node("Equal", [rows, k]), one, g.node("Div", [below, gap])])
        v_row = g.node("Transpose", [v], perm=to_row)  # (..., 1, m)
        r = g.node("Sub", [r, g.node("Mul", [g.node("Mul", [tau, v]),
                                             g.node("MatMul", [v_row, r])])])
        q = g.node("Sub", [q, g.node("Mul", [g.node("MatMul", [q, v]),
                                             g.node("Mul", [tau, v_row])])])
        return g.scalar(True, np.bool_), [r, q, g.node("Add", [k, g.scalar(1, np.int64)])]

    batch = g.node("Slice", [g.node("Shape", [r]), g.ints([0], "starts"), g.ints([-2], "ends")])
    square = g.node("Concat", [batch, g.ints([rows_count, rows_count], "square")], axis=0)
    q = g.node("Expand", [g.constant(np.eye(rows_count, dtype=dtype), hint="identity"),
                          square])
    steps = min(rows_count, cols_count)
    r, q, _ = loop(g, g.scalar(True, np.bool_), [r, q, g.scalar(0, np.int64, "k")],
                   [dtype, dtype, np.int64], reflect, max_trips=steps)
    r = g.node("Trilu", [r], upper=1)
    if op.attrs.get("mode", "reduced") == "reduced" and steps < rows_count:
        q = g.node("Slice", [q, g.ints([0], "starts"), g.ints([steps], "ends"),
                             g.ints([-1], "axes")])
        r = g.node("Slice", [r, g.ints([0], "starts"), g.ints([steps], "ends"),
                             g.ints([-2], "axes")])
    return q, r
