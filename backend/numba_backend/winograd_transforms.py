"""The tile transforms of Winograd's F(2x2, 3x3), compiled (see `winograd_conv`).

Each transform makes one pass per 4x4 tile with the channel (or filter)
axis innermost, so every loop body works on whole channel vectors, which
LLVM vectorises:

    G   = [[1, 0, 0], [1/2, 1/2, 1/2], [1/2, -1/2, 1/2], [0, 0, 1]]
    B^T = [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]]
    A^T = [[1, 1, 1, 0], [0, 1, -1, -1]]

    kernel   U = G g G^T     `kernel_transform`    adjoint `kernel_untransform`
    input    V = B^T d B     `input_transform`
    output   y = A^T M A     `output_transform`    adjoint `gradient_transform`

The transformed tiles are laid out (16, tiles, channels): frequency `4 a + b`
holds element `(a, b)` of every tile's transform.
"""

import numpy as np

from ._jit import inline, jit


@inline
def _b_columns(a0, a1, a2, a3):
    """`(a0, a1, a2, a3) B`: the columns of one row of `B^T d` combined."""
    return a0 - a2, a1 + a2, a2 - a1, a1 - a3


@jit()
def input_transform(xp, v):
    """`v[:, tile] = B^T d B` for every 4x4 tile `d` (stride 2) of padded `xp`.

    One loop over the channels per row of `B^T d`, each writing 4 frequencies:
    with all 16 written from one loop, LLVM left it scalar (2.3 times slower).
    """
    batch, height, width, channels = xp.shape
    rows, cols = (height - 2) // 2, (width - 2) // 2
    for t in range(batch * rows * cols):
        b, rest = divmod(t, rows * cols)
        i, j = divmod(rest, cols)
        r, q = 2 * i, 2 * j
        for c in range(channels):   # d[0] - d[2]
            v[0, t, c], v[1, t, c], v[2, t, c], v[3, t, c] = _b_columns(
                xp[b, r, q, c] - xp[b, r + 2, q, c], xp[b, r, q + 1, c] - xp[b, r + 2, q + 1, c],
                xp[b, r, q + 2, c] - xp[b, r + 2, q + 2, c],
                xp[b, r, q + 3, c] - xp[b, r + 2, q + 3, c])
        for c in range(channels):   # d[1] + d[2]
            v[4, t, c], v[5, t, c], v[6, t, c], v[7, t, c] = _b_columns(
                xp[b, r + 1, q, c] + xp[b, r + 2, q, c],
                xp[b, r + 1, q + 1, c] + xp[b, r + 2, q + 1, c],
                xp[b, r + 1, q + 2, c] + xp[b, r + 2, q + 2, c],
                xp[b, r + 1, q + 3, c] + xp[b, r + 2, q + 3, c])
        for c in range(channels):   # d[2] - d[1]
            v[8, t, c], v[9, t, c], v[10, t, c], v[11, t, c] = _b_columns(
                xp[b, r + 2, q, c] - xp[b, r + 1, q, c],
                xp[b, r + 2, q + 1, c] - xp[b, r + 1, q + 1, c],
                xp[b, r + 2, q + 2, c] - xp[b, r + 1, q + 2, c],
                xp[b, r + 2, q + 3, c] - xp[b, r + 1, q + 3, c])
        for c in range(channels):   # d[1] - d[3]
            v[12, t, c], v[13, t, c], v[14, t, c], v[15, t, c] = _b_columns(
                xp[b, r + 1, q, c] - xp[b, r + 3, q, c],
                xp[b, r + 1, q + 1, c] - xp[b, r + 3, q + 1, c],
                xp[b, r + 1, q + 2, c] - xp[b, r + 3, q + 2, c],
                xp[b, r + 1, q + 3, c] - xp[b, r + 3, q + 3, c])


@inline
def _output_tile(m, t, bias, relu, y, b, r, q):
    """`y[b, r:r + 2, q:q + 2] = A^T m[:, t] A + bias` (then `max(., 0)` with `relu`)."""
    for f in range(y.shape[3]):
        # A^T m: rows combined
        s0 = m[0, t, f] + m[4, t, f] + m[8, t, f]
        s1 = m[1, t, f] + m[5, t, f] + m[9, t, f]
        s2 = m[2, t, f] + m[6, t, f] + m[10, t, f]
        s3 = m[3, t, f] + m[7, t, f] + m[11, t, f]
        q0 = m[4, t, f] - m[8, t, f] - m[12, t, f]
        q1 = m[5, t, f] - m[9, t, f] - m[13, t, f]
        q2 = m[6, t, f] - m[10, t, f] - m[14, t, f]
        q3 = m[7, t, f] - m[11, t, f] - m[15, t, f]
        # (A^T m) A: columns combined
        z00 = s0 + s1 + s2 + bias[f]
        z01 = s1 - s2 - s3 + bias[f]
        z10 = q0 + q1 + q2 + bias[f]
        z11 = q1 - q2 - q3 + bias[f]
        if relu:
            z00, z01, z10, z11 = max(z00, 0), max(z01, 0), max(z10, 0), max(z11, 0)
        y[b, r, q, f], y[b, r, q + 1, f] = z00, z01
        y[b, r + 1, q, f], y[b, r + 1, q + 1, f] = z10, z11


