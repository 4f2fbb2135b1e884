"""3x3 convolutions by Winograd's minimal filtering F(2x2, 3x3).

A 2x2 block of outputs of a 3x3 convolution reads a 4x4 tile of the input.
Winograd's algorithm computes it with 16 multiplications per channel pair
instead of 36, in three steps (matrices below):

    transformed input    V = B^T d B    (per 4x4 tile d and input channel)
    products             M[f] = V[f] @ U[f]  for each of the 16 frequencies f,
                         U = G g G^T the transformed kernel (in_channels, filters)
    output               y = A^T M A    (per tile and filter: the 2x2 outputs)

so the convolution's multiply-adds are 16 matrix products of (tiles,
in_channels) by (in_channels, filters), 2.25 times fewer than im2col's one
product with 9 * in_channels columns. The transforms only add and subtract;
numpy spends longer on them than the products save (measured: 11.7 ms
against im2col's 4.6 ms for 16 images of the benchmark CNN's second
layer), so they are compiled here, one pass per tile that keeps every
channel vector in registers, with the bias and activation fused into the
output transform.

The batch runs in chunks on the batch threads (`batch_threads.run_chunks`),
with the transformed tiles and products in `conv_workspace` buffers: each
chunk is independent, so results do not depend on the thread count.

For stride 1 the input gradient of a 3x3 convolution is itself a 3x3
convolution, of the output gradient with the kernel flipped and its channel
axes swapped, padded by `2 - pad` on each side: it runs here too. The
kernel gradient is the adjoint of the forward pass (`kernel_gradient`).

Rounding: F(2x2, 3x3) only scales by 1/2 in the kernel transform, and was
measured as accurate as im2col in float32 (largest error relative to the
largest output 3e-7, im2col 7e-7, against a float64 reference).
"""

import math

import numpy as np

from ..numpy_backend.batch_threads import batch_step, run_chunks
from ..numpy_backend.conv_workspace import Workspace
from ..numpy_backend.linalg import _FUSED_ACTIVATIONS
from ._jit import jit

# The transforms, written out in `_kernel_transform`, `_input_transform` and
# `_output_tile` (and their adjoints for the kernel gradient):
#   G   = [[1, 0, 0], [1/2, 1/2, 1/2], [1/2, -1/2, 1/2], [0, 0, 1]]
#   B^T = [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]]
#   A^T = [[1, 1, 1, 0], [0, 1, -1, -1]]

# Bytes of transformed tiles and products per chunk, as im2col's CHUNK_BYTES.
CHUNK_BYTES = 4 << 20

ACTIVATIONS = tuple(_FUSED_ACTIVATIONS)


@jit()
def _input_transform(xp, v):
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
def _output_transform(m, bias, y, relu):
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
def _gradient_transform(g, p):
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


def _frequency_rows(tiles, row_bytes):
    """Rows to allocate per frequency for `tiles` rows of `row_bytes`.

    The transforms write (and read) the 16 frequencies of a tile at once: when
    their rows lie a multiple of 4 KiB apart they map to the same cache sets,
    and the input transform was measured 7 times slower (2.6 ms against 0.37
    ms for 16 images of the benchmark CNN's second layer). A few spare rows
    spread them out.
    """
    for rows in range(tiles, tiles + 64):
        stride = rows * row_bytes % 4096
        if all(min(k * stride % 4096, -k * stride % 4096) >= 64 for k in range(1, 16)):
            return rows
    return tiles


class _Tiling:
    """The 4x4 tiles (stride 2) that cover a convolution's output in 2x2 blocks, chunk by chunk.

    Args:
        x_shape: the input's shape (batch, height, width, channels).
        pads: `((top, bottom), (left, right))` zero padding.
        out_spatial: the output's `(height, width)`.
        filters: the output's channels.
    """

    def __init__(self, x_shape, pads, out_spatial, filters, itemsize):
        batch, channels = x_shape[0], x_shape[-1]
        self.rows, self.cols = (out_spatial[0] + 1) // 2, (out_spatial[1] + 1) // 2
        # the tiles' extent: at least the padded input's, more for an odd output size
        self.padded = (2 * self.rows + 2, 2 * self.cols + 2)
        self.copy = self.padded != tuple(x_shape[1:3])
        self.top, self.left = pads[0][0], pads[1][0]
        per_image = self.rows * self.cols
        self.step = batch_step(batch, per_image * 16 * (channels + filters) * itemsize,
                               CHUNK_BYTES)
        self.v_rows = _frequency_rows(self.step * per_image, channels * itemsize)
        self.m_rows = _frequency_rows(self.step * per_image, filters * itemsize)

    def tiles(self, images):
        return images * self.rows * self.cols

    def transformed_input(self, xc, scratch):
        """`B^T d B` of every tile of the chunk `xc`, (16, tiles, channels)."""
        if self.copy:
            xp = scratch((self.step,) + self.padded + xc.shape[-1:], xc.dtype)[:len(xc)]
            xp.fill(0)
            xp[:, self.top:self.top + xc.shape[1], self.left:self.left + xc.shape[2]] = xc
            xc = xp
        v = scratch((16, self.v_rows, xc.shape[-1]), xc.dtype)[:, :self.tiles(len(xc))]
        _input_transform(xc, v)
        return v

    def products(self, images, filters, dtype, scratch):
        """A buffer for the chunk's 16 products, (16, tiles, filters)."""
        return scratch((16, self.m_rows, filters), dtype)[:, :self.tiles(images)]


