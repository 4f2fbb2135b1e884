"""Inverses, determinants and linear solves of (stacks of) square matrices.

Every op works on the last two axes and broadcasts over the others. Their
VJPs are the classical ones: with `A^-T = inv(A)^T`,
`d inv(A) = -A^-T g A^-T`, `d log|det A| = g A^-T`, and for `x = A^-1 b`,
`gb = A^-T g`, `gA = -gb x^T`. `solve_triangular` reads only `a`'s lower
(or upper) triangle, so its gradient with respect to `a` lives there too.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def matrix_transpose(x):
    return np.swapaxes(x, -1, -2)


def float_dtype(*specs):
    dtype = rules.result_dtype(*specs)
    return dtype if np.issubdtype(dtype, np.floating) and dtype.itemsize >= 4 else np.dtype(
        "float32")


def square_shape(op, x):
    """Checks that `x` is a (stack of) square matrices; returns its shape."""
    shape = rules.shape_of(x)
    if len(shape) < 2 or None not in shape[-2:] and shape[-1] != shape[-2]:
        raise ValueError(
            f"{op} needs square matrices in the last two axes. Received: x.shape={shape}")
    return shape


def _inv_shape(x):
    return SymbolicTensor(square_shape("inv", x), float_dtype(x))


@define("inv", shape=_inv_shape, save_outputs=(0,))
def inv(x):
    return np.linalg.inv(x).astype(float_dtype(x), copy=False)


@inv.defvjp
def _inv_vjp(node, g):
    inverse_t = matrix_transpose(node.outputs[0])
    return (-(inverse_t @ g @ inverse_t),)


def _slogdet_shape(x):
    shape = square_shape("slogdet", x)
    dtype = float_dtype(x)
    return SymbolicTensor(shape[:-2], dtype), SymbolicTensor(shape[:-2], dtype)


@define("slogdet", shape=_slogdet_shape, num_outputs=2, save_inputs=(0,))
def slogdet(x):
    """`(sign, log|det x|)`: the determinant without overflow."""
    dtype = float_dtype(x)
    sign, logabs = np.linalg.slogdet(x)
    return np.asarray(sign).astype(dtype), np.asarray(logabs).astype(dtype)


@slogdet.defvjp
def _slogdet_vjp(node, g):
    x = node.inputs[0]
    g_log = g[1][..., None, None]
    return ((g_log * matrix_transpose(np.linalg.inv(x))).astype(x.dtype),)


def _det_shape(x):
    return SymbolicTensor(square_shape("det", x)[:-2], float_dtype(x))


@define("det", shape=_det_shape, save_inputs=(0,), save_outputs=(0,))
def det(x):
    return np.asarray(np.linalg.det(x)).astype(float_dtype(x))


@det.defvjp
def _det_vjp(node, g):
    x, out = node.inputs[0], node.outputs[0]
    # d det = det * tr(A^-1 dA), so the gradient is det * A^-T (the cofactors).
    cofactors = matrix_transpose(np.linalg.inv(x)) * out[..., None, None]
    return ((g[..., None, None] * cofactors).astype(x.dtype),)


def _solve_shape(a, b, **_):
    sa, sb = square_shape("solve", a), rules.shape_of(b)
    if not sb or sb[0 if len(sb) == 1 else -2] not in (None, sa[-1]) and sa[-1] is not None:
        raise ValueError(
            "solve: b needs as many rows as a has columns. "
            f"Received: a.shape={sa}, b.shape={sb}")
    if len(sb) == 1:
        return SymbolicTensor(rules.broadcast_shapes(sa[:-2], ()) + sb, float_dtype(a, b))
    batch = rules.broadcast_shapes(sa[:-2], sb[:-2])
    return SymbolicTensor(batch + sb[-2:], float_dtype(a, b))


def _as_columns(b):
    """`b` as a stack of column matrices, and a function undoing that."""
    if b.ndim == 1:
        return b[:, None], lambda x: x[..., 0]
    return b, lambda x: x


def _solve_values(a, b, lower=None):
    if lower is not None:
        a = np.tril(a) if lower else np.triu(a)
    b, restore = _as_columns(np.asarray(b))
    return restore(np.linalg.solve(a, b))


def _unbroadcast(grad, shape):
    extra = grad.ndim - len(shape)
    if extra:
        grad = grad.sum(axis=tuple(range(extra)))
    stretched = tuple(i for i, d in enumerate(shape) if d == 1 and grad.shape[i] != 1)
    return grad.sum(axis=stretched, keepdims=True) if stretched else grad


def _solve_vjp_values(node, g, lower=None):
    a = node.inputs[0]
    x = node.outputs[0]
    dtype = node.output_dtypes[0]
    gb = _solve_values(matrix_transpose(a), g, None if lower is None else not lower)
    gb_cols, _ = _as_columns(gb)
    x_cols, _ = _as_columns(x)
    ga = -(gb_cols @ matrix_transpose(x_cols))
    if lower is not None:
        ga = np.tril(ga) if lower else np.triu(ga)
    return (_unbroadcast(ga, node.input_shapes[0]).astype(dtype),
            _unbroadcast(gb, node.input_shapes[1]).astype(dtype))


@define("solve", shape=_solve_shape, save_inputs=(0,), save_outputs=(0,))
def solve(a, b):
    """`x` with `a @ x = b`; a 1-D `b` is one right-hand side."""
    return _solve_values(a, b).astype(float_dtype(a, b), copy=False)


@solve.defvjp
def _solve_vjp(node, g):
    return _solve_vjp_values(node, g)


@define("solve_triangular", shape=_solve_shape, save_inputs=(0,), save_outputs=(0,))
def solve_triangular(a, b, lower=False):
    """`solve` reading only `a`'s lower (`lower=True`) or upper triangle."""
    return _solve_values(a, b, lower).astype(float_dtype(a, b), copy=False)


@solve_triangular.defvjp
def _solve_triangular_vjp(node, g):
    return _solve_vjp_values(node, g, node.attrs.get("lower", False))
