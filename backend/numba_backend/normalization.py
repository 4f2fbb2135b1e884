"""`batch_norm` (channels last) and `layer_norm` (trailing axes), forward and VJP, compiled.

numpy's kernels take about a dozen whole-array passes (subtract, square,
sum, scale, shift; backward two sums and five updates), each through
memory; compiled, the forward reads `x` three times (mean, variance,
normalise) and writes `xhat` and `y` once, the backward reads `g` and
`xhat` twice and writes `dx`, all in the numpy kernels' formulas and order
of operations (see `numpy_backend/normalization.py`), so results agree to
float rounding. The residual is the numpy kernels' `(xhat, inv)`.

Determinism: a per-feature sum over many rows (batch norm's statistics and
gradients, layer norm's `dgamma`/`dbeta`) is taken in fixed chunks of rows,
whose partial sums are then added in chunk order; chunks are handed to
threads, but their size depends only on the shape, so the result is the
same on any number of threads. A layer-norm row's statistics are taken by
one thread.

Batch norm with the feature axis elsewhere than last, layer norm over axes
that are not the trailing ones (group normalisation), a scale or offset
that varies over the rows or differs in dtype, and non-float inputs take
the numpy kernels.
"""

import math

import numpy as np

from ..numpy_backend._grad import unbroadcast
from ._jit import prange
from ._registry import override, override_vjp
from ._rows import compiled, pick

_CHUNK = 256   # rows per partial sum of the per-feature sums


# ----------------------------------------------------------------- batch_norm
def _column_sums(x, partial):
    """`partial[k] = x[k*CHUNK:(k+1)*CHUNK].sum(0)`."""
    rows, chunk = x.shape[0], _CHUNK
    for k in prange(partial.shape[0]):
        acc = partial[k]
        acc[:] = 0
        for r in range(k * chunk, min(rows, (k + 1) * chunk)):
            row = x[r]
            for c in range(row.shape[0]):
                acc[c] += row[c]


def _centred_square_sums(x, mean, partial):
    rows, chunk = x.shape[0], _CHUNK
    for k in prange(partial.shape[0]):
        acc = partial[k]
        acc[:] = 0
        for r in range(k * chunk, min(rows, (k + 1) * chunk)):
            row = x[r]
            for c in range(row.shape[0]):
                d = row[c] - mean[c]
                acc[c] += d * d


def _normalise_columns(x, mean, inv, gamma, beta, xhat, y):
    for r in prange(x.shape[0]):
        row, h, out = x[r], xhat[r], y[r]
        for c in range(row.shape[0]):
            v = (row[c] - mean[c]) * inv[c]
            h[c] = v
            out[c] = v * gamma[c] + beta[c]


def _gradient_sums(g, xhat, partial_g, partial_gx):
    rows, chunk = g.shape[0], _CHUNK
    for k in prange(partial_g.shape[0]):
        acc_g, acc_gx = partial_g[k], partial_gx[k]
        acc_g[:] = 0
        acc_gx[:] = 0
        for r in range(k * chunk, min(rows, (k + 1) * chunk)):
            gr, hr = g[r], xhat[r]
            for c in range(gr.shape[0]):
                acc_g[c] += gr[c]
                acc_gx[c] += gr[c] * hr[c]


def _batch_norm_dx(g, xhat, mean_g, mean_gx, scale, dx):
    for r in prange(g.shape[0]):
        gr, hr, out = g[r], xhat[r], dx[r]
        for c in range(gr.shape[0]):
            out[c] = ((gr[c] - mean_g[c]) - hr[c] * mean_gx[c]) * scale[c]


_COLUMN_SUMS = compiled(_column_sums)
_CENTRED_SQUARE_SUMS = compiled(_centred_square_sums)
_NORMALISE_COLUMNS = compiled(_normalise_columns)
_GRADIENT_SUMS = compiled(_gradient_sums)
_BATCH_NORM_DX = compiled(_batch_norm_dx)


