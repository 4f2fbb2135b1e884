"""Reductions over axes: sums, extrema, products, moments, logsumexp, argmax, any/all.

Every reduction takes `axis=None` (all axes), an int or a sequence, and
`keepdims=False`. VJPs first reshape the output gradient to the kept-dims
shape, which then broadcasts against the input. `sum`, `mean`, `max` and
`min` have traced VJPs (gradients of any order); the others are first-order.
"""

import math as _math

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._inplace import as_float, scratch
from ._registry import define
from ._traced import constant, ops


def _axes(node):
    return rules.normalize_axes(node.attrs.get("axis"), len(node.input_shapes[0]))


def _kept_shape(node):
    axes = _axes(node)
    return tuple(1 if i in axes else d for i, d in enumerate(node.input_shapes[0]))


def _kept(node, g):
    """The output gradient reshaped so that it broadcasts against the input."""
    return np.reshape(g, _kept_shape(node))


def _kept_traced(node, g):
    """`_kept` with the `reshape` op, for traced VJPs."""
    return ops.reshape(g, shape=_kept_shape(node))


def _count(node):
    shape = node.input_shapes[0]
    return _math.prod(shape[a] for a in _axes(node))


def _float_reduction(x, axis=None, keepdims=False, **_):
    spec = rules.reduction(x, axis=axis, keepdims=keepdims)
    inexact = np.issubdtype(spec.dtype, np.inexact) or spec.dtype.name == "bfloat16"
    dtype = spec.dtype if inexact else np.dtype("float64")
    return SymbolicTensor(spec.shape, dtype)


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@define("sum", shape=rules.reduction)
def sum_(x, axis=None, keepdims=False):
    return np.sum(x, axis=_np_axis(axis), keepdims=keepdims)


@sum_.defvjp(traceable=True)
def _sum_vjp(node, g):
    return (ops.broadcast_to(_kept_traced(node, g), shape=node.input_shapes[0]),)


@define("mean", shape=_float_reduction)
def mean(x, axis=None, keepdims=False):
    return np.mean(x, axis=_np_axis(axis), keepdims=keepdims)


@mean.defvjp(traceable=True)
def _mean_vjp(node, g):
    share = _kept_traced(node, g) / _count(node)
    return (ops.broadcast_to(share, shape=node.input_shapes[0]),)


def _extremum_vjp(node, g):
    """Splits the gradient evenly among the entries that attain the extremum."""
    x, out = constant(node.inputs[0]), constant(node.outputs[0])
    hits = np.equal(x, _kept(node, out))
    counts = np.sum(hits, axis=_axes(node), keepdims=True, dtype=g.dtype)
    return (_kept_traced(node, g) * (hits / counts),)


@define("max", shape=rules.reduction, save_inputs=(0,), save_outputs=(0,))
def max_(x, axis=None, keepdims=False):
    return np.max(x, axis=_np_axis(axis), keepdims=keepdims)


max_.defvjp(_extremum_vjp, traceable=True)


@define("min", shape=rules.reduction, save_inputs=(0,), save_outputs=(0,))
def min_(x, axis=None, keepdims=False):
    return np.min(x, axis=_np_axis(axis), keepdims=keepdims)


min_.defvjp(_extremum_vjp, traceable=True)


@define("prod", shape=rules.reduction, save_inputs=(0,))
def prod(x, axis=None, keepdims=False):
    return np.prod(x, axis=_np_axis(axis), keepdims=keepdims)


@prod.defvjp
def _prod_vjp(node, g):
    # d prod / d x_i is the product of all other entries; computing it from
    # prefix and suffix products (rather than prod / x_i) is exact at zeros.
    x = np.asarray(node.inputs[0])
    axes = _axes(node)
    rest = tuple(a for a in range(x.ndim) if a not in axes)
    moved = np.transpose(x, rest + axes)
    flat = moved.reshape(moved.shape[:len(rest)] + (-1,))
    before = np.ones_like(flat)
    np.cumprod(flat[..., :-1], axis=-1, out=before[..., 1:])
    after = np.ones_like(flat)
    np.cumprod(flat[..., :0:-1], axis=-1, out=after[..., -2::-1])
    before *= after
    others = np.transpose(before.reshape(moved.shape), np.argsort(rest + axes))
    return (others * _kept(node, g),)


