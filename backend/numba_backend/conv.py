"""The numba backend's `conv`: each convolution goes to the kernel that computes it fastest.

* 2-D depthwise and single-channel convolutions: the direct kernels of
  `depthwise_conv`;
* other 2-D 3x3 stride-1 convolutions: Winograd's algorithm
  (`winograd_conv`), forward and both gradients;
* everything else: the numpy backend's im2col GEMM kernels.
"""

import numpy as np

from ..numpy_backend import conv as numpy_conv
from . import depthwise_conv, winograd_conv
from ._registry import override, override_vjp

# Fewer input channels or filters than this keep im2col (see `winograd_conv.qualifies`):
# training steps of 2 -> 4 channels on 28x28 took 1.4x less time on Winograd, 8 -> 8
# channels 2x less; a single channel leaves products of one column.
WINOGRAD_MIN_CHANNELS = 2


def _winograd_geometry(x, kernel, attrs):
    """numpy's validated geometry when Winograd computes this convolution, else None."""
    if x.ndim != 4 or kernel.ndim != 4:
        return None
    geo = numpy_conv._conv_geometry(x.shape, kernel.shape, attrs.get("strides", 1),
                                    attrs.get("padding", "valid"), attrs.get("dilation_rate", 1))
    return geo if winograd_conv.qualifies(x, kernel, geo, WINOGRAD_MIN_CHANNELS) else None


@override("conv")
def conv(x, kernel, *bias, strides=1, padding="valid", dilation_rate=1, activation="linear"):
    """`conv` by a compiled kernel, or NotImplemented for numpy's."""
    attrs = {"strides": strides, "padding": padding, "dilation_rate": dilation_rate}
    out = depthwise_conv.conv(x, kernel, *bias, activation=activation, **attrs)
    if out is not NotImplemented:
        return out
    geo = _winograd_geometry(x, kernel, attrs)
    b = bias[0] if bias else np.zeros(kernel.shape[-1], x.dtype)
    if geo is None or activation not in winograd_conv.ACTIVATIONS or b.dtype != x.dtype:
        return NotImplemented
    return winograd_conv.winograd_conv(
        x, winograd_conv.kernel_transform(kernel), b, geo.pads,
        geo.output_spatial(x.shape[1:3]), activation)


@override_vjp("conv")
def _conv_vjp(node, g):
    grads = depthwise_conv.conv_vjp(node, g)
    if grads is not NotImplemented:
        return grads
    x, kernel = node.inputs[0], node.inputs[1]
    geo = _winograd_geometry(x, kernel, node.attrs)
    if geo is None or g.dtype != x.dtype:
        return NotImplemented
    derivative = numpy_conv._FUSED_ACTIVATIONS[node.attrs.get("activation", "linear")][1]
    gz = np.ascontiguousarray(derivative(node.outputs[0], g), dtype=x.dtype)
    dx = dk = None
    if node.input_refs[0] is not None:
        dx = winograd_conv.input_gradient(gz, kernel, geo, x.shape)
    if node.input_refs[1] is not None:
        dk = winograd_conv.kernel_gradient(x, gz, geo)
    grads = (dx, dk)
    if len(node.input_refs) == 3:
        grads += (gz.reshape(-1, gz.shape[-1]).sum(axis=0),)
    return grads
