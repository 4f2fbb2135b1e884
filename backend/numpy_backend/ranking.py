"""The k largest entries along the last axis: `top_k` and `in_top_k`.

Ties go to the lower index, as in TensorFlow: a stable sort of the negated
values keeps equal entries in index order. `top_k`'s values pass their
gradient back to the entries they were taken from; its indices, and
`in_top_k`, have none.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def _top_k_shape(x, k, sorted=True):
    shape = rules.shape_of(x)
    if not shape:
        raise ValueError(f"top_k needs an input of rank >= 1. Received: x.shape={shape}")
    if k < 0 or shape[-1] is not None and k > shape[-1]:
        raise ValueError(
            f"top_k: k must be in [0, x.shape[-1]]. Received: x.shape={shape}, k={k}")
    out = shape[:-1] + (k,)
    return SymbolicTensor(out, rules.dtype_of(x)), SymbolicTensor(out, "int32")


def _order(x):
    """Indices sorting the last axis from largest to smallest, ties by index, NaN first."""
    key = -np.asarray(x)
    if np.issubdtype(key.dtype, np.floating):
        key = np.where(np.isnan(key), -np.inf, key)
    elif key.dtype == np.bool_:
        key = ~np.asarray(x)
    return np.argsort(key, axis=-1, kind="stable")


@define("top_k", shape=_top_k_shape, num_outputs=2, save_outputs=(1,))
def top_k(x, k, sorted=True):
    """`(values, indices)` of the `k` largest entries of each row (last axis)."""
    x = np.asarray(x)
    indices = _order(x)[..., :k]
    return np.take_along_axis(x, indices, axis=-1), indices.astype(np.int32)


@top_k.defvjp
def _top_k_vjp(node, g):
    g_values = g[0]
    indices = node.outputs[1].astype(np.intp)
    grad = np.zeros(node.input_shapes[0], node.output_dtypes[0])
    np.put_along_axis(grad, indices, g_values, axis=-1)
    return (grad,)


def _in_top_k_shape(targets, predictions, k):
    ts, ps = rules.shape_of(targets), rules.shape_of(predictions)
    if len(ps) != 2 or len(ts) != 1 or None not in (ts[0], ps[0]) and ts[0] != ps[0]:
        raise ValueError(
            "in_top_k needs predictions of shape (batch, classes) and targets of shape "
            f"(batch,). Received: targets.shape={ts}, predictions.shape={ps}")
    return SymbolicTensor(ts, "bool")


@define("in_top_k", shape=_in_top_k_shape, differentiable=False)
def in_top_k(targets, predictions, k):
    """Whether each target's prediction is among its row's `k` largest.

    Entries tied with the target count for it (fewer than `k` entries may be
    strictly larger); a non-finite target prediction is never in the top k.
    """
    predictions = np.asarray(predictions)
    targets = np.asarray(targets).astype(np.int64)
    rows = np.arange(predictions.shape[0])
    valid = (targets >= 0) & (targets < predictions.shape[1])
    chosen = predictions[rows, np.where(valid, targets, 0)]
    larger = np.sum(predictions > chosen[:, None], axis=-1)
    finite = np.isfinite(chosen) if np.issubdtype(chosen.dtype, np.floating) else True
    return valid & finite & (larger < k)