def _truth_shape(x, axis=None, keepdims=False, **_):
    spec = rules.reduction(x, axis=axis, keepdims=keepdims)
    return SymbolicTensor(spec.shape, "bool")


@define("any", shape=_truth_shape, differentiable=False)
def any_(x, axis=None, keepdims=False):
    """Whether any entry along `axis` is true (non-zero)."""
    return np.asarray(np.any(x, axis=_np_axis(axis), keepdims=keepdims))


@define("all", shape=_truth_shape, differentiable=False)
def all_(x, axis=None, keepdims=False):
    """Whether every entry along `axis` is true (non-zero)."""
    return np.asarray(np.all(x, axis=_np_axis(axis), keepdims=keepdims))


def _arg_shape(x, axis=None, keepdims=False, **_):
    spec = rules.reduction(x, axis=axis, keepdims=keepdims)
    return SymbolicTensor(spec.shape, "int64")


@define("argmax", shape=_arg_shape, differentiable=False)
def argmax(x, axis=None, keepdims=False):
    """Index of the first maximum along `axis` (of the flattened tensor if None)."""
    return np.argmax(x, axis=axis, keepdims=keepdims).astype(np.int64, copy=False)


@define("argmin", shape=_arg_shape, differentiable=False)
def argmin(x, axis=None, keepdims=False):
    """Index of the first minimum along `axis` (of the flattened tensor if None)."""
    return np.argmin(x, axis=axis, keepdims=keepdims).astype(np.int64, copy=False)


@define("logsumexp", shape=_float_reduction, save_inputs=(0,), save_outputs=(0,))
def logsumexp(x, axis=None, keepdims=False):
    """`log(sum(exp(x)))`, shifted by the maximum so it never overflows."""
    axis = _np_axis(axis)
    x = as_float(x)
    shift = np.max(x, axis=axis, keepdims=True)
    # An all -inf (or inf) slice would give inf - inf; shift by 0 there instead.
    shift = np.where(np.isfinite(shift), shift, 0)
    z = np.subtract(x, shift)
    z = np.exp(z, out=scratch(z))
    total = np.sum(z, axis=axis, keepdims=True)
    with np.errstate(divide="ignore"):  # an all -inf slice has logsumexp -inf
        out = np.log(total, out=scratch(total))
    out += shift
    return out if keepdims else np.squeeze(out, axis=axis)


@logsumexp.defvjp
def _logsumexp_vjp(node, g):
    z = np.subtract(node.inputs[0], _kept(node, node.outputs[0]))
    z = np.exp(z, out=scratch(z))  # softmax over the reduced axes
    z *= _kept(node, g)
    return (z,)


def _moments(x, axis):
    """Mean (kept dims) and variance of `x` over `axis`."""
    mu = np.mean(x, axis=axis, keepdims=True)
    d = np.subtract(x, mu)
    d = np.square(d, out=scratch(d))
    return mu, np.mean(d, axis=axis, keepdims=True)


@define("var", shape=_float_reduction, save_inputs=(0,), residual=True)
def var(x, axis=None, keepdims=False):
    """Population variance (`ddof=0`, as Keras)."""
    axis = _np_axis(axis)
    mu, v = _moments(x, axis)
    return (v if keepdims else np.squeeze(v, axis=axis)), mu


@var.defvjp
def _var_vjp(node, g):
    d = np.subtract(node.inputs[0], node.residual)
    d *= _kept(node, g) * (2.0 / _count(node))
    return (d,)


@define("std", shape=_float_reduction, save_inputs=(0,), residual=True)
def std(x, axis=None, keepdims=False):
    """Population standard deviation (`ddof=0`)."""
    axis = _np_axis(axis)
    mu, v = _moments(x, axis)
    s = np.sqrt(v, out=scratch(v))
    return (s if keepdims else np.squeeze(s, axis=axis)), (mu, s)


@std.defvjp
def _std_vjp(node, g):
    mu, s = node.residual
    # Where the deviation is zero the subgradient 0 is used instead of 0/0.
    scale = np.zeros(np.shape(s), np.result_type(g, s))
    np.divide(_kept(node, g), s * _count(node), out=scale, where=s > 0)
    d = np.subtract(node.inputs[0], mu)
    d *= scale
    return (d,)
