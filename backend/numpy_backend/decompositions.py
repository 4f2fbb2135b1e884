"""Matrix decompositions: Cholesky, symmetric eigen, SVD, QR, general eigen, LU.

Each works on the last two axes of a stack of matrices. The VJPs are the
standard ones for real matrices. `cholesky` and `eigh` read only the lower
triangle (as LAPACK does), so their gradients are the true derivatives of
that: lower-triangular, with the off-diagonal entries counting twice (for a
symmetric perturbation this equals the symmetric gradient TensorFlow
reports). `eig` (complex results) and `lu_factor` (pivots) have no gradient,
and neither do `svd`'s singular vectors when `full_matrices` pads them
beyond the matrix's smaller side.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define
from .matrix_solve import float_dtype, square_shape
from .matrix_solve import matrix_transpose as _t


def _lower_form(sym):
    """The gradient w.r.t. a matrix read only through its lower triangle, from the
    symmetric gradient `sym`: off-diagonal entries twice, the diagonal once."""
    return np.tril(sym + _t(sym)) - sym * np.eye(sym.shape[-1], dtype=sym.dtype)


def _sym(x):
    return 0.5 * (x + _t(x))


def _cholesky_shape(x):
    return SymbolicTensor(square_shape("cholesky", x), float_dtype(x))


@define("cholesky", shape=_cholesky_shape, save_outputs=(0,))
def cholesky(x):
    """The lower factor `L` with `L @ L^T = x` (symmetric positive definite `x`)."""
    x = np.asarray(x)
    try:
        return np.linalg.cholesky(x).astype(float_dtype(x), copy=False)
    except np.linalg.LinAlgError as error:
        raise ValueError(
            "cholesky needs symmetric positive definite matrices. "
            f"Received: x.shape={x.shape} ({error})") from None


@cholesky.defvjp
def _cholesky_vjp(node, g):
    factor = node.outputs[0]
    n = factor.shape[-1]
    eye = np.eye(n, dtype=factor.dtype)
    phi = np.tril(_t(factor) @ g)
    phi -= 0.5 * phi * eye
    inverse = np.linalg.solve(factor, np.broadcast_to(eye, factor.shape))
    sym = _sym(_t(inverse) @ phi @ inverse)
    return (_lower_form(sym),)


def _eigh_shape(x):
    shape = square_shape("eigh", x)
    dtype = float_dtype(x)
    return SymbolicTensor(shape[:-1], dtype), SymbolicTensor(shape, dtype)


@define("eigh", shape=_eigh_shape, num_outputs=2, save_outputs=(0, 1))
def eigh(x):
    """`(eigenvalues ascending, eigenvectors as columns)` of symmetric `x`'s lower triangle."""
    w, v = np.linalg.eigh(x)
    dtype = float_dtype(x)
    return w.astype(dtype, copy=False), v.astype(dtype, copy=False)


def _gap_inverse(values):
    """`F[i, j] = 1 / (values[j] - values[i])` off the diagonal, 0 on it."""
    gaps = values[..., None, :] - values[..., :, None]
    eye = np.eye(values.shape[-1], dtype=bool)
    with np.errstate(divide="ignore"):
        return np.where(eye, 0.0, 1.0 / np.where(eye, 1.0, gaps))


@eigh.defvjp
def _eigh_vjp(node, g):
    w, v = node.outputs
    gw, gv = g
    inner = _gap_inverse(w) * (_t(v) @ gv)
    inner += np.eye(w.shape[-1], dtype=w.dtype) * gw[..., None, :]
    sym = _sym(v @ inner @ _t(v))
    return (_lower_form(sym).astype(w.dtype),)


def _svd_shape(x, full_matrices=True, compute_uv=True):
    shape = rules.shape_of(x)
    if len(shape) < 2:
        raise ValueError(f"svd needs matrices (rank >= 2). Received: x.shape={shape}")
    m, n = shape[-2:]
    k = None if m is None or n is None else min(m, n)
    dtype = float_dtype(x)
    s = SymbolicTensor(shape[:-2] + (k,), dtype)
    if not compute_uv:
        return (s,)
    u_cols, v_rows = (m, n) if full_matrices else (k, k)
    return (SymbolicTensor(shape[:-2] + (m, u_cols), dtype), s,
            SymbolicTensor(shape[:-2] + (v_rows, n), dtype))


@define("svd", shape=_svd_shape, num_outputs=None, save_inputs=(0,), residual=True)
def svd(x, full_matrices=True, compute_uv=True):
    """`(u, s, vh)` with `x = u @ diag(s) @ vh`, or only `s` when not `compute_uv`."""
    x = np.asarray(x)
    dtype = float_dtype(x)
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    reduced = (u.astype(dtype), s.astype(dtype), vh.astype(dtype))
    if not compute_uv:
        return (reduced[1],), reduced
    if full_matrices and x.shape[-1] != x.shape[-2]:
        u, s, vh = np.linalg.svd(x, full_matrices=True)
        return (u.astype(dtype), s.astype(dtype), vh.astype(dtype)), reduced
    return reduced, reduced


