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
sum runs in a fixed order, so results do not depend on the thread count.

Other convolutions (several input channels per group, 1-D and 3-D, float16)
keep the numpy backend's GEMM kernels.
"""

import numpy as np

from ..numpy_backend import conv as numpy_conv
from ._jit import jit, prange
from ._registry import override, override_vjp

_ACTIVATIONS = {"linear": 0, "relu": 1, "sigmoid": 2, "tanh": 3}


@jit(parallel=True)
def _forward(x, kernel, bias, out, strides, dilation, pads, activation):
    batch, height, width, channels = x.shape
    kh, kw, filters = kernel.shape[0], kernel.shape[1], kernel.shape[3]
    multiplier = filters // channels
    out_h, out_w = out.shape[1], out.shape[2]
    for row in prange(batch * out_h):
        b, oh = row // out_h, row % out_h
        for ow in range(out_w):
            acc = out[b, oh, ow]
            acc[:] = 0
            for i in range(kh):
                ih = oh * strides[0] - pads[0] + i * dilation[0]
                if ih < 0 or ih >= height:
                    continue
                for j in range(kw):
                    iw = ow * strides[1] - pads[1] + j * dilation[1]
                    if iw < 0 or iw >= width:
                        continue
                    pixel = x[b, ih, iw]
                    taps = kernel[i, j, 0]
                    if multiplier == 1:   # the common case, vectorised
                        for f in range(filters):
                            acc[f] += pixel[f] * taps[f]
                    elif channels == 1:   # a single-channel (grayscale) first layer
                        p = pixel[0]
                        for f in range(filters):
                            acc[f] += p * taps[f]
                    else:
                        for f in range(filters):
                            acc[f] += pixel[f // multiplier] * taps[f]
            for f in range(filters):
                z = acc[f] + bias[f]
                if activation == 1:
                    z = max(z, 0)
                elif activation == 2:
                    z = 1 / (1 + np.exp(-z))
                elif activation == 3:
                    z = np.tanh(z)
                acc[f] = z


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


def _depthwise_geometry(x, kernel, attrs):
    """numpy's validated geometry, or None when this is not a 2-D depthwise float conv."""
    if (kernel.ndim != 4 or x.ndim != 4 or kernel.shape[2] != 1 or x.dtype != kernel.dtype
            or x.dtype not in (np.float32, np.float64)):
        return None
    geo = numpy_conv._conv_geometry(x.shape, kernel.shape, attrs.get("strides", 1),
                                    attrs.get("padding", "valid"), attrs.get("dilation_rate", 1))
    if geo.groups != x.shape[-1]:
        return None
    return geo


def _out_shape(x, kernel, geo):
    spatial = tuple(
        (n + lo + hi - d * (k - 1) - 1) // s + 1
        for n, k, s, d, (lo, hi) in zip(x.shape[1:3], kernel.shape[:2], geo.strides,
                                        geo.dilation, geo.pads))
    return (x.shape[0],) + spatial + (kernel.shape[-1],)


def _arrays(geo):
    return (np.array(geo.strides, np.int64), np.array(geo.dilation, np.int64),
            np.array([lo for lo, _ in geo.pads], np.int64))


@override("conv")
def conv(x, kernel, *bias, strides=1, padding="valid", dilation_rate=1, activation="linear"):
    """`conv` with a direct kernel for 2-D depthwise convolutions."""
    attrs = {"strides": strides, "padding": padding, "dilation_rate": dilation_rate}
    geo = _depthwise_geometry(x, kernel, attrs)
    if geo is None or activation not in _ACTIVATIONS:
        return NotImplemented
    b = bias[0] if bias else np.zeros(kernel.shape[-1], x.dtype)
    if b.dtype != x.dtype:
        return NotImplemented
    out = np.empty(_out_shape(x, kernel, geo), x.dtype)
    _forward(np.ascontiguousarray(x), np.ascontiguousarray(kernel), np.ascontiguousarray(b),
             out, *_arrays(geo), _ACTIVATIONS[activation])
    return out


@override_vjp("conv")
def _conv_vjp(node, g):
    x, kernel = node.inputs[0], node.inputs[1]
    geo = _depthwise_geometry(x, kernel, node.attrs)
    if geo is None or g.dtype != x.dtype:
        return NotImplemented
    derivative = numpy_conv._FUSED_ACTIVATIONS[node.attrs.get("activation", "linear")][1]
    gz = np.ascontiguousarray(derivative(node.outputs[0], g), dtype=x.dtype)
    arrays = _arrays(geo)
    dx = dk = None
    if node.input_refs[0] is not None:
        dx = np.empty_like(x)
        _input_gradient(gz, np.ascontiguousarray(kernel), dx, *arrays)
    if node.input_refs[1] is not None:
        dk = np.empty_like(kernel)
        _kernel_gradient(np.ascontiguousarray(x), gz, dk, *arrays)
    grads = (dx, dk)
    if len(node.input_refs) == 3:
        grads += (gz.reshape(-1, gz.shape[-1]).sum(axis=0),)
    return grads
