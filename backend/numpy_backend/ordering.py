"""Ops along one axis: running sums and products, sorting and its permutations.

`sort` keeps the permutation it applied, so its gradient is a scatter of
the output gradient back through it (what TensorFlow's `top_k` gradient
does). `argsort` and `argpartition` return indices and have no gradient.
Indices are int32, as on Keras's TensorFlow backend.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def _along_axis(x, axis=-1, **_):
    shape = rules.shape_of(x)
    rules.normalize_axes(axis, max(len(shape), 1))
    return SymbolicTensor(shape, rules.dtype_of(x))


def _indices_along_axis(x, axis=-1, **_):
    return SymbolicTensor(_along_axis(x, axis).shape, "int32")


@define("cumsum", shape=_along_axis)
def cumsum(x, axis=-1):
    """Running sum; integers keep their dtype (numpy would widen int32 to int64)."""
    return np.cumsum(x, axis=axis, dtype=np.result_type(x))


@cumsum.defvjp
def _cumsum_vjp(node, g):
    axis = node.attrs.get("axis", -1)
    return (np.flip(np.cumsum(np.flip(g, axis), axis=axis), axis),)


@define("cumprod", shape=_along_axis, save_inputs=(0,))
def cumprod(x, axis=-1):
    return np.cumprod(x, axis=axis, dtype=np.result_type(x))


@cumprod.defvjp
def _cumprod_vjp(node, g):
    axis = node.attrs.get("axis", -1)
    x = np.moveaxis(np.asarray(node.inputs[0]), axis, -1)
    g = np.moveaxis(np.asarray(g), axis, -1)
    if np.all(x != 0):
        # d y_j / d x_i = y_j / x_i for j >= i: one reversed running sum.
        weighted = g * np.cumprod(x, axis=-1)
        grad = np.flip(np.cumsum(np.flip(weighted, -1), axis=-1), -1) / x
    else:
        grad = _cumprod_grad_with_zeros(x, g)
    return (np.moveaxis(grad, -1, axis).astype(node.inputs[0].dtype, copy=False),)


def _cumprod_grad_with_zeros(x, g):
    """The exact gradient where some entries are zero (no division).

    d y_j / d x_i is the product of x_k over k <= j, k != i: the running
    product before i times the product from i + 1 to j.
    """
    n = x.shape[-1]
    grad = np.zeros_like(x)
    before = np.ones(x.shape[:-1], x.dtype)
    for i in range(n):
        after = before.copy()
        total = g[..., i] * after
        for j in range(i + 1, n):
            after = after * x[..., j]
            total = total + g[..., j] * after
        grad[..., i] = total
        before = before * x[..., i]
    return grad


@define("sort", shape=_along_axis, residual=True)
def sort(x, axis=-1):
    order = np.argsort(x, axis=axis, kind="stable")
    return np.take_along_axis(x, order, axis=axis), order


@sort.defvjp
def _sort_vjp(node, g):
    grad = np.zeros(node.input_shapes[0], g.dtype)
    np.put_along_axis(grad, node.residual, g, axis=node.attrs.get("axis", -1))
    return (grad,)


@define("argsort", shape=_indices_along_axis, differentiable=False)
def argsort(x, axis=-1):
    return np.argsort(x, axis=axis, kind="stable").astype(np.int32)


@define("argpartition", shape=_indices_along_axis, differentiable=False)
def argpartition(x, kth, axis=-1):
    return np.argpartition(x, kth, axis=axis).astype(np.int32)
