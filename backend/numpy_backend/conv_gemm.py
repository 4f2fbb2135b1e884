"""Convolution lowered to GEMM: the forward product and both gradients.

Layouts follow Keras: activations are `(batch, *spatial, channels)` and a
kernel is `(*window, in_channels // groups, out_channels)`. For each output
position, im2col gathers its receptive field into one row laid out
`(group, *window, channel)`, so one matrix product per group computes the
convolution, and the two gradients are products with the same matrix:

    forward          y  = cols @ K
    kernel gradient  dK = cols.T @ dy
    input gradient   dx = col2im(dy @ K.T)

The batch is processed in chunks of at most `CHUNK_BYTES` of im2col matrix,
run in parallel by `batch_threads`: each chunk's padding, gather, products,
bias, activation and scatter run back to back on data that is still in the
cache, on whichever core is free, the scratch memory stays bounded whatever
the batch size (10,000-sample predictions included), and nothing as large as
a whole batch's im2col matrix is kept between the forward and backward
passes: the backward pass gathers each chunk again. Scratch buffers are
borrowed from `conv_workspace`, so steady-state training allocates no large
arrays beyond the outputs and gradients themselves.
"""

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import shape_rules as rules
from .batch_threads import batch_step, run_chunks
from .conv_workspace import Workspace
from .threaded_matmul import matmul_shared

# Bytes of im2col matrix (and output) per batch chunk: small enough that a
# chunk's passes run in cache, large enough that its GEMMs run at full speed.
CHUNK_BYTES = 4 << 20


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


def _chunk(batch, out_spatial, row_width, itemsize):
    """Images per chunk, for `row_width` elements of im2col row and output per position."""
    return batch_step(batch, math.prod(out_spatial) * row_width * itemsize, CHUNK_BYTES)


def _padded(x, geo, scratch, step):
    """`x` with its zero padding (or `x` itself when unpadded).

    The padded copy is a slice of a `scratch` buffer of `step` images, so
    that every chunk of a batch borrows a buffer of the same shape.
    """
    if not any(lo or hi for lo, hi in geo.pads):
        return x
    shape = tuple(n + lo + hi for n, (lo, hi) in zip(x.shape[1:-1], geo.pads))
    xp = scratch((step,) + shape + x.shape[-1:], x.dtype)[:x.shape[0]]
    xp.fill(0)
    xp[_interior(x.shape, geo)] = x
    return xp


def _interior(shape, geo):
    """Index of the unpadded region inside a padded array of `shape`'s input."""
    return (slice(None),) + tuple(slice(lo, lo + n) for n, (lo, _) in
                                  zip(shape[1:-1], geo.pads)) + (slice(None),)


def _im2col(xp, geo, out_spatial, cols):
    """Gathers the windows of padded `xp` into `cols`, laid out (n, *out, G, *window, Cg).

    With one channel per group (a grayscale first layer, a depthwise
    convolution) each element of a window is copied alone, and one strided
    copy per kernel tap was measured about 4 times faster than copying the
    windows; with more channels, copying the windows is faster.
    """
    rank, groups = geo.rank, geo.groups
    if xp.shape[-1] == groups:
        by_tap = cols.reshape(cols.shape[:rank + 2] + (geo.taps,))
        for number, tap in enumerate(_window_taps(geo)):
            by_tap[..., number] = xp[_tap_index(tap, geo, out_spatial)]
        return
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


def _tap_index(tap, geo, out_spatial):
    """Index, in a padded input, of the elements that tap `tap` of every window reads."""
    return (slice(None),) + tuple(
        slice(t * d, t * d + (o - 1) * s + 1, s)
        for t, d, o, s in zip(tap, geo.dilation, out_spatial, geo.strides))


def _window_taps(geo):
    return itertools.product(*(range(k) for k in geo.window))


