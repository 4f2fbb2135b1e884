"""2-D max pooling in one pass per output row, forward and backward.

The numpy kernel makes one whole-array pass per window tap (a `maximum`
forward; an `equal`, a mask update and a multiply backward). Here each
output element reads its window once: forward keeps the running maximum
(NaN propagates, as with `np.maximum`); backward finds the first tap in
window order equal to the maximum and adds the gradient there, which is the
numpy kernel's (and TensorFlow's) routing, padding taps included: a padding
tap holds the dtype's lowest value and, if it comes first, takes the
gradient away. Rows of different images never share outputs, and a row's
windows are visited in order, so the result is the same on any number of
threads, or on the calling thread alone, where a small forward call runs
(`SERIAL_WORK`).

Other ranks and integer inputs keep the numpy kernels.
"""

import numpy as np

from ..numpy_backend import pooling as numpy_pooling
from ..numpy_backend._memo import memoized
from ._jit import jit, prange
from ._registry import override, override_vjp

# Outputs times window taps below which a forward pass runs on the calling
# thread: waking numba's threads costs tens of microseconds, which is more
# than the whole pass of a one-sample call (measured 42 us on two threads,
# 10 us on one, for the benchmark CNN's 24x24x64 pooling).
SERIAL_WORK = 1 << 19


@jit()
def _forward_rows(x, out, pool, steps, pads, first, last):
    """Output rows `first..last-1`, counted over (batch, output height)."""
    height, width, channels = x.shape[1], x.shape[2], x.shape[3]
    out_h, out_w = out.shape[1], out.shape[2]
    lowest = -np.inf
    for row in range(first, last):
        b, oh = row // out_h, row % out_h
        for ow in range(out_w):
            acc = out[b, oh, ow]
            first = True
            for i in range(pool[0]):
                ih = oh * steps[0] - pads[0] + i
                for j in range(pool[1]):
                    iw = ow * steps[1] - pads[1] + j
                    inside = 0 <= ih < height and 0 <= iw < width
                    if first:
                        for c in range(channels):
                            acc[c] = x[b, ih, iw, c] if inside else lowest
                        first = False
                    elif inside:
                        pixel = x[b, ih, iw]
                        for c in range(channels):
                            v = pixel[c]
                            m = acc[c]
                            if v > m or (np.isnan(v) and not np.isnan(m)):
                                acc[c] = v


@jit(parallel=True)
def _forward_parallel(x, out, pool, steps, pads):
    for row in prange(x.shape[0] * out.shape[1]):
        _forward_rows(x, out, pool, steps, pads, row, row + 1)


@jit(parallel=True)
def _backward(x, out, g, dx, pool, steps, pads):
    batch, height, width, channels = x.shape
    out_h, out_w = out.shape[1], out.shape[2]
    lowest = -np.inf
    for b in prange(batch):
        dx[b] = 0
        routed = np.empty(channels, np.bool_)   # this window's maximum has had its gradient
        for oh in range(out_h):
            for ow in range(out_w):
                target, grad = out[b, oh, ow], g[b, oh, ow]
                routed[:] = False
                for i in range(pool[0]):
                    ih = oh * steps[0] - pads[0] + i
                    for j in range(pool[1]):
                        iw = ow * steps[1] - pads[1] + j
                        if 0 <= ih < height and 0 <= iw < width:
                            pixel, slot = x[b, ih, iw], dx[b, ih, iw]
                            for c in range(channels):
                                if not routed[c] and pixel[c] == target[c]:
                                    slot[c] += grad[c]
                                    routed[c] = True
                        else:
                            for c in range(channels):
                                if target[c] == lowest:   # padding takes it first
                                    routed[c] = True


@memoized
def _geometry(shape, dtype, pool_size, strides, padding):
    """`(pool, steps, pads, counts)` (index arrays and output spatial shape), or None
    when this is not a 2-D float pool."""
    if len(shape) != 4 or dtype not in (np.float32, np.float64):
        return None
    pool, steps, pads, counts = numpy_pooling._window("max_pool", shape, pool_size, strides,
                                                      padding)
    return (np.array(pool, np.int64), np.array(steps, np.int64),
            np.array([lo for lo, _ in pads], np.int64), counts)


@override("max_pool")
def max_pool(x, pool_size, strides=None, padding="valid"):
    """Maximum over each window (2-D float inputs compiled)."""
    geometry = _geometry(x.shape, x.dtype, pool_size, strides, padding)
    if geometry is None:
        return NotImplemented
    pool, steps, pads, counts = geometry
    out = np.empty(x.shape[:1] + counts + x.shape[-1:], x.dtype)
    x = np.ascontiguousarray(x)
    if out.size * pool.prod() < SERIAL_WORK:
        _forward_rows(x, out, pool, steps, pads, 0, out.shape[0] * out.shape[1])
    else:
        _forward_parallel(x, out, pool, steps, pads)
    return out


@override_vjp("max_pool")
def _max_pool_vjp(node, g):
    x, out = node.inputs[0], node.outputs[0]
    attrs = node.attrs
    geometry = _geometry(x.shape, x.dtype, attrs["pool_size"], attrs.get("strides"),
                         attrs.get("padding", "valid"))
    if geometry is None or g.dtype != x.dtype:
        return NotImplemented
    pool, steps, pads, _ = geometry
    dx = np.empty_like(x)
    _backward(np.ascontiguousarray(x), np.ascontiguousarray(out), np.ascontiguousarray(g), dx,
              pool, steps, pads)
    return (dx,)