@jit()
def output_transform(m, bias, y, relu):
    """`y = A^T m A + bias` (then `max(y, 0)` with `relu`) for every tile, cropped to `y`.

    A tile whose 2x2 outputs all lie inside `y` writes them in place; only the
    last row and column of tiles of an odd output size go through a buffer
    (writing either way from one loop kept LLVM from vectorising it: 2.7
    times slower).
    """
    batch, height, width, filters = y.shape
    rows, cols = (height + 1) // 2, (width + 1) // 2
    edge = np.empty((1, 2, 2, filters), y.dtype)
    for t in range(batch * rows * cols):
        b, rest = divmod(t, rows * cols)
        i, j = divmod(rest, cols)
        if 2 * i + 1 < height and 2 * j + 1 < width:
            _output_tile(m, t, bias, relu, y, b, 2 * i, 2 * j)
            continue
        _output_tile(m, t, bias, relu, edge, 0, 0, 0)
        for a in range(min(2, height - 2 * i)):
            for c in range(min(2, width - 2 * j)):
                y[b, 2 * i + a, 2 * j + c] = edge[0, a, c]


@inline
def _a_columns(u, w):
    """`(u, w) A^T`: one row of `A g` spread over 4 frequencies."""
    return u, u + w, u - w, -w


@inline
def _gradient_tile(g, b, r, q, p, t):
    """`p[:, t] = A g A^T` for the 2x2 output gradient `g[b, r:r + 2, q:q + 2]`: the
    adjoint of `_output_tile`. One loop per row of `A g`, as in `input_transform`."""
    for f in range(g.shape[3]):
        p[0, t, f], p[1, t, f], p[2, t, f], p[3, t, f] = _a_columns(g[b, r, q, f],
                                                                    g[b, r, q + 1, f])
    for f in range(g.shape[3]):
        p[4, t, f], p[5, t, f], p[6, t, f], p[7, t, f] = _a_columns(
            g[b, r, q, f] + g[b, r + 1, q, f], g[b, r, q + 1, f] + g[b, r + 1, q + 1, f])
    for f in range(g.shape[3]):
        p[8, t, f], p[9, t, f], p[10, t, f], p[11, t, f] = _a_columns(
            g[b, r, q, f] - g[b, r + 1, q, f], g[b, r, q + 1, f] - g[b, r + 1, q + 1, f])
    for f in range(g.shape[3]):
        p[12, t, f], p[13, t, f], p[14, t, f], p[15, t, f] = _a_columns(-g[b, r + 1, q, f],
                                                                        -g[b, r + 1, q + 1, f])


@jit()
def gradient_transform(g, p):
    """`p[:, tile] = A g A^T` for every tile's 2x2 block of the output gradient `g`.

    The outputs an odd size crops away have a zero gradient.
    """
    batch, height, width, filters = g.shape
    rows, cols = (height + 1) // 2, (width + 1) // 2
    edge = np.empty((1, 2, 2, filters), g.dtype)
    for t in range(batch * rows * cols):
        b, rest = divmod(t, rows * cols)
        i, j = divmod(rest, cols)
        if 2 * i + 1 < height and 2 * j + 1 < width:
            _gradient_tile(g, b, 2 * i, 2 * j, p, t)
            continue
        edge[:] = 0
        for a in range(min(2, height - 2 * i)):
            for c in range(min(2, width - 2 * j)):
                edge[0, a, c] = g[b, 2 * i + a, 2 * j + c]
        _gradient_tile(edge, 0, 0, 0, p, t)


@jit()
def _kernel_transform(kernel, u):
    """`u[4 a + b] = (G g G^T)[a, b]` for the (3, 3) kernel `g` of every channel pair."""
    half = kernel.dtype.type(0.5)
    filters = kernel.shape[3]
    t = np.empty((4, 3, filters), kernel.dtype)
    for c in range(kernel.shape[2]):
        for j in range(3):   # G g: rows combined, vectorised over the filters
            g0, g1, g2 = kernel[0, j, c], kernel[1, j, c], kernel[2, j, c]
            for o in range(filters):
                t[0, j, o], t[1, j, o] = g0[o], (g0[o] + g1[o] + g2[o]) * half
                t[2, j, o], t[3, j, o] = (g0[o] - g1[o] + g2[o]) * half, g2[o]
        for a in range(4):   # (G g) G^T: columns combined
            for o in range(filters):
                g0, g1, g2 = t[a, 0, o], t[a, 1, o], t[a, 2, o]
                u[4 * a, c, o], u[4 * a + 1, c, o] = g0, (g0 + g1 + g2) * half
                u[4 * a + 2, c, o], u[4 * a + 3, c, o] = (g0 - g1 + g2) * half, g2


def kernel_transform(kernel):
    """`G g G^T` of a (3, 3, in, out) kernel, as 16 (in, out) matrices."""
    u = np.empty((16,) + kernel.shape[2:], kernel.dtype)
    _kernel_transform(kernel, u)
    return u


def kernel_untransform(du):
    """`G^T dU G` of 16 (in, out) matrices, as a (3, 3, in, out) kernel: `kernel_transform`'s adjoint."""
    du = du.reshape((4, 4) + du.shape[1:])
    return _untransform_kernel_axis(_untransform_kernel_axis(du, 0), 1)


def _untransform_kernel_axis(du, axis):
    """`G^T` applied along `axis` (of length 4, becoming 3): the adjoint of `G` in `_kernel_transform`."""
    d = np.moveaxis(du, axis, 0)
    half = d.dtype.type(0.5)
    inner = (d[1] + d[2]) * half
    out = np.stack([d[0] + inner, (d[1] - d[2]) * half, inner + d[3]])
    return np.moveaxis(out, 0, axis)