@svd.defvjp
def _svd_vjp(node, g):
    u, s, vh = node.residual
    x = node.inputs[0]
    if len(g) == 1:
        return ((u * g[0][..., None, :]) @ vh,)
    gu, gs, gvh = g
    m, n = x.shape[-2:]
    if node.attrs.get("full_matrices", True) and m != n:
        raise ValueError(
            "svd has no gradient for the singular vectors of a non-square matrix with "
            "full_matrices=True (the padding vectors are not unique); use "
            f"full_matrices=False. Received: x.shape={x.shape}")
    v, gv = _t(vh), _t(gvh)
    f = _gap_inverse(s * s)
    ut_gu, vt_gv = _t(u) @ gu, _t(v) @ gv
    eye = np.eye(s.shape[-1], dtype=s.dtype)
    inner = (f * (ut_gu - _t(ut_gu))) * s[..., None, :] + eye * gs[..., None, :] \
        + s[..., :, None] * (f * (vt_gv - _t(vt_gv)))
    grad = u @ inner @ vh
    s_inv = 1.0 / s
    if m > n:
        grad += (gu - u @ ut_gu) * s_inv[..., None, :] @ vh
    if n > m:
        grad += (u * s_inv[..., None, :]) @ _t(gv - v @ vt_gv)
    return (grad.astype(x.dtype),)


def _qr_shape(x, mode="reduced"):
    shape = rules.shape_of(x)
    if len(shape) < 2:
        raise ValueError(f"qr needs matrices (rank >= 2). Received: x.shape={shape}")
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete'. Received: mode={mode!r}")
    m, n = shape[-2:]
    k = m if mode == "complete" or m is None or n is None else min(m, n)
    dtype = float_dtype(x)
    return SymbolicTensor(shape[:-2] + (m, k), dtype), SymbolicTensor(shape[:-2] + (k, n), dtype)


@define("qr", shape=_qr_shape, num_outputs=2, save_outputs=(0, 1))
def qr(x, mode="reduced"):
    """`(q, r)` with orthonormal columns in `q`, upper-triangular `r`, `x = q @ r`."""
    q, r = np.linalg.qr(x, mode=mode)
    dtype = float_dtype(x)
    return q.astype(dtype, copy=False), r.astype(dtype, copy=False)


@qr.defvjp
def _qr_vjp(node, g):
    q, r = node.outputs
    gq, gr = g
    m, n = node.input_shapes[0][-2:]
    if m < n or node.attrs.get("mode", "reduced") == "complete" and m != n:
        raise ValueError(
            "qr has a gradient only for matrices with at least as many rows as columns "
            "(and mode='reduced' unless square). "
            f"Received: x.shape={node.input_shapes[0]}, mode={node.attrs.get('mode')!r}")
    mixed = r @ _t(gr) - _t(gq) @ q
    mixed = np.tril(mixed, -1) + _t(np.tril(mixed, -1)) + mixed * np.eye(n, dtype=q.dtype)
    b = gq + q @ mixed
    # grad = b @ R^-T: solve R x^T = b^T (R upper triangular).
    grad = _t(np.linalg.solve(r, _t(b)))
    return (grad.astype(q.dtype),)


def _eig_shape(x):
    shape = square_shape("eig", x)
    dtype = np.dtype("complex128") if float_dtype(x) == np.float64 else np.dtype("complex64")
    return SymbolicTensor(shape[:-1], dtype), SymbolicTensor(shape, dtype)


@define("eig", shape=_eig_shape, num_outputs=2, differentiable=False)
def eig(x):
    """Complex `(eigenvalues, eigenvectors)` of a general square matrix (no gradient)."""
    w, v = np.linalg.eig(x)
    dtype = _eig_shape(SymbolicTensor(np.shape(x), np.asarray(x).dtype))[0].dtype
    return w.astype(dtype), v.astype(dtype)


def _lu_shape(x):
    shape = square_shape("lu_factor", x)
    return SymbolicTensor(shape, float_dtype(x)), SymbolicTensor(shape[:-1], "int32")


@define("lu_factor", shape=_lu_shape, num_outputs=2, differentiable=False)
def lu_factor(x):
    """`(lu, pivots)`, LAPACK's partial-pivoting layout: `L` (unit diagonal) below
    the diagonal, `U` on and above it; row `i` was swapped with row `pivots[i]`."""
    lu = np.array(x, dtype=float_dtype(x))
    n = lu.shape[-1]
    pivots = np.zeros(lu.shape[:-1], np.int32)
    flat = lu.reshape((-1, n, n))
    flat_pivots = pivots.reshape((-1, n))
    rows = np.arange(flat.shape[0])
    for k in range(n):
        p = k + np.argmax(np.abs(flat[:, k:, k]), axis=-1)
        flat_pivots[:, k] = p
        row_k, row_p = flat[rows, k].copy(), flat[rows, p].copy()
        flat[rows, k], flat[rows, p] = row_p, row_k
        pivot = flat[:, k, k]
        safe = np.where(pivot == 0, 1, pivot)
        flat[:, k + 1:, k] /= safe[:, None]
        flat[:, k + 1:, k + 1:] -= flat[:, k + 1:, k, None] * flat[:, k, None, k + 1:]
    return flat.reshape(lu.shape), pivots
