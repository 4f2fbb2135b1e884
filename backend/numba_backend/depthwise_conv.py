"""Depthwise (and single-channel) 2-D convolution, computed directly instead of through im2col.

A depthwise convolution (one input channel per group, MobileNet's
`DepthwiseConv2D`) has a `K x K` window per channel and no sum over channels:
lowered to GEMM it is one tiny product per channel, and the numpy backend's
im2col copies dominate it. Here each output pixel is a sum of `K * K`
products over contiguous channel vectors, written straight into the output
with the bias and activation fused. A convolution of a single-channel
input (a grayscale first layer) is the same computation with one group, and
is lowered the same way. The backward pass scatters the input
gradient image by image and reduces the kernel gradient tap by tap. Every
sum runs in a fixed order, so results do not depend on the thread count. A
small forward call (one-sample inference) runs on the calling thread
(`SERIAL_WORK`), with the same sums as the parallel loop computes.

Other convolutions (several input channels per group, 1-D and 3-D, float16)
keep the numpy backend's GEMM kernels.
"""

import numpy as np

from ..numpy_backend import conv as numpy_conv
from ..numpy_backend._memo import memoized
from ._fused_gradient import pre_activation_gradients
from ._jit import jit, prange
from ._registry import override, override_vjp

_ACTIVATIONS = {"linear": 0, "relu": 1, "sigmoid": 2, "tanh": 3}


# Multiply-adds below which a forward pass runs on the calling thread: waking
# numba's threads costs tens of microseconds, about what a one-sample call of
# a first layer takes on one thread (the benchmark CNN's 28x28x1 -> 32
# filters: 52 us on two threads, 28 us on one).
SERIAL_WORK = 1 << 20


@jit()
def _forward_rows(x, kernel, bias, out, strides, dilation, pads, activation, first, last):
    """Output rows `first..last-1`, counted over (batch, output height)."""
    height, width, channels = x.shape[1], x.shape[2], x.shape[3]
    kh, kw, filters = kernel.shape[0], kernel.shape[1], kernel.shape[3]
    multiplier = filters // channels
    out_h, out_w = out.shape[1], out.shape[2]
    acc = np.empty(filters, out.dtype)
    for row in range(first, last):
        b, oh = row // out_h, row % out_h
        for ow in range(out_w):
            for f in range(filters):   # (a slice assignment costs more here)
                acc[f] = bias[f]
            for i in range(kh):
                ih = oh * strides[0] - pads[0] + i * dilation[0]
                if ih < 0 or ih >= height:
                    continue
                for j in range(kw):
                    iw = ow * strides[1] - pads[1] + j * dilation[1]
                    if iw < 0 or iw >= width:
                        continue
                    if multiplier == 1:   # the common case
                        for f in range(filters):
                            acc[f] += x[b, ih, iw, f] * kernel[i, j, 0, f]
                    else:   # (channel by channel: 2x faster than indexing by f // multiplier)
                        for c in range(channels):
                            p = x[b, ih, iw, c]
                            for f in range(c * multiplier, (c + 1) * multiplier):
                                acc[f] += p * kernel[i, j, 0, f]
            for f in range(filters):   # (inline: a call here stops vectorisation)
                z = acc[f]
                if activation == 1:
                    z = max(z, 0)
                elif activation == 2:
                    z = 1 / (1 + np.exp(-z))
                elif activation == 3:
                    z = np.tanh(z)
                out[b, oh, ow, f] = z


@jit()
def _single_channel_rows(x, kernel, bias, out, strides, dilation, pads, activation, first, last):
    """`_forward_rows` for a single-channel input, tap by tap along a whole output
    row (kept in cache): the same sums in the same order, 1.2-1.4x faster for the
    benchmark CNN's first layer than pixel by pixel."""
    height, width = x.shape[1], x.shape[2]
    kh, kw, filters = kernel.shape[0], kernel.shape[1], kernel.shape[3]
    out_h, out_w = out.shape[1], out.shape[2]
    for row in range(first, last):
        b, oh = row // out_h, row % out_h
        line = out[b, oh]   # (out_w, filters)
        for ow in range(out_w):
            for f in range(filters):
                line[ow, f] = bias[f]
        for i in range(kh):
            ih = oh * strides[0] - pads[0] + i * dilation[0]
            if ih < 0 or ih >= height:
                continue
            for j in range(kw):
                taps = kernel[i, j, 0]
                for ow in range(out_w):
                    iw = ow * strides[1] - pads[1] + j * dilation[1]
                    if iw < 0 or iw >= width:
                        continue
                    p = x[b, ih, iw, 0]
                    for f in range(filters):
                        line[ow, f] += p * taps[f]
        for ow in range(out_w):
            for f in range(filters):
                z = line[ow, f]
                if activation == 1:
                    z = max(z, 0)
                elif activation == 2:
                    z = 1 / (1 + np.exp(-z))
                elif activation == 3:
                    z = np.tanh(z)
                line[ow, f] = z


@jit()
def _rows(x, kernel, bias, out, strides, dilation, pads, activation, first, last):
    if x.shape[3] == 1:
        _single_channel_rows(x, kernel, bias, out, strides, dilation, pads, activation,
                             first, last)
    else:
        _forward_rows(x, kernel, bias, out, strides, dilation, pads, activation, first, last)


@jit(parallel=True)
def _forward_parallel(x, kernel, bias, out, strides, dilation, pads, activation):
    height = out.shape[1]
    for image in prange(x.shape[0]):
        _rows(x, kernel, bias, out, strides, dilation, pads, activation,
              image * height, (image + 1) * height)


