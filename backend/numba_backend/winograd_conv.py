"""3x3 convolutions by Winograd's minimal filtering F(2x2, 3x3).

A 2x2 block of outputs of a 3x3 convolution reads a 4x4 tile of the input.
Winograd's algorithm computes it with 16 multiplications per channel pair
instead of 36, in three steps (the matrices are in `winograd_transforms`):

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
output transform (`winograd_transforms`).

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

from ..numpy_backend import conv as numpy_conv
from ..numpy_backend._memo import memoized
from ..numpy_backend.batch_threads import batch_step, run_chunks
from ..numpy_backend.blas_threads import single_threaded_blas
from ..numpy_backend.conv_workspace import Workspace
from ..numpy_backend.linalg import _FUSED_ACTIVATIONS
from ..numpy_backend.threaded_matmul import MIN_SHARED_LATENCY_WORK, matmul_shared
from . import depthwise_conv  # noqa: F401  (registers first: its kernels are the fallback here)
from ._fused_gradient import pre_activation_gradients
from ._jit import with_fallback
from ._registry import ops
from .winograd_transforms import (
    gradient_transform,
    input_transform,
    kernel_transform,
    kernel_untransform,
    output_transform,
)

# Bytes of transformed tiles and products per chunk, as im2col's CHUNK_BYTES.
CHUNK_BYTES = 4 << 20

ACTIVATIONS = tuple(_FUSED_ACTIVATIONS)

# Fewer input channels or filters than this keep im2col (see `qualifies`): training
# steps of 2 -> 4 channels on 28x28 took 1.4x less time on Winograd, 8 -> 8 channels
# 2x less; a single channel leaves products of one column.
MIN_CHANNELS = 2


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
        itemsize: bytes per element, which with the channels sizes the chunks.
    """

    def __init__(self, x_shape, pads, out_spatial, filters, itemsize):
        batch, channels = x_shape[0], x_shape[-1]
        self.rows, self.cols = (out_spatial[0] + 1) // 2, (out_spatial[1] + 1) // 2
        # the tiles' extent: at least the padded input's, more for an odd output size
        self.padded = (2 * self.rows + 2, 2 * self.cols + 2)
        self.copy = self.padded != tuple(x_shape[1:3])
        self.top, self.left = pads[0][0], pads[1][0]
        per_image = self.rows * self.cols
        # Chunks as large as CHUNK_BYTES allows, even if fewer than the threads
        # would balance best: the products of small images with many channels
        # (7x7, 128 channels) have few rows per image, and at 64 rows they ran
        # slower than im2col's (1.2x); at 256, as fast.
        self.step = batch_step(batch, per_image * 16 * (channels + filters) * itemsize,
                               CHUNK_BYTES, min_chunk_bytes=CHUNK_BYTES)
        self.one_chunk = self.step >= batch
        self.v_rows = _frequency_rows(self.step * per_image, channels * itemsize)
        self.m_rows = _frequency_rows(self.step * per_image, filters * itemsize)

    def tiles(self, images):
        return images * self.rows * self.cols

    def transformed_input(self, xc, scratch):
        """`B^T d B` of every tile of the chunk `xc` in the first `tiles(len(xc))` rows
        of a (16, rows, channels) buffer.

        The transforms take whole workspace buffers, never row slices of them: numba
        compiles a slice for arbitrary strides, and LLVM then left the channel loops
        scalar (the output transform of a one-sample call took 45 us instead of 14).
        """
        if self.copy:
            xp = scratch((self.step,) + self.padded + xc.shape[-1:], xc.dtype)[:len(xc)]
            xp.fill(0)
            xp[:, self.top:self.top + xc.shape[1], self.left:self.left + xc.shape[2]] = xc
            xc = xp
        v = scratch((16, self.v_rows, xc.shape[-1]), xc.dtype)
        input_transform(xc, v)
        return v

    def products(self, filters, dtype, scratch):
        """A (16, rows, filters) buffer whose first `tiles(images)` rows take a chunk's
        16 products."""
        return scratch((16, self.m_rows, filters), dtype)

    def multiply(self, a, b, out):
        """`out[f] = a[f] @ b[f]` for the 16 frequencies, on single-threaded BLAS.

        The chunks of a batch run on the batch threads, which hold BLAS to one
        thread; a batch of one chunk (one-sample inference) runs on the caller's
        thread, where large products are shared among the batch threads as the
        numpy backend's convolutions do (`threaded_matmul.matmul_shared` says
        why). Otherwise the 16 products are one stacked `matmul` call: numpy
        makes the same BLAS call per frequency as 16 separate calls would, so
        the sums are the same, without Python's overhead for each (a
        one-sample call of the benchmark CNN's second layer spent about a
        fifth of its time there).
        """
        rows, depth = a.shape[1:]
        if self.one_chunk and rows * depth * b.shape[-1] >= MIN_SHARED_LATENCY_WORK:
            for f in range(16):
                matmul_shared(a[f], b[f], out[f])
            return
        with single_threaded_blas():
            np.matmul(a, b, out=out)


