"""`gather_rows`: rows of a table gathered by integer indices (the Embedding kernel).

The gradient is a scatter-add of the output gradient's rows into a zero table.
`np.add.at` does that one element at a time; here the indices are sorted
once, the first occurrence of every index is written with one fancy
assignment, the k-th occurrences (k = 1, 2, ...) are added in further rounds
(the indices of one round are distinct, so `+=` is exact), and the rare
indices occurring more often than `_ROUNDS` times (padding, frequent tokens)
have their remaining rows summed per index with one `np.add.reduceat`.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define

_ROUNDS = 4


def _lookup_shape(embeddings, indices):
    table = rules.shape_of(embeddings)
    return SymbolicTensor(tuple(rules.shape_of(indices)) + tuple(table[1:]),
                          rules.dtype_of(embeddings))


@define("gather_rows", shape=_lookup_shape, save_inputs=(1,))
def gather_rows(table, indices):
    """`table[indices]`: one row (`table[i]`, of any shape) per index.

    Indices must lie in `[0, N)`; the `Embedding` layer checks them and
    reports the offending value. The trainer also gathers the unmasked entries
    of masked outputs with it.
    """
    return np.take(table, indices, axis=0)


def scatter_add_rows(indices, rows, num_rows):
    """A `(num_rows, D)` array with `rows[k]` added into row `indices[k]`."""
    if indices.size == 0:
        return np.zeros((num_rows, rows.shape[1]), rows.dtype)
    keys = indices.astype(np.uint16) if num_rows <= 1 << 16 else indices
    order = np.argsort(keys, kind="stable")   # 16-bit keys: numpy's radix sort, ~6x faster
    ids = indices[order]
    starts = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    counts = np.diff(np.append(starts, ids.size))
    out = np.zeros((num_rows, rows.shape[1]), rows.dtype)
    out[ids[starts]] = rows[order[starts]]
    for k in range(1, min(int(counts.max()), _ROUNDS)):
        at = starts[counts > k] + k
        out[ids[at]] += rows[order[at]]
    heavy = np.flatnonzero(counts > _ROUNDS)
    if heavy.size:
        lengths = counts[heavy] - _ROUNDS
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        positions = np.arange(lengths.sum()) + np.repeat(starts[heavy] + _ROUNDS - offsets,
                                                         lengths)
        out[ids[starts[heavy]]] += np.add.reduceat(rows[order[positions]], offsets, axis=0)
    return out


@gather_rows.defvjp
def _gather_rows_vjp(node, g):
    indices = np.asarray(node.inputs[1])
    table_shape = node.input_shapes[0]
    if (g.ndim == 3 and len(table_shape) == 2 and not g.flags.c_contiguous
            and g.transpose(1, 0, 2).flags.c_contiguous):
        # e.g. from a recurrent op, whose input gradient is time-major in memory:
        # visit the rows in memory order instead of copying them.
        g, indices = g.transpose(1, 0, 2), indices.T
    rows = g.reshape(indices.size, -1)
    grad = scatter_add_rows(indices.reshape(-1), rows, table_shape[0])
    return grad.reshape(table_shape), None