def _chunked(rows):
    return np.empty((-(-rows.shape[0] // _CHUNK), rows.shape[1]), rows.dtype)


def _chunk_total(kernels, rows, *args):
    """The per-column sum of `kernels` over `rows`, chunk by chunk, chunks added in order."""
    partial = _chunked(rows)
    pick(kernels, rows.size)(rows, *args, partial)
    return partial.sum(axis=0)


def _float_array(x):
    return isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64) and x.size > 0


def _per_feature(p, size, dtype, fill):
    """`p` as a contiguous `(size,)` array of `dtype` (`fill` when None), or None."""
    if p is None:
        return np.full(size, fill, dtype)
    if not isinstance(p, np.ndarray) or p.dtype != dtype or p.size != size:
        return None
    return np.ascontiguousarray(p).reshape(size)


def _channels_last(axis, ndim):
    return int(axis) in (-1, ndim - 1)


@override("batch_norm")
def batch_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    """Batch normalisation with the batch's statistics, channels last."""
    if not _float_array(x) or x.ndim < 2 or not _channels_last(axis, x.ndim):
        return NotImplemented
    channels = x.shape[-1]
    gamma_c = _per_feature(gamma, channels, x.dtype, 1.0)
    beta_c = _per_feature(beta, channels, x.dtype, 0.0)
    if gamma_c is None or beta_c is None:
        return NotImplemented
    rows = np.ascontiguousarray(x).reshape(-1, channels)
    count = rows.shape[0]
    mean = _chunk_total(_COLUMN_SUMS, rows)
    mean /= count
    var = _chunk_total(_CENTRED_SQUARE_SUMS, rows, mean)
    var /= count
    inv = var + x.dtype.type(epsilon)
    inv = np.sqrt(inv, out=inv)
    inv = np.reciprocal(inv, out=inv)
    xhat, y = np.empty_like(rows), np.empty_like(rows)
    pick(_NORMALISE_COLUMNS, rows.size)(rows, mean, inv, gamma_c, beta_c, xhat, y)
    stats_shape = (1,) * (x.ndim - 1) + (channels,)
    return ((y.reshape(x.shape), mean, var),
            (xhat.reshape(x.shape), inv.reshape(stats_shape)))


@override_vjp("batch_norm")
def _batch_norm_vjp(node, grads):
    g, g_mean, g_var = grads
    xhat, inv = node.residual
    gamma = node.inputs[1]
    if (not _channels_last(node.attrs.get("axis", -1), xhat.ndim) or g.dtype != xhat.dtype
            or np.any(g_mean) or np.any(g_var)):
        return NotImplemented   # the statistics' own gradients: numpy's kernel
    channels = xhat.shape[-1]
    rows_g = np.ascontiguousarray(g).reshape(-1, channels)
    rows_h = xhat.reshape(-1, channels)
    count = rows_g.shape[0]
    partial_g, partial_gx = _chunked(rows_g), _chunked(rows_g)
    pick(_GRADIENT_SUMS, rows_g.size)(rows_g, rows_h, partial_g, partial_gx)
    sum_g, sum_gx = partial_g.sum(axis=0), partial_gx.sum(axis=0)
    x_ref, gamma_ref, beta_ref = node.input_refs
    dgamma = None if gamma_ref is None else sum_gx.reshape(node.input_shapes[1])
    dbeta = None if beta_ref is None else sum_g.reshape(node.input_shapes[2])
    dx = None
    if x_ref is not None:
        scale = inv.reshape(channels)
        if gamma is not None:
            scale = scale * np.reshape(gamma, channels)
        dx = np.empty_like(rows_h)
        pick(_BATCH_NORM_DX, rows_g.size)(rows_g, rows_h, sum_g / count, sum_gx / count,
                                          np.ascontiguousarray(scale, xhat.dtype), dx)
        dx = dx.reshape(xhat.shape)
    return dx, dgamma, dbeta


# ----------------------------------------------------------------- layer_norm
def _layer_norm_rows(x, gamma, beta, epsilon, xhat, y, inv):
    width = x.dtype.type(x.shape[1])
    one = x.dtype.type(1)
    for r in prange(x.shape[0]):
        row, h, out = x[r], xhat[r], y[r]
        total = x.dtype.type(0)
        for c in range(row.shape[0]):
            total += row[c]
        mean = total / width
        squares = x.dtype.type(0)
        for c in range(row.shape[0]):
            d = row[c] - mean
            squares += d * d
        scale = one / np.sqrt(squares / width + epsilon)
        inv[r] = scale
        for c in range(row.shape[0]):
            v = (row[c] - mean) * scale
            h[c] = v
            out[c] = v * gamma[c] + beta[c]


def _layer_norm_dx(g, xhat, inv, gamma, chunk, dx, partial_g, partial_gx):
    rows, width = g.shape[0], g.dtype.type(g.shape[1])
    for k in prange(partial_g.shape[0]):
        acc_g, acc_gx = partial_g[k], partial_gx[k]
        acc_g[:] = 0
        acc_gx[:] = 0
        for r in range(k * chunk, min(rows, (k + 1) * chunk)):
            gr, hr, out = g[r], xhat[r], dx[r]
            sum_u = g.dtype.type(0)
            sum_uh = g.dtype.type(0)
            for c in range(gr.shape[0]):
                u = gr[c] * gamma[c]
                sum_u += u
                sum_uh += u * hr[c]
            mean_u, mean_uh = sum_u / width, sum_uh / width
            for c in range(gr.shape[0]):
                out[c] = ((gr[c] * gamma[c] - mean_u) - hr[c] * mean_uh) * inv[r]
                acc_g[c] += gr[c]
                acc_gx[c] += gr[c] * hr[c]


# reassociation lets LLVM vectorise the row sums; each row stays on one thread
_LAYER_NORM_ROWS = compiled(_layer_norm_rows, fastmath={"reassoc", "contract"})
_LAYER_NORM_DX = compiled(_layer_norm_dx, fastmath={"reassoc", "contract"})


def _trailing_count(axis, ndim):
    """How many trailing axes `axis` names, or 0 when they are not the trailing ones."""
    axes = sorted(a % ndim for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    if len(set(axes)) != len(axes) or axes != list(range(ndim - len(axes), ndim)):
        return 0
    return len(axes)


def _per_row(p, x, count, fill):
    """`p`, broadcast over the trailing `count` axes of `x`, flat; None if it varies by row."""
    width = math.prod(x.shape[x.ndim - count:])
    if p is None:
        return np.full(width, fill, x.dtype)
    if not isinstance(p, np.ndarray) or p.dtype != x.dtype or p.ndim > x.ndim:
        return None
    if any(d != 1 for d in p.shape[:max(0, p.ndim - count)]):
        return None
    tail = p.shape[max(0, p.ndim - count):]
    try:
        row = np.broadcast_to(p.reshape(tail), x.shape[x.ndim - count:])
    except ValueError:
        return None
    return np.ascontiguousarray(row).reshape(width)


@override("layer_norm")
def layer_norm(x, gamma, beta, axis=-1, epsilon=1e-3):
    """Normalises `x` over its trailing axes, one row per thread step."""
    if not _float_array(x):
        return NotImplemented
    count = _trailing_count(axis, x.ndim)
    gamma_r = _per_row(gamma, x, count, 1.0) if count else None
    beta_r = _per_row(beta, x, count, 0.0) if count else None
    if gamma_r is None or beta_r is None:
        return NotImplemented
    rows = np.ascontiguousarray(x).reshape(-1, gamma_r.size)
    xhat, y = np.empty_like(rows), np.empty_like(rows)
    inv = np.empty(rows.shape[0], x.dtype)
    pick(_LAYER_NORM_ROWS, rows.size)(rows, gamma_r, beta_r, x.dtype.type(epsilon), xhat, y,
                                      inv)
    stats_shape = x.shape[:x.ndim - count] + (1,) * count
    return y.reshape(x.shape), (xhat.reshape(x.shape), inv.reshape(stats_shape))


@override_vjp("layer_norm")
def _layer_norm_vjp(node, g):
    xhat, inv = node.residual
    gamma = node.inputs[1]
    count = _trailing_count(node.attrs.get("axis", -1), xhat.ndim)
    gamma_r = _per_row(gamma, xhat, count, 1.0) if count else None
    if gamma_r is None or g.dtype != xhat.dtype:
        return NotImplemented
    rows_g = np.ascontiguousarray(g).reshape(-1, gamma_r.size)
    rows_h = xhat.reshape(rows_g.shape)
    # rows per partial sum: at least 16 (wide rows), else about 4096 values
    chunk = max(16, _CHUNK * 16 // rows_g.shape[1])
    partial_g = np.empty((-(-rows_g.shape[0] // chunk), rows_g.shape[1]), g.dtype)
    partial_gx = np.empty_like(partial_g)
    dx = np.empty_like(rows_h)
    pick(_LAYER_NORM_DX, rows_g.size)(rows_g, rows_h, inv.reshape(-1), gamma_r, chunk, dx,
                                      partial_g, partial_gx)
    x_ref, gamma_ref, beta_ref = node.input_refs
    full = (1,) * (xhat.ndim - count) + xhat.shape[xhat.ndim - count:]
    dgamma = None if gamma_ref is None else unbroadcast(
        partial_gx.sum(axis=0).reshape(full), node.input_shapes[1])
    dbeta = None if beta_ref is None else unbroadcast(
        partial_g.sum(axis=0).reshape(full), node.input_shapes[2])
    return (dx.reshape(xhat.shape) if x_ref is not None else None), dgamma, dbeta