@jit(parallel=True)
def _input_gradient(gz, kernel, dx, strides, dilation, pads):
    batch, height, width, channels = dx.shape
    kh, kw, filters = kernel.shape[0], kernel.shape[1], kernel.shape[3]
    multiplier = filters // channels
    out_h, out_w = gz.shape[1], gz.shape[2]
    for b in prange(batch):
        dx[b] = 0
        for oh in range(out_h):
            for ow in range(out_w):
                grad = gz[b, oh, ow]
                for i in range(kh):
                    ih = oh * strides[0] - pads[0] + i * dilation[0]
                    if ih < 0 or ih >= height:
                        continue
                    for j in range(kw):
                        iw = ow * strides[1] - pads[1] + j * dilation[1]
                        if iw < 0 or iw >= width:
                            continue
                        pixel = dx[b, ih, iw]
                        taps = kernel[i, j, 0]
                        if multiplier == 1:
                            for f in range(filters):
                                pixel[f] += grad[f] * taps[f]
                        else:
                            for f in range(filters):
                                pixel[f // multiplier] += grad[f] * taps[f]


@jit(parallel=True)
def _kernel_gradient(x, gz, dk, strides, dilation, pads):
    batch, height, width, channels = x.shape
    kh, kw, filters = dk.shape[0], dk.shape[1], dk.shape[3]
    multiplier = filters // channels
    out_h, out_w = gz.shape[1], gz.shape[2]
    for tap in prange(kh * kw):
        i, j = tap // kw, tap % kw
        acc = dk[i, j, 0]
        acc[:] = 0
        for b in range(batch):
            for oh in range(out_h):
                ih = oh * strides[0] - pads[0] + i * dilation[0]
                if ih < 0 or ih >= height:
                    continue
                for ow in range(out_w):
                    iw = ow * strides[1] - pads[1] + j * dilation[1]
                    if iw < 0 or iw >= width:
                        continue
                    pixel = x[b, ih, iw]
                    grad = gz[b, oh, ow]
                    if multiplier == 1:
                        for f in range(filters):
                            acc[f] += pixel[f] * grad[f]
                    elif channels == 1:
                        p = pixel[0]
                        for f in range(filters):
                            acc[f] += p * grad[f]
                    else:
                        for f in range(filters):
                            acc[f] += pixel[f // multiplier] * grad[f]


@memoized
def _plan(x_shape, kernel_shape, x_dtype, kernel_dtype, strides, padding, dilation_rate):
    """`(geometry, output shape, index arrays)` of a 2-D depthwise float convolution
    (numpy's validated geometry), or None for any other convolution."""
    if (len(kernel_shape) != 4 or len(x_shape) != 4 or kernel_shape[2] != 1
            or x_dtype != kernel_dtype or x_dtype not in (np.float32, np.float64)):
        return None
    geo = numpy_conv._conv_geometry(x_shape, kernel_shape, strides, padding, dilation_rate)
    if geo.groups != x_shape[-1]:
        return None
    spatial = tuple(
        (n + lo + hi - d * (k - 1) - 1) // s + 1
        for n, k, s, d, (lo, hi) in zip(x_shape[1:3], kernel_shape[:2], geo.strides,
                                        geo.dilation, geo.pads))
    arrays = (np.array(geo.strides, np.int64), np.array(geo.dilation, np.int64),
              np.array([lo for lo, _ in geo.pads], np.int64))
    return geo, (x_shape[0],) + spatial + (kernel_shape[-1],), arrays


@override("conv")
def conv(x, kernel, *bias, strides=1, padding="valid", dilation_rate=1, activation="linear"):
    """`conv` with a direct kernel for 2-D depthwise convolutions."""
    plan = _plan(x.shape, kernel.shape, x.dtype, kernel.dtype, strides, padding, dilation_rate)
    if plan is None or activation not in _ACTIVATIONS:
        return NotImplemented
    _, out_shape, arrays = plan
    b = bias[0] if bias else np.zeros(kernel.shape[-1], x.dtype)
    if b.dtype != x.dtype:
        return NotImplemented
    out = np.empty(out_shape, x.dtype)
    arguments = (np.ascontiguousarray(x), np.ascontiguousarray(kernel), np.ascontiguousarray(b),
                 out, *arrays, _ACTIVATIONS[activation])
    if out.size * kernel.shape[0] * kernel.shape[1] < SERIAL_WORK:
        _rows(*arguments, 0, out.shape[0] * out.shape[1])
    else:
        _forward_parallel(*arguments)
    return out


@override_vjp("conv")
def _conv_vjp(node, g):
    x, kernel = node.inputs[0], node.inputs[1]
    attrs = node.attrs
    plan = _plan(x.shape, kernel.shape, x.dtype, kernel.dtype, attrs.get("strides", 1),
                 attrs.get("padding", "valid"), attrs.get("dilation_rate", 1))
    if plan is None or g.dtype != x.dtype:
        return NotImplemented
    gz, bias_gradient = pre_activation_gradients(node, g, x.dtype)
    arrays = plan[2]
    dx = dk = None
    if node.input_refs[0] is not None:
        dx = np.empty_like(x)
        _input_gradient(gz, np.ascontiguousarray(kernel), dx, *arrays)
    if node.input_refs[1] is not None:
        dk = np.empty_like(kernel)
        _kernel_gradient(np.ascontiguousarray(x), gz, dk, *arrays)
    return (dx, dk) if bias_gradient is None else (dx, dk, bias_gradient)
