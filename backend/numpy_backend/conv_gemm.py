"""Convolution lowered to GEMM: the forward product and both gradients.

Layouts follow Keras: activations are `(batch, *spatial, channels)` and a
kernel is `(*window, in_channels // groups, out_channels)`. For each output
position, im2col gathers its receptive field into one row laid out
`(group, *window, channel)`, so one matrix product per group computes the
convolution, and the two gradients are products with the same matrix:

    forward          y  = cols @ K
    kernel gradient  dK = cols.T @ dy
    input gradient   dx = col2im(dy @ K.T)

The batch is processed in chunks of at most `CHUNK_BYTES` of im2col matrix:
each chunk's gather, products, bias, activation and scatter run back to
back on data that is still close in the cache hierarchy, the scratch memory
stays bounded whatever the batch size (10,000-sample predictions included),
and nothing as large as a whole batch's im2col matrix is kept between the
forward and backward passes: the backward pass gathers each chunk again. Scratch buffers are
borrowed from `conv_workspace`, so steady-state training allocates no large
arrays beyond the outputs and gradients themselves.
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import shape_rules as rules
from .conv_workspace import Workspace

# Bytes of im2col matrix per batch chunk. Smaller chunks stay in cache, but
# every chunk costs a few BLAS calls, and with two BLAS threads each call
# risks a stall when another process holds a core: on the project's shared
# 2-core machines, single-threaded cost was flat from 6 to 32 MB chunks while
# under load 32 MB ran about twice as fast as 6 MB.
CHUNK_BYTES = 32 << 20


@dataclass(frozen=True)
class ConvGeometry:
    """How a kernel's windows tile a (padded) input.

    Attributes:
        window: kernel size per spatial axis.
        strides, dilation: per spatial axis.
        pads: `(before, after)` zero padding per spatial axis.
        groups: number of channel groups.
    """

    window: tuple
    strides: tuple
    dilation: tuple
    pads: tuple
    groups: int

    @property
    def rank(self):
        return len(self.window)

    @property
    def taps(self):
        return math.prod(self.window)

    def output_spatial(self, spatial):
        """Output spatial shape for an input spatial shape."""
        return tuple(
            (n + lo + hi - d * (k - 1) - 1) // s + 1
            for n, (lo, hi), k, s, d in zip(spatial, self.pads, self.window, self.strides,
                                            self.dilation))


def geometry(spatial, window, strides, dilation, padding, groups=1):
    """A `ConvGeometry` for an input of `spatial` shape and a padding mode."""
    pads = tuple(rules.window_padding(n, k, s, d, padding)
                 for n, k, s, d in zip(spatial, window, strides, dilation))
    return ConvGeometry(tuple(window), tuple(strides), tuple(dilation), pads, groups)


def _chunk(batch, row_bytes):
    """Images per chunk for `row_bytes` of im2col matrix per image."""
    return max(1, min(batch, CHUNK_BYTES // max(row_bytes, 1)))


def _padded(x, geo, scratch):
    """`x` with its zero padding, in a `scratch` buffer (or `x` itself when unpadded)."""
    if not any(lo or hi for lo, hi in geo.pads):
        return x
    shape = (x.shape[0],) + tuple(n + lo + hi for n, (lo, hi) in zip(x.shape[1:-1], geo.pads))
    xp = scratch(shape + x.shape[-1:], x.dtype)
    xp.fill(0)
    xp[_interior(x.shape, geo)] = x
    return xp


def _interior(shape, geo):
    """Index of the unpadded region inside a padded array of `shape`'s input."""
    return (slice(None),) + tuple(slice(lo, lo + n) for n, (lo, _) in
                                  zip(shape[1:-1], geo.pads)) + (slice(None),)