class _InputGradient:
    """The input gradient `col2im(dy @ K.T)` of one backward pass, chunk by chunk.

    Large chunks take one product per kernel tap, `dy @ K[tap].T`, and add
    it into the input gradient at once, while it is still in cache: the
    addend is contiguous, so the addition runs along whole rows of the
    input gradient (a strided addend, one row of the im2col layout per
    window, was measured 5-20 times slower to add). Small chunks take a
    single product into the im2col layout: there, fewer BLAS calls matter
    more than the strided additions.
    """

    # Per-tap products of fewer multiply-adds than this use the single product.
    PER_TAP_MIN = 1 << 20

    def __init__(self, kernel, geo, step, out_spatial):
        groups, per_group = geo.groups, kernel.shape[-2]
        self.geo, self.out_spatial, self.step = geo, out_spatial, step
        rows = step * math.prod(out_spatial)
        self.per_tap = rows * per_group * kernel.shape[-1] // groups >= self.PER_TAP_MIN
        if self.per_tap:  # (taps, G, Og, Cg)
            self.kernel = np.ascontiguousarray(
                kernel.reshape(geo.taps, per_group, groups, -1).transpose(0, 2, 3, 1))
        else:  # (G, Og, taps * Cg); products laid out like im2col
            self.kernel = _grouped_kernel(kernel, geo).transpose(0, 2, 1)

    def write_to(self, g, dxp, scratch):
        """Writes the input gradient of output gradient `g` (G, rows, Og) into `dxp`."""
        geo, groups = self.geo, self.geo.groups
        dxp.fill(0)
        grouped = dxp.reshape(dxp.shape[:-1] + (groups, -1))  # a view: dxp is contiguous
        per_group = grouped.shape[-1]
        shape = (self.step,) + self.out_spatial + (groups, per_group)
        if self.per_tap:
            product = scratch(shape, dxp.dtype)[:dxp.shape[0]]
            by_group = product.reshape(-1, groups, per_group).transpose(1, 0, 2)
            for tap, k_tap in zip(_window_taps(geo), self.kernel):
                _matmul(g, k_tap, by_group)
                grouped[_tap_index(tap, geo, self.out_spatial)] += product
            return
        width = self.kernel.shape[-1]
        cols = scratch(shape[:-2] + (groups, geo.taps, per_group), dxp.dtype)[:dxp.shape[0]]
        _matmul(g, self.kernel, cols.reshape(-1, groups, width).transpose(1, 0, 2))
        for number, tap in enumerate(_window_taps(geo)):
            grouped[_tap_index(tap, geo, self.out_spatial)] += cols[..., number, :]


