"""Fused normalisation kernels: `batch_norm` (training mode) and `layer_norm`.

Both normalise `x` by the mean and (biased) variance over some axes and then
apply an optional scale `gamma` and offset `beta`. Doing it in one op with a
hand-written backward keeps the graph to one node and lets the VJP reuse what
the forward already computed: the normalised input `xhat` and the inverse
standard deviation `inv = 1 / sqrt(var + epsilon)`, kept as the residual.

With `y = xhat * gamma + beta` and `N` values per statistic, the input
gradient is the classic

    dx = inv * (u - mean(u) - xhat * mean(u * xhat)),    u = g * gamma,

where the means run over the normalised axes. `gamma` and `beta` may be
`None` (no scale / no offset).
"""

import math

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import unbroadcast
from ._inplace import as_float
from ._registry import define


def _float_dtype(x):
    dtype = np.dtype(rules.dtype_of(x))
    if np.issubdtype(dtype, np.inexact):
        return dtype
    return np.dtype("float64") if dtype.itemsize >= 4 else np.dtype("float32")


# Rows folded into one when summing over leading axes: numpy reduces axis 0
# of an (M, C) array row by row, an inner loop of only C elements, which is
# an order of magnitude slower than summing rows about this wide.
_WIDE_ROW = 2048


def _sum(x, axes):
    """`np.sum(x, axes, keepdims=True)`, fast when `axes` are the leading ones."""
    if axes != tuple(range(x.ndim - 1)) or not x.flags.c_contiguous or x.ndim < 2:
        return np.sum(x, axis=axes, keepdims=True)
    rows = x.reshape(-1, x.shape[-1])
    m, c = rows.shape
    fold = max(1, min(m, _WIDE_ROW // max(c, 1)))
    head = m - m % fold
    total = rows[:head].reshape(-1, fold * c).sum(axis=0).reshape(fold, c).sum(axis=0)
    if head < m:
        total += rows[head:].sum(axis=0)
    return total.reshape((1,) * (x.ndim - 1) + (c,))


def _normalize(x, axes, epsilon):
    """`(xhat, inv, mean, var)` over `axes`; the statistics keep size-1 dims."""
    count = math.prod(x.shape[a] for a in axes)
    mean = _sum(x, axes)
    mean /= count
    xhat = np.subtract(x, mean)
    var = _sum(np.square(xhat), axes)
    var /= count
    inv = var + epsilon
    inv = np.sqrt(inv, out=inv)
    inv = np.reciprocal(inv, out=inv)
    xhat *= inv
    return xhat, inv, mean, var


def _scale_and_shift(xhat, gamma, beta):
    if gamma is None:
        return xhat.copy() if beta is None else xhat + beta
    out = xhat * gamma
    if beta is not None:
        out += beta
    return out


# --------------------------------------------------------------- batch_norm
def _feature_axis(axis, ndim):
    return rules.normalize_axes(axis, ndim)[0]


def _batch_axes(axis, ndim):
    feature = _feature_axis(axis, ndim)
    return tuple(a for a in range(ndim) if a != feature)


def _batch_norm_shape(x, gamma, beta, axis=-1, epsilon=1e-3):
    shape = rules.shape_of(x)
    dtype = _float_dtype(x)
    channels = (shape[_feature_axis(axis, len(shape))],)
    return (SymbolicTensor(shape, dtype), SymbolicTensor(channels, dtype),
            SymbolicTensor(channels, dtype))


@define("batch_norm", shape=_batch_norm_shape, num_outputs=3, save_inputs=(1,),
        residual=True)
def batch_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    """Batch normalisation with the batch's statistics (training mode).

    Args:
        x: input of rank >= 1.
        gamma, beta: per-feature scale and offset of shape `(C,)`, or None.
        axis: the feature axis; statistics are taken over all other axes.
        epsilon: added to the variance.

    Returns:
        `(y, mean, variance)`: the normalised output and the batch's mean and
        biased variance per feature, shape `(C,)`, for the moving averages.
    """
    x = as_float(x)
    axes = _batch_axes(axis, x.ndim)
    xhat, inv, mean, var = _normalize(x, axes, epsilon)
    shape = inv.shape
    gamma = None if gamma is None else np.reshape(gamma, shape)
    beta = None if beta is None else np.reshape(beta, shape)
    y = _scale_and_shift(xhat, gamma, beta)
    return (y, mean.reshape(-1), var.reshape(-1)), (xhat, inv)


@batch_norm.defvjp
def _batch_norm_vjp(node, grads):
    g, g_mean, g_var = grads
    xhat, inv = node.residual
    axes = _batch_axes(node.attrs.get("axis", -1), xhat.ndim)
    count = math.prod(xhat.shape[a] for a in axes)
    x_ref, gamma_ref, beta_ref = node.input_refs
    sum_g = _sum(g, axes)
    sum_gxhat = _sum(g * xhat, axes)
    dgamma = None if gamma_ref is None else sum_gxhat.reshape(node.input_shapes[1])
    dbeta = None if beta_ref is None else sum_g.reshape(node.input_shapes[2])
    dx = None
    if x_ref is not None:
        # gamma is per feature, so it factors out of the means in the
        # module docstring's formula: dx = gamma inv (g - mean(g) - xhat mean(g xhat)).
        scale = inv if node.inputs[1] is None else inv * np.reshape(node.inputs[1], inv.shape)
        dx = g - sum_g / count
        dx -= xhat * (sum_gxhat / count)
        dx *= scale
        # The statistics are outputs too: d mean / dx = 1 / N and
        # d var / dx = 2 (x - mean) / N, where x - mean = xhat / inv.
        if np.any(g_var):
            dx += xhat * (np.reshape(g_var, inv.shape) * (2.0 / count) / inv)
        if np.any(g_mean):
            dx += np.reshape(g_mean, inv.shape) * (1.0 / count)
    return dx, dgamma, dbeta


# --------------------------------------------------------------- layer_norm
def _norm_axes(axis, ndim):
    return rules.normalize_axes(axis, ndim)


def _layer_norm_shape(x, gamma, beta, axis=-1, epsilon=1e-3):
    shape = rules.shape_of(x)
    _norm_axes(axis, len(shape))
    return SymbolicTensor(shape, _float_dtype(x))


@define("layer_norm", shape=_layer_norm_shape, save_inputs=(1,), residual=True)
def layer_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    """Normalises `x` over `axis`, separately at each position of the other axes.

    Layer and group normalisation are built on it.

    Args:
        x: input of rank >= 1.
        gamma, beta: scale and offset broadcastable against `x`, or None.
        axis: an int or a tuple of axes to take the statistics over.
        epsilon: added to the variance.
    """
    x = as_float(x)
    xhat, inv, _, _ = _normalize(x, _norm_axes(axis, x.ndim), epsilon)
    return _scale_and_shift(xhat, gamma, beta), (xhat, inv)


@layer_norm.defvjp
def _layer_norm_vjp(node, g):
    xhat, inv = node.residual
    gamma = node.inputs[1]
    x_ref, gamma_ref, beta_ref = node.input_refs
    dgamma = dbeta = None
    if gamma_ref is not None:
        dgamma = unbroadcast(g * xhat, node.input_shapes[1])
    if beta_ref is not None:
        dbeta = unbroadcast(g, node.input_shapes[2])
    dx = None
    if x_ref is not None:
        axes = _norm_axes(node.attrs.get("axis", -1), xhat.ndim)
        count = math.prod(xhat.shape[a] for a in axes)
        u = g * gamma if gamma is not None else g.copy()
        mean_u = _sum(u, axes)
        mean_u /= count
        mean_uxhat = _sum(u * xhat, axes)
        mean_uxhat /= count
        u -= mean_u
        u -= xhat * mean_uxhat
        u *= inv
        dx = u
    return dx, dgamma, dbeta