def _im2col(xp, geo, out_spatial, cols):
    """Gathers the windows of padded `xp` into `cols`, laid out (n, *out, G, *window, Cg)."""
    rank, groups = geo.rank, geo.groups
    spans = tuple(d * (k - 1) + 1 for k, d in zip(geo.window, geo.dilation))
    view = sliding_window_view(xp, spans, axis=tuple(range(1, rank + 1)))
    index = ((slice(None),) + tuple(slice(0, (o - 1) * s + 1, s)
                                    for o, s in zip(out_spatial, geo.strides))
             + (slice(None),) + tuple(slice(None, None, d) for d in geo.dilation))
    view = view[index]  # (n, *out, C, *window)
    channels = xp.shape[-1]
    view = view.reshape(view.shape[:rank + 1] + (groups, channels // groups)
                        + view.shape[rank + 2:])
    # -> (n, *out, G, *window, Cg)
    order = (tuple(range(rank + 2)) + tuple(range(rank + 3, 2 * rank + 3)) + (rank + 2,))
    np.copyto(cols, view.transpose(order))


def _col2im(addends, geo, out_spatial, dxp):
    """Sets padded `dxp` to the sum of each tap's input gradient, `addends` in tap order.

    An addend is laid out (n, *out, G, Cg): the gradient every window sends
    back through that tap.
    """
    dxp.fill(0)
    grouped = dxp.reshape(dxp.shape[:-1] + (geo.groups, -1))  # a view: dxp is contiguous
    for addend, tap in zip(addends, itertools.product(*(range(k) for k in geo.window))):
        index = (slice(None),) + tuple(
            slice(t * d, t * d + (o - 1) * s + 1, s)
            for t, d, o, s in zip(tap, geo.dilation, out_spatial, geo.strides))
        grouped[index] += addend


class _InputGradient:
    """The input-gradient products `dy @ K.T` of one backward pass, chunk by chunk.

    Large chunks take one product per kernel tap, `dy @ K[tap].T`, written
    tap-major, so that `_col2im` adds contiguous arrays (a strided addend,
    one row of the im2col layout per window, was measured 5-20 times slower
    to add). Small chunks take a single product into the im2col layout:
    there, fewer BLAS calls matter more than the strided additions.
    """

    # Per-tap products of fewer multiply-adds than this use the single product.
    PER_TAP_MIN = 1 << 24

    def __init__(self, kernel, geo, step, out_spatial, cols, scratch):
        groups, per_group = geo.groups, kernel.shape[-2]
        self.geo, self.out_spatial, self.cols = geo, out_spatial, cols
        rows = step * math.prod(out_spatial)
        self.per_tap = rows * per_group * kernel.shape[-1] // groups >= self.PER_TAP_MIN
        if self.per_tap:  # (G, taps, Og, Cg); products laid out (taps, n, *out, G, Cg)
            self.kernel = np.ascontiguousarray(
                kernel.reshape(geo.taps, per_group, groups, -1).transpose(2, 0, 3, 1))
            self.taps = scratch((geo.taps, step) + out_spatial + (groups, per_group),
                                cols.dtype)
        else:  # (G, Og, taps * Cg); products laid out like `cols`
            self.kernel = _grouped_kernel(kernel, geo).transpose(0, 2, 1)

    def write_to(self, g, dxp):
        """Writes the input gradient of output gradient `g` (G, rows, Og) into `dxp`."""
        n, groups, geo = dxp.shape[0], self.geo.groups, self.geo
        if self.per_tap:
            taps = self.taps[:, :n]
            view = taps.reshape(geo.taps, -1, groups, taps.shape[-1]).transpose(2, 0, 1, 3)
            for g_group, k_group, out_group in zip(g, self.kernel, view):
                _matmul(itertools.repeat(g_group), k_group, out_group)
            addends = iter(taps)
        else:
            c = self.cols[:n]
            _matmul(g, self.kernel, c.reshape(-1, groups, self.kernel.shape[-1]).transpose(
                1, 0, 2))
            addends = (c[(Ellipsis,) + tap + (slice(None),)]
                       for tap in itertools.product(*(range(k) for k in geo.window)))
        _col2im(addends, geo, self.out_spatial, dxp)


def _grouped_kernel(kernel, geo):
    """Kernel (*window, Cg, G*Og) as (G, taps*Cg, Og)."""
    groups = geo.groups
    flat = kernel.reshape(-1, groups, kernel.shape[-1] // groups)
    return flat.transpose(1, 0, 2)


def _matmul(a, b, out):
    """`out[g] = a[g] @ b[g]` over a leading group axis, as plain 2-D products.

    numpy's stacked matmul drops to a slow non-BLAS loop for some stride
    patterns (a broadcast operand, for one), so the groups are looped here.
    """
    for ag, bg, og in zip(a, b, out):
        np.matmul(ag, bg, out=og)


def _add_kernel_product(cols, dy, dk):
    """`dk[g] += cols[g].T @ dy[g]`, the long batch axis contracted.

    Of the two equal ways to order the product, the one whose left operand
    has more rows is used: with two BLAS threads on a busy machine the other
    was seen to run 5-10 times slower (both for 9-column and 64-column dy).
    """
    for c, d, k in zip(cols, dy, dk):
        if c.shape[-1] >= d.shape[-1]:
            k += np.matmul(c.T, d)
        else:
            k += np.matmul(d.T, c).T


def conv_forward(x, kernel, geo, epilogue=None):
    """Convolution of `x` (n, *spatial, C) with `kernel`; `epilogue(chunk)` runs in place."""
    n, groups = x.shape[0], geo.groups
    out_spatial = geo.output_spatial(x.shape[1:-1])
    filters = kernel.shape[-1]
    dtype = np.result_type(x, kernel)
    y = np.empty((n,) + out_spatial + (filters,), dtype)
    width = geo.taps * x.shape[-1] // groups
    step = _chunk(n, math.prod(out_spatial) * width * groups * dtype.itemsize)
    kmat = _grouped_kernel(kernel, geo)
    with Workspace() as scratch:
        xp = _padded(x, geo, scratch)
        cols = scratch((step,) + out_spatial + (groups,) + geo.window
                       + (x.shape[-1] // groups,), dtype)
        for start in range(0, n, step):
            stop = min(start + step, n)
            c = cols[:stop - start]
            _im2col(xp[start:stop], geo, out_spatial, c)
            yc = y[start:stop].reshape(-1, groups, filters // groups)
            _matmul(c.reshape(-1, groups, width).transpose(1, 0, 2), kmat,
                    yc.transpose(1, 0, 2))
            if epilogue is not None:
                epilogue(yc.reshape(-1, filters))
    return y


def conv_backward(dy, kernel, geo, x=None, input_shape=None, prologue=None):
    """Gradients `(dx, dkernel)` of a convolution from its output gradient `dy`.

    The kernel gradient needs the convolution's input `x` and is skipped
    without it; the input gradient is computed when `input_shape` is given
    (a transposed convolution is exactly this input gradient). `prologue(
    start, stop)` may turn a batch slice of `dy` into the gradient that
    reaches the product (e.g. through a fused activation) as a (rows,
    filters) array.
    """
    groups, filters = geo.groups, kernel.shape[-1]
    channels = kernel.shape[-2] * groups
    dtype = np.result_type(dy, kernel) if x is None else np.result_type(dy, kernel, x)
    dk = None if x is None else np.zeros((groups, geo.taps * channels // groups,
                                          filters // groups), dtype)
    dx = None if input_shape is None else np.empty(input_shape, dtype)
    with Workspace() as scratch:
        _backward_chunks(dy, kernel, geo, x, dk, dx, prologue, dtype, scratch)
    if dk is not None:
        dk = dk.reshape((groups,) + geo.window + (channels // groups, filters // groups))
        order = tuple(range(1, geo.rank + 2)) + (0, geo.rank + 2)
        dk = dk.transpose(order).reshape(kernel.shape)
    return dx, dk


def _backward_chunks(dy, kernel, geo, x, dk, dx, prologue, dtype, scratch):
    """Accumulates `conv_backward`'s gradients into `dk` and/or `dx`, chunk by chunk."""
    n, groups = dy.shape[0], geo.groups
    out_spatial = dy.shape[1:-1]
    filters = kernel.shape[-1]
    channels = kernel.shape[-2] * groups
    width = geo.taps * channels // groups
    step = _chunk(n, math.prod(out_spatial) * width * groups * dtype.itemsize)
    # one im2col-shaped buffer: the gathered windows, then (maybe) their gradients
    cols = scratch((step,) + out_spatial + (groups,) + geo.window + (channels // groups,),
                   dtype)
    if dk is not None:
        xp = _padded(x, geo, scratch)
    dxp = None
    if dx is not None:
        padded_shape = tuple(d + lo + hi for d, (lo, hi) in zip(dx.shape[1:-1], geo.pads))
        if padded_shape != dx.shape[1:-1]:
            dxp = scratch((step,) + padded_shape + (channels,), dtype)
        input_gradient = _InputGradient(kernel, geo, step, out_spatial, cols, scratch)
    for start in range(0, n, step):
        stop = min(start + step, n)
        g = prologue(start, stop) if prologue else dy[start:stop].reshape(-1, filters)
        g = g.reshape(-1, groups, filters // groups).transpose(1, 0, 2)
        if dk is not None:
            c = cols[:stop - start]
            _im2col(xp[start:stop], geo, out_spatial, c)
            _add_kernel_product(c.reshape(-1, groups, width).transpose(1, 0, 2), g, dk)
        if dx is not None:
            d = dx[start:stop] if dxp is None else dxp[:stop - start]
            input_gradient.write_to(g, d)
            if dxp is not None:
                dx[start:stop] = d[_interior(dx.shape, geo)]