def winograd_conv(x, u, bias, pads, out_spatial, activation):
    """`activation(conv(x, kernel) + bias)` for a 3x3, stride-1 kernel transformed to `u`.

    Args:
        x: (batch, height, width, in_channels).
        u: `kernel_transform(kernel)`, (16, in_channels, filters).
        bias: (filters,) in x's dtype.
        pads: `((top, bottom), (left, right))` zero padding.
        out_spatial: the output's `(height, width)`.
        activation: a name of `ACTIVATIONS`; relu is fused into the output
            transform, the others run on each chunk's output after it.
    """
    filters = u.shape[-1]
    tiling = _Tiling(x.shape, pads, out_spatial, filters, x.dtype.itemsize)
    y = np.empty((x.shape[0],) + tuple(out_spatial) + (filters,), x.dtype)

    def chunk(start, stop):
        with Workspace() as scratch:
            v = tiling.transformed_input(x[start:stop], scratch)
            m = tiling.products(stop - start, filters, x.dtype, scratch)
            for f in range(16):
                np.matmul(v[f], u[f], out=m[f])
            yc = y[start:stop]
            _output_transform(m, bias, yc, activation == "relu")
            if activation not in ("linear", "relu"):
                _FUSED_ACTIVATIONS[activation][0](yc)

    run_chunks(chunk, x.shape[0], tiling.step)
    return y


def kernel_gradient(x, gz, geo):
    """The kernel gradient of a qualifying convolution from its pre-activation gradient `gz`.

    The exact gradient of the Winograd forward pass (its adjoint): with `V`
    the transformed input tiles and `P = A g A^T` the transformed 2x2 output
    gradients, `dU[f] = V[f]^T @ P[f]`, summed over the tiles, and the kernel
    gradient is `G^T dU G`. Each chunk's sum is kept apart and the chunks
    are added in batch order, so the result does not depend on the threads.
    """
    filters = gz.shape[-1]
    tiling = _Tiling(x.shape, geo.pads, gz.shape[1:3], filters, x.dtype.itemsize)

    def chunk(start, stop):
        with Workspace() as scratch:
            v = tiling.transformed_input(x[start:stop], scratch)
            p = tiling.products(stop - start, filters, x.dtype, scratch)
            _gradient_transform(gz[start:stop], p)
            du = np.empty((16, x.shape[-1], filters), x.dtype)
            for f in range(16):
                np.matmul(v[f].T, p[f], out=du[f])
            return du

    parts = run_chunks(chunk, x.shape[0], tiling.step)
    du = np.sum(parts, axis=0).reshape((4, 4) + parts[0].shape[1:])
    return _untransform_kernel_axis(_untransform_kernel_axis(du, 0), 1)


def _untransform_kernel_axis(du, axis):
    """`G^T` applied along `axis` (of length 4, becoming 3): the adjoint of `_kernel_transform`."""
    d = np.moveaxis(du, axis, 0)
    half = d.dtype.type(0.5)
    inner = (d[1] + d[2]) * half
    out = np.stack([d[0] + inner, (d[1] - d[2]) * half, inner + d[3]])
    return np.moveaxis(out, 0, axis)


def qualifies(x, kernel, geo, min_channels):
    """Whether `conv` of these arrays and geometry runs here.

    2-D, 3x3, stride 1, no dilation, one group, float32 or float64, and at
    least `min_channels` input channels and filters: with fewer, the products
    are too thin for the saved multiplications to pay for the transforms.
    """
    return (x.ndim == 4 and kernel.shape[:2] == (3, 3) and geo.strides == (1, 1)
            and geo.dilation == (1, 1) and geo.groups == 1
            and x.dtype == kernel.dtype and x.dtype in (np.float32, np.float64)
            and min(kernel.shape[2:]) >= min_channels and math.prod(x.shape) > 0)


def input_gradient(gz, kernel, geo, input_shape):
    """The input gradient of a qualifying convolution from its pre-activation gradient `gz`."""
    flipped = np.ascontiguousarray(kernel[::-1, ::-1].transpose(0, 1, 3, 2))
    pads = tuple((2 - lo, 2 - hi) for lo, hi in geo.pads)
    return winograd_conv(gz, kernel_transform(flipped), np.zeros(kernel.shape[2], gz.dtype),
                         pads, tuple(input_shape[1:3]), "linear")
