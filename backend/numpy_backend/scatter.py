"""Writing into tensors at indices: `scatter` (into zeros, summing duplicates, as
TensorFlow's `scatter_nd`) and `scatter_update` (into a copy of the input).

`indices` has shape `(num_updates, index_depth)`: each row addresses the
first `index_depth` axes, and an update fills the remaining axes. The
gradient of the written values gathers the output gradient at the same
indices; the input of `scatter_update` gets the output gradient except where
it was overwritten (for `reduction="add"`, everywhere).
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define

REDUCTIONS = (None, "add")


def _index(indices):
    indices = np.asarray(indices)
    return tuple(indices[..., k] for k in range(indices.shape[-1]))


def _scatter_shape(indices, values, shape, **_):
    return SymbolicTensor(tuple(shape), rules.dtype_of(values))


@define("scatter", shape=_scatter_shape, save_inputs=(0,))
def scatter(indices, values, shape):
    out = np.zeros(tuple(shape), np.result_type(values))
    np.add.at(out, _index(indices), values)
    return out


@scatter.defvjp
def _scatter_vjp(node, g):
    return None, np.asarray(g)[_index(node.inputs[0])]


def _update_shape(inputs, indices, updates, reduction=None, **_):
    return rules.same(inputs)


@define("scatter_update", shape=_update_shape, save_inputs=(1,))
def scatter_update(inputs, indices, updates, reduction=None):
    out = np.array(inputs, copy=True)
    where = _index(indices)
    updates = np.asarray(updates, out.dtype)
    if reduction is None:
        out[where] = updates
    elif reduction == "add":
        np.add.at(out, where, updates)
    else:
        raise ValueError(f"scatter_update: reduction must be one of {REDUCTIONS}. "
                         f"Received: reduction={reduction!r}")
    return out


@scatter_update.defvjp
def _scatter_update_vjp(node, g):
    where = _index(node.inputs[1])
    g = np.asarray(g)
    if node.attrs.get("reduction") is None:
        g_inputs = g.copy()
        g_inputs[where] = 0
    else:
        g_inputs = g
    return g_inputs, None, g[where]