def _grouped_kernel(kernel, geo):
    """Kernel (*window, Cg, G*Og) as (G, taps*Cg, Og)."""
    groups = geo.groups
    flat = kernel.reshape(-1, groups, kernel.shape[-1] // groups)
    return flat.transpose(1, 0, 2)


def _matmul(a, b, out, shared=False):
    """`out[g] = a[g] @ b[g]` over a leading group axis, as plain 2-D products.

    numpy's stacked matmul drops to a slow non-BLAS loop for some stride
    patterns (a broadcast operand, for one), so the groups are looped here.
    With `shared` (the batch is one chunk, run on the calling thread), each
    product is shared among the batch threads (`threaded_matmul.matmul_shared`).
    """
    for ag, bg, og in zip(a, b, out):
        if shared:
            matmul_shared(ag, bg, og)
        else:
            np.matmul(ag, bg, out=og)


def _kernel_product(cols, dy):
    """`cols[g].T @ dy[g]` per group, the long batch axis contracted.

    Of the two equal ways to order the product, the one whose left operand
    has more rows is used: with two BLAS threads on a busy machine the other
    was seen to run 5-10 times slower (both for 9-column and 64-column dy).
    That matters when the chunks run on the calling thread alone with BLAS's
    own threads (`HIKERAS_NUM_THREADS=1`); on the batch threads BLAS is
    single-threaded and both orders take the same time (measured for the
    benchmark CNN's two layers).
    """
    dk = np.empty(cols.shape[:1] + cols.shape[-1:] + dy.shape[-1:],
                  np.result_type(cols, dy))
    for c, d, k in zip(cols, dy, dk):
        if c.shape[-1] >= d.shape[-1]:
            np.matmul(c.T, d, out=k)
        else:
            np.matmul(d.T, c, out=k.T)
    return dk


def conv_forward(x, kernel, geo, epilogue=None):
    """Convolution of `x` (n, *spatial, C) with `kernel`; `epilogue(chunk)` runs in place."""
    n, groups = x.shape[0], geo.groups
    out_spatial = geo.output_spatial(x.shape[1:-1])
    filters = kernel.shape[-1]
    dtype = np.result_type(x, kernel)
    y = np.empty((n,) + out_spatial + (filters,), dtype)
    width = geo.taps * x.shape[-1] // groups
    step = _chunk(n, out_spatial, width * groups + filters, dtype.itemsize)
    cols_shape = (step,) + out_spatial + (groups,) + geo.window + (x.shape[-1] // groups,)
    kmat = _grouped_kernel(kernel, geo)
    one_chunk = step >= n

    def forward(start, stop):
        with Workspace() as scratch:
            cols = scratch(cols_shape, dtype)[:stop - start]
            _im2col(_padded(x[start:stop], geo, scratch, step), geo, out_spatial, cols)
            yc = y[start:stop].reshape(-1, groups, filters // groups)
            _matmul(cols.reshape(-1, groups, width).transpose(1, 0, 2), kmat,
                    yc.transpose(1, 0, 2), shared=one_chunk)
            if epilogue is not None:
                epilogue(yc.reshape(-1, filters))

    run_chunks(forward, n, step)
    return y


def conv_backward(dy, kernel, geo, x=None, input_shape=None, prologue=None):
    """Gradients `(dx, dkernel)` of a convolution from its output gradient `dy`.

    The kernel gradient needs the convolution's input `x` and is skipped
    without it; the input gradient is computed when `input_shape` is given
    (a transposed convolution is exactly this input gradient). `prologue(
    start, stop)` may turn a batch slice of `dy` into the gradient that
    reaches the product (e.g. through a fused activation) as a (rows,
    filters) array; it is called once per slice, from any thread.
    """
    n, groups, filters = dy.shape[0], geo.groups, kernel.shape[-1]
    channels = kernel.shape[-2] * groups
    out_spatial = dy.shape[1:-1]
    dtype = np.result_type(dy, kernel) if x is None else np.result_type(dy, kernel, x)
    width = geo.taps * channels // groups
    step = _chunk(n, out_spatial, width * groups + filters, dtype.itemsize)
    cols_shape = (step,) + out_spatial + (groups,) + geo.window + (channels // groups,)
    dx = None if input_shape is None else np.empty(input_shape, dtype)
    if dx is not None:
        padded_spatial = tuple(d + lo + hi for d, (lo, hi) in zip(dx.shape[1:-1], geo.pads))
        padded = padded_spatial != dx.shape[1:-1]
        input_gradient = _InputGradient(kernel, geo, step, out_spatial)

    def backward(start, stop):
        """This chunk's input gradient, written to `dx`, and kernel gradient, returned."""
        with Workspace() as scratch:
            g = prologue(start, stop) if prologue else dy[start:stop].reshape(-1, filters)
            g = g.reshape(-1, groups, filters // groups).transpose(1, 0, 2)
            if dx is not None:
                target = dx[start:stop]
                if padded:
                    target = scratch((step,) + padded_spatial + (channels,), dtype)[
                        :stop - start]
                input_gradient.write_to(g, target, scratch)
                if padded:
                    dx[start:stop] = target[_interior(dx.shape, geo)]
            if x is None:
                return None
            cols = scratch(cols_shape, dtype)[:stop - start]
            _im2col(_padded(x[start:stop], geo, scratch, step), geo, out_spatial, cols)
            return _kernel_product(cols.reshape(-1, groups, width).transpose(1, 0, 2), g)

    parts = run_chunks(backward, n, step)
    dk = None
    if x is not None:
        dk = np.sum(parts, axis=0) if parts else np.zeros(  # partial sums in chunk order
            (groups, width, filters // groups), dtype)
        dk = dk.reshape((groups,) + geo.window + (channels // groups, filters // groups))
        order = tuple(range(1, geo.rank + 2)) + (0, geo.rank + 2)
        dk = dk.transpose(order).reshape(kernel.shape)
    return dx, dk
