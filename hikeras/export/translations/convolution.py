"""Convolutions and pooling, from Keras's channels-last layouts to ONNX's channels-first.

The backend's `conv`, `conv_transpose` and pooling ops take `(batch, *spatial,
channels)` inputs and Keras kernel layouts; ONNX's `Conv`, `ConvTranspose`
and pooling nodes take `(batch, channels, *spatial)` and `(out, in, *window)`
kernels. Each translation transposes its input in and its output back (ONNX
runtimes fold adjacent transposes) and writes the kernel in ONNX's layout as a
constant. Padding is explicit, computed from the shapes the trace knows, so
"same" and "causal" come out exactly as the backend pads.
"""

import numpy as np

from ...backend import shape_rules as rules
from ._common import activation
from .registry import translates


def _tuple(value, rank):
    return (int(value),) * rank if isinstance(value, (int, np.integer)) else tuple(
        int(v) for v in value)


def _to_channels_first(g, x, rank):
    return g.node("Transpose", [x], perm=[0, rank + 1] + list(range(1, rank + 1)))


def _to_channels_last(g, y, rank):
    return g.node("Transpose", [y], perm=[0] + list(range(2, rank + 2)) + [1])


def _pads(g, spatial, window, strides, dilation, padding):
    if padding != "valid" and any(n is None for n in spatial):
        raise g.error(f"padding={padding!r} on spatial axes of unknown length {spatial}")
    pairs = [rules.window_padding(n, k, s, d, padding) if padding != "valid" else (0, 0)
             for n, k, s, d in zip(spatial, window, strides, dilation)]
    return [p[0] for p in pairs] + [p[1] for p in pairs]


def _kernel_array(kernel):
    return np.asarray(getattr(kernel, "value", kernel))


@translates("conv")
def _conv(g, op):
    dtype = op.outputs[0].dtype
    x, kernel, *bias = op.inputs
    k = _kernel_array(kernel)
    if not isinstance(k, np.ndarray) or k.dtype == object:
        raise g.error("a kernel computed from the inputs (only constant kernels export)")
    rank = k.ndim - 2
    strides = _tuple(op.attrs.get("strides", 1), rank)
    dilation = _tuple(op.attrs.get("dilation_rate", 1), rank)
    groups = x.shape[-1] // k.shape[-2]
    pads = _pads(g, x.shape[1:-1], k.shape[:rank], strides, dilation,
                 op.attrs.get("padding", "valid"))
    w = g.constant(np.transpose(k, (rank + 1, rank) + tuple(range(rank))), dtype,
                   hint=f"{getattr(kernel, 'path', 'kernel')}/oihw")
    inputs = [_to_channels_first(g, g.value(x, dtype), rank), w]
    if bias and bias[0] is not None:
        inputs.append(g.value(bias[0], dtype))
    y = g.node("Conv", inputs, kernel_shape=list(k.shape[:rank]), strides=list(strides),
               dilations=list(dilation), pads=pads, group=int(groups))
    y = _to_channels_last(g, y, rank)
    return activation(g, op.attrs.get("activation", "linear"), y, dtype)


@translates("conv_transpose")
def _conv_transpose(g, op):
    dtype = op.outputs[0].dtype
    x, kernel, *bias = op.inputs
    k = _kernel_array(kernel)
    rank = k.ndim - 2
    window = k.shape[:rank]
    strides = _tuple(op.attrs.get("strides", 1), rank)
    dilation = _tuple(op.attrs.get("dilation_rate", 1), rank)
    padding = op.attrs.get("padding", "valid")
    lengths, out_lengths = x.shape[1:-1], op.outputs[0].shape[1:-1]
    if any(n is None for n in lengths + out_lengths):
        raise g.error("a transposed convolution over spatial axes of unknown length")
    begins, ends, extra = [], [], []
    for n, out, w, s, d in zip(lengths, out_lengths, window, strides, dilation):
        # The output is the input gradient of a convolution over `out` positions padded
        # by `before`; ONNX's full transposed output is trimmed (or padded) to it.
        before = rules.window_padding(out, w, s, d, padding)[0] if padding != "valid" else 0
        full = (n - 1) * s + d * (w - 1) + 1
        after = full - before - out
        begins.append(before)
        ends.append(max(after, 0))
        extra.append(max(-after, 0))
    w = g.constant(np.transpose(k, (rank + 1, rank) + tuple(range(rank))), dtype,
                   hint=f"{getattr(kernel, 'path', 'kernel')}/iohw")
    inputs = [_to_channels_first(g, g.value(x, dtype), rank), w]
    if bias and bias[0] is not None:
        inputs.append(g.value(bias[0], dtype))
    y = g.node("ConvTranspose", inputs, kernel_shape=list(window), strides=list(strides),
               dilations=list(dilation), pads=begins + ends,
               output_padding=extra if any(extra) else None)
    y = _to_channels_last(g, y, rank)
    return activation(g, op.attrs.get("activation", "linear"), y, dtype)


@translates("max_pool", "avg_pool")
def _pool(g, op):
    x = op.inputs[0]
    rank = len(x.shape) - 2
    pool = _tuple(op.attrs["pool_size"], rank)
    strides = op.attrs.get("strides")
    strides = pool if strides is None else _tuple(strides, rank)
    padding = op.attrs.get("padding", "valid")
    pads = _pads(g, x.shape[1:-1], pool, strides, (1,) * rank, padding)
    kind = "MaxPool" if op.name == "max_pool" else "AveragePool"
    extra = {"count_include_pad": 0} if kind == "AveragePool" else {}
    dtype = op.outputs[0].dtype
    y = g.node(kind, [_to_channels_first(g, g.value(x, dtype), rank)], kernel_shape=list(pool),
               strides=list(strides), pads=pads, **extra)
    return _to_channels_last(g, y, rank)
