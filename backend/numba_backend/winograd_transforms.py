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

from ._jit import jit


@jit()
def input_transform(xp, v):
    """`v[:, tile] = B^T d B` for every 4x4 tile `d` (stride 2) of padded `xp`."""
    batch, height, width, channels = xp.shape
    rows, cols = (height - 2) // 2, (width - 2) // 2
    for b in range(batch):
        for i in range(rows):
            x0, x1, x2, x3 = xp[b, 2 * i], xp[b, 2 * i + 1], xp[b, 2 * i + 2], xp[b, 2 * i + 3]
            for j in range(cols):
                t = (b * rows + i) * cols + j
                c0 = 2 * j
                out = v[:, t]
                for c in range(channels):
                    # B^T d: rows combined
                    a0 = x0[c0, c] - x2[c0, c]
                    a1 = x0[c0 + 1, c] - x2[c0 + 1, c]
                    a2 = x0[c0 + 2, c] - x2[c0 + 2, c]
                    a3 = x0[c0 + 3, c] - x2[c0 + 3, c]
                    b0 = x1[c0, c] + x2[c0, c]
                    b1 = x1[c0 + 1, c] + x2[c0 + 1, c]
                    b2 = x1[c0 + 2, c] + x2[c0 + 2, c]
                    b3 = x1[c0 + 3, c] + x2[c0 + 3, c]
                    e0 = x2[c0, c] - x1[c0, c]
                    e1 = x2[c0 + 1, c] - x1[c0 + 1, c]
                    e2 = x2[c0 + 2, c] - x1[c0 + 2, c]
                    e3 = x2[c0 + 3, c] - x1[c0 + 3, c]
                    f0 = x1[c0, c] - x3[c0, c]
                    f1 = x1[c0 + 1, c] - x3[c0 + 1, c]
                    f2 = x1[c0 + 2, c] - x3[c0 + 2, c]
                    f3 = x1[c0 + 3, c] - x3[c0 + 3, c]
                    # (B^T d) B: columns combined
                    out[0, c], out[1, c], out[2, c], out[3, c] = a0 - a2, a1 + a2, a2 - a1, a1 - a3
                    out[4, c], out[5, c], out[6, c], out[7, c] = b0 - b2, b1 + b2, b2 - b1, b1 - b3
                    out[8, c], out[9, c], out[10, c], out[11, c] = (e0 - e2, e1 + e2, e2 - e1,
                                                                    e1 - e3)
                    out[12, c], out[13, c], out[14, c], out[15, c] = (f0 - f2, f1 + f2, f2 - f1,
                                                                      f1 - f3)


@jit()
def _output_tile(p, bias, relu, o00, o01, o10, o11):
    """The 2x2 outputs `A^T p A + bias` (then `max(., 0)` with `relu`) of one tile."""
    for f in range(p.shape[1]):
        # A^T p: rows combined
        s0 = p[0, f] + p[4, f] + p[8, f]
        s1 = p[1, f] + p[5, f] + p[9, f]
        s2 = p[2, f] + p[6, f] + p[10, f]
        s3 = p[3, f] + p[7, f] + p[11, f]
        q0 = p[4, f] - p[8, f] - p[12, f]
        q1 = p[5, f] - p[9, f] - p[13, f]
        q2 = p[6, f] - p[10, f] - p[14, f]
        q3 = p[7, f] - p[11, f] - p[15, f]
        # (A^T p) A: columns combined
        z00 = s0 + s1 + s2 + bias[f]
        z01 = s1 - s2 - s3 + bias[f]
        z10 = q0 + q1 + q2 + bias[f]
        z11 = q1 - q2 - q3 + bias[f]
        if relu:
            z00, z01, z10, z11 = max(z00, 0), max(z01, 0), max(z10, 0), max(z11, 0)
        o00[f], o01[f], o10[f], o11[f] = z00, z01, z10, z11


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
    edge = np.empty((4, filters), y.dtype)
    for b in range(batch):
        for i in range(rows):
            for j in range(cols):
                p = m[:, (b * rows + i) * cols + j]
                if 2 * i + 1 < height and 2 * j + 1 < width:
                    _output_tile(p, bias, relu, y[b, 2 * i, 2 * j], y[b, 2 * i, 2 * j + 1],
                                 y[b, 2 * i + 1, 2 * j], y[b, 2 * i + 1, 2 * j + 1])
                    continue
                _output_tile(p, bias, relu, edge[0], edge[1], edge[2], edge[3])
                for a in range(min(2, height - 2 * i)):
                    for c in range(min(2, width - 2 * j)):
                        y[b, 2 * i + a, 2 * j + c] = edge[2 * a + c]


@jit()
def _gradient_tile(g00, g01, g10, g11, p):
    """`p = A g A^T` for one tile's 2x2 output gradient `g`: the adjoint of `_output_tile`."""
    for f in range(p.shape[1]):
        # A g: rows combined
        u0, w0 = g00[f], g01[f]
        u1, w1 = g00[f] + g10[f], g01[f] + g11[f]
        u2, w2 = g00[f] - g10[f], g01[f] - g11[f]
        u3, w3 = -g10[f], -g11[f]
        # (A g) A^T: columns combined
        p[0, f], p[1, f], p[2, f], p[3, f] = u0, u0 + w0, u0 - w0, -w0
        p[4, f], p[5, f], p[6, f], p[7, f] = u1, u1 + w1, u1 - w1, -w1
        p[8, f], p[9, f], p[10, f], p[11, f] = u2, u2 + w2, u2 - w2, -w2
        p[12, f], p[13, f], p[14, f], p[15, f] = u3, u3 + w3, u3 - w3, -w3


@jit()
def gradient_transform(g, p):
    """`p[:, tile] = A g A^T` for every tile's 2x2 block of the output gradient `g`.

    The outputs an odd size crops away have a zero gradient.
    """
    batch, height, width, filters = g.shape
    rows, cols = (height + 1) // 2, (width + 1) // 2
    edge = np.empty((4, filters), g.dtype)
    for b in range(batch):
        for i in range(rows):
            for j in range(cols):
                t = (b * rows + i) * cols + j
                if 2 * i + 1 < height and 2 * j + 1 < width:
                    _gradient_tile(g[b, 2 * i, 2 * j], g[b, 2 * i, 2 * j + 1],
                                   g[b, 2 * i + 1, 2 * j], g[b, 2 * i + 1, 2 * j + 1], p[:, t])
                    continue
                edge[:] = 0
                for a in range(min(2, height - 2 * i)):
                    for c in range(min(2, width - 2 * j)):
                        edge[2 * a + c] = g[b, 2 * i + a, 2 * j + c]
                _gradient_tile(edge[0], edge[1], edge[2], edge[3], p[:, t])


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