# A model repeats the same few tilings call after call (`_frequency_rows` alone
# took a few microseconds of a one-sample call).
_tiling = memoized(_Tiling)


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
    tiling = _tiling(x.shape, pads, tuple(out_spatial), filters, x.dtype.itemsize)
    y = np.empty((x.shape[0],) + tuple(out_spatial) + (filters,), x.dtype)

    def chunk(start, stop):
        with Workspace() as scratch:
            v = tiling.transformed_input(x[start:stop], scratch)
            m = tiling.products(filters, x.dtype, scratch)
            tiles = tiling.tiles(stop - start)
            tiling.multiply(v[:, :tiles], u, m[:, :tiles])
            yc = y[start:stop]
            output_transform(m, bias, yc, activation == "relu")
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
    tiling = _tiling(x.shape, geo.pads, gz.shape[1:3], filters, x.dtype.itemsize)

    def chunk(start, stop):
        with Workspace() as scratch:
            v = tiling.transformed_input(x[start:stop], scratch)
            p = tiling.products(filters, x.dtype, scratch)
            gradient_transform(gz[start:stop], p)
            tiles = tiling.tiles(stop - start)
            du = np.empty((16, x.shape[-1], filters), x.dtype)
            tiling.multiply(v[:, :tiles].transpose(0, 2, 1), p[:, :tiles], du)
            return du

    parts = run_chunks(chunk, x.shape[0], tiling.step)
    return kernel_untransform(np.sum(parts, axis=0))


def qualifies(x, kernel, geo, min_channels):
    """Whether `conv` of these arrays and geometry runs here.

    2-D, 3x3, stride 1, no dilation, one group, float32 or float64, and at
    least `min_channels` input channels and filters.
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


def _geometry(x, kernel, attrs):
    """numpy's validated geometry when Winograd computes this convolution, else None."""
    if x.ndim != 4 or kernel.ndim != 4:
        return None
    geo = numpy_conv._conv_geometry(x.shape, kernel.shape, attrs.get("strides", 1),
                                    attrs.get("padding", "valid"), attrs.get("dilation_rate", 1))
    return geo if qualifies(x, kernel, geo, MIN_CHANNELS) else None


# `conv` as registered so far: the depthwise kernels, which fall back to numpy's.
_previous = ops["conv"]


def conv(x, kernel, *bias, strides=1, padding="valid", dilation_rate=1, activation="linear"):
    """`conv` by Winograd's algorithm, or NotImplemented for the kernels registered before."""
    geo = _geometry(x, kernel, {"strides": strides, "padding": padding,
                                "dilation_rate": dilation_rate})
    b = bias[0] if bias else np.zeros(kernel.shape[-1], x.dtype)
    if geo is None or activation not in ACTIVATIONS or b.dtype != x.dtype:
        return NotImplemented
    return winograd_conv(x, kernel_transform(kernel), b, geo.pads,
                         geo.output_spatial(x.shape[1:3]), activation)


def conv_vjp(node, g):
    """`conv`'s VJP by Winograd's algorithm, or NotImplemented for the VJPs registered before."""
    x, kernel = node.inputs[0], node.inputs[1]
    geo = _geometry(x, kernel, node.attrs)
    if geo is None or g.dtype != x.dtype:
        return NotImplemented
    gz, bias_gradient = pre_activation_gradients(node, g, x.dtype)
    dx = dk = None
    # The input gradient of a first layer (fed with data) is never needed.
    if node.input_refs[0] is not None:
        dx = input_gradient(gz, kernel, geo, x.shape)
    if node.input_refs[1] is not None:
        dk = kernel_gradient(x, gz, geo)
    return (dx, dk) if bias_gradient is None else (dx, dk, bias_gradient)


# Chained onto the depthwise kernels rather than numpy's (`_registry.override` would
# replace them): a convolution Winograd declines goes to them, then to numpy.
ops.override("conv")(with_fallback("conv", conv, _previous.forward))
ops["conv"].vjp = with_fallback("conv.vjp", conv_vjp, _previous.vjp)
