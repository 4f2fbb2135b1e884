"""`solve`, `solve_triangular` and `inv` by Gauss-Jordan elimination in an ONNX `Loop`.

ONNX has no solver or factorisation. Pass `k` of the loop picks the pivot of
column `k` among rows `k..n-1` by largest magnitude (partial pivoting, the
first of equals, as LAPACK's), swaps it into row `k`, scales it to a leading
1 and removes column `k` from every other row of the augmented matrix
`[a | b]`; after `n` passes the right part is `a^-1 b`. `inv` solves against
the identity and `solve_triangular` against `a`'s lower or upper triangle
(`Trilu`), as the backend does. Results agree with LAPACK's to rounding for
well-conditioned matrices; a singular matrix gives inf or NaN where numpy
raises.
"""

import numpy as np

from ._common import loop
from .registry import translates

_END = np.iinfo(np.int64).max


def _tail(g, shape, count):
    """The last `count` entries of the shape value `shape`."""
    return g.node("Slice", [shape, g.ints([-count], "starts"), g.ints([_END], "ends")])


def _head(g, shape, count):
    """All but the last `count` entries of the shape value `shape`."""
    return g.node("Slice", [shape, g.ints([0], "starts"), g.ints([-count], "ends")])


def _broadcast_batches(g, a, b, a_rank, b_rank):
    """`a` (..., n, n) and `b` (..., n, k) expanded to one batch shape."""
    if a_rank < b_rank:
        a = g.node("Unsqueeze", [a, g.ints(range(b_rank - a_rank), "axes")])
    elif b_rank < a_rank:
        b = g.node("Unsqueeze", [b, g.ints(range(a_rank - b_rank), "axes")])
    a_shape, b_shape = g.node("Shape", [a]), g.node("Shape", [b])
    batch = g.node("Max", [_head(g, a_shape, 2), _head(g, b_shape, 2)])
    a = g.node("Expand", [a, g.node("Concat", [batch, _tail(g, a_shape, 2)], axis=0)])
    b = g.node("Expand", [b, g.node("Concat", [batch, _tail(g, b_shape, 2)], axis=0)])
    return a, b


def gauss_jordan(g, a, b, dtype):
    """`a^-1 b` for ONNX values `a` (..., n, n) and `b` (..., n, k) of one batch shape."""
    augmented = g.node("Concat", [a, b], axis=-1)
    n = g.node("Gather", [g.node("Shape", [a]), g.scalar(-1, np.int64, "last")], axis=0)
    rows = g.node("Range", [g.scalar(0, np.int64), n, g.scalar(1, np.int64)])
    row_ids = g.node("Unsqueeze", [rows, g.ints([-1], "axes")])  # (n, 1)

    def eliminate(carried):
        m, k = carried
        column = g.node("Gather", [m, k], axis=-1)  # (..., n)
        candidates = g.node("Where", [g.node("GreaterOrEqual", [rows, k]),
                                      g.node("Abs", [column]), g.scalar(-1, dtype)])
        p = g.node("ArgMax", [candidates], axis=-1, keepdims=1)  # (..., 1)
        one_row = g.node("Concat", [_head(g, g.node("Shape", [m]), 2), g.ints([1], "one"),
                                    _tail(g, g.node("Shape", [m]), 1)], axis=0)
        p_index = g.node("Expand", [g.node("Unsqueeze", [p, g.ints([-1], "axes")]), one_row])
        pivot_row = g.node("GatherElements", [m, p_index], axis=-2)  # (..., 1, n + k)
        k_row = g.node("Gather", [m, g.node("Unsqueeze", [k, g.ints([0], "axes")])], axis=-2)
        is_k = g.node("Equal", [row_ids, k])
        is_p = g.node("Equal", [row_ids, g.node("Unsqueeze", [p, g.ints([-1], "axes")])])
        m = g.node("Where", [is_k, pivot_row, g.node("Where", [is_p, k_row, m])])
        pivot = g.node("Gather", [pivot_row, g.node("Unsqueeze", [k, g.ints([0], "axes")])],
                       axis=-1)  # (..., 1, 1)
        scaled = g.node("Div", [pivot_row, pivot])
        factors = g.node("Gather", [m, g.node("Unsqueeze", [k, g.ints([0], "axes")])], axis=-1)
        reduced = g.node("Sub", [m, g.node("Mul", [factors, scaled])])
        m = g.node("Where", [is_k, scaled, reduced])
        return g.scalar(True, np.bool_), [m, g.node("Add", [k, g.scalar(1, np.int64)])]

    start = g.scalar(0, np.int64, "k")
    solved, _ = loop(g, g.scalar(True, np.bool_), [augmented, start], [dtype, np.int64],
                     eliminate, max_trips=n)
    return g.node("Slice", [solved, g.node("Unsqueeze", [n, g.ints([0], "axes")]),
                            g.ints([_END], "ends"), g.ints([-1], "axes")])


@translates("solve", "solve_triangular")
def _solve(g, op):
    a, b = op.inputs
    dtype = op.outputs[0].dtype
    a_value, b_value = g.value(a, dtype), g.value(b, dtype)
    if op.name == "solve_triangular":
        a_value = g.node("Trilu", [a_value], upper=int(not op.attrs.get("lower", False)))
    vector = len(b.shape) == 1
    if vector:
        b_value = g.node("Unsqueeze", [b_value, g.ints([-1], "axes")])
    b_rank = 2 if vector else len(b.shape)
    a_value, b_value = _broadcast_batches(g, a_value, b_value, len(a.shape), b_rank)
    x = gauss_jordan(g, a_value, b_value, dtype)
    return g.node("Squeeze", [x, g.ints([-1], "axes")]) if vector else x


@translates("inv")
def _inv(g, op):
    x = op.inputs[0]
    dtype = op.outputs[0].dtype
    a = g.value(x, dtype)
    n = x.shape[-1]
    if n is None:
        raise g.error("the inverse of matrices of unknown size")
    identity = g.node("Expand", [g.constant(np.eye(n, dtype=dtype), hint="identity"),
                                 g.node("Shape", [a])])
    return gauss_jordan(g, a, identity, dtype)
