"""Convolution ops: `conv` and `conv_transpose`, with fused bias and activation.

Both work on `(batch, *spatial, channels)` inputs of any spatial rank (the
kernel's rank decides it) and Keras kernel layouts: `conv` takes
`(*window, in_channels // groups, filters)` (the group count is inferred, as
in `keras.ops.conv`), `conv_transpose` takes `(*window, filters,
in_channels)`. Like `dense`, they add the bias and apply a linear, relu,
sigmoid or tanh activation in the same pass, and differentiate all three in
one VJP that reads the activation's output. The products are in `conv_gemm`.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from .conv_gemm import conv_backward, conv_forward, geometry
from ._memo import memoized
from .linalg import _FUSED_ACTIVATIONS
from ._registry import define
from .batch_threads import declares_batch_kernel


def _tuple(value, rank, name, minimum=1):
    """An int or a sequence of `rank` ints (each >= `minimum`) as a tuple."""
    values = (value,) * rank if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) != rank or not all(
            isinstance(v, (int, np.integer)) and v >= minimum for v in values):
        raise ValueError(
            f"{name} must be an integer >= {minimum} or a sequence of {rank} of them. "
            f"Received: {name}={value!r}")
    return tuple(int(v) for v in values)


def _layout(op, x_shape, k_shape, strides, padding, dilation_rate, paddings):
    """Validated `(rank, strides, dilation)` of a convolution."""
    rank = len(k_shape) - 2
    if rank < 1 or len(x_shape) != rank + 2:
        raise ValueError(
            f"{op} needs an input of rank {rank + 2} (batch, *spatial, channels) for a kernel "
            f"of rank {len(k_shape)}. Received: input shape {tuple(x_shape)}, kernel shape "
            f"{tuple(k_shape)}")
    if padding not in paddings or (padding == "causal" and rank != 1):
        allowed = paddings if rank == 1 else tuple(p for p in paddings if p != "causal")
        raise ValueError(f"{op}: padding must be one of {allowed} for a {rank}-D convolution. "
                         f"Received: padding={padding!r}")
    return rank, _tuple(strides, rank, "strides"), _tuple(dilation_rate, rank, "dilation_rate")


def _groups(x_shape, k_shape):
    channels, per_group, filters = x_shape[-1], k_shape[-2], k_shape[-1]
    if channels is None:
        return 1
    groups = channels // per_group if per_group else 0
    if not groups or channels % per_group or filters % groups:
        raise ValueError(
            "conv: the input's channels must be a multiple of the kernel's input channels, "
            "and the filters a multiple of the resulting number of groups. Received: input "
            f"shape {tuple(x_shape)}, kernel shape {tuple(k_shape)}")
    return groups


def _window_counts(op, spatial, window, strides, dilation, padding):
    counts = tuple(rules.window_count(n, k, s, d, padding)
                   for n, k, s, d in zip(spatial, window, strides, dilation))
    if any(c is not None and c < 1 for c in counts):
        raise ValueError(
            f"{op}: the kernel (size {tuple(window)}, dilation {dilation}) does not fit in "
            f"the input with padding={padding!r}. Received: spatial shape {tuple(spatial)}")
    return counts


@memoized   # called with concrete shapes only, by the kernels
def _conv_geometry(x_shape, k_shape, strides, padding, dilation_rate):
    rank, strides, dilation = _layout("conv", x_shape, k_shape, strides, padding,
                                      dilation_rate, rules.WINDOW_PADDINGS)
    _window_counts("conv", x_shape[1:-1], k_shape[:rank], strides, dilation, padding)
    return geometry(x_shape[1:-1], k_shape[:rank], strides, dilation, padding,
                    _groups(x_shape, k_shape))


def _transposed_geometry(x_shape, k_shape, strides, padding, output_padding, dilation_rate):
    """`(output spatial shape, geometry of the convolution it transposes)`."""
    rank, strides, dilation = _layout("conv_transpose", x_shape, k_shape, strides, padding,
                                      dilation_rate, ("valid", "same"))
    if x_shape[-1] is not None and x_shape[-1] != k_shape[-1]:
        raise ValueError(
            "conv_transpose: the kernel's last axis must match the input's channels. "
            f"Received: input shape {tuple(x_shape)}, kernel shape {tuple(k_shape)}")
    extra = (None,) * rank
    if output_padding is not None:
        extra = _tuple(output_padding, rank, "output_padding", minimum=0)
        if any(p >= s for p, s in zip(extra, strides)):
            raise ValueError(
                "conv_transpose: output_padding must be smaller than strides. Received: "
                f"output_padding={output_padding!r}, strides={strides}")
    window = k_shape[:rank]
    spatial = tuple(rules.transposed_length(n, k, s, d, padding, p)
                    for n, k, s, d, p in zip(x_shape[1:-1], window, strides, dilation, extra))
    if None in spatial:
        return spatial, None
    return spatial, geometry(spatial, window, strides, dilation, padding)


def _epilogue(bias, activation):
    """In-place `activation(rows + bias)` on a (rows, filters) chunk."""
    act = _FUSED_ACTIVATIONS[activation][0]

    def epilogue(rows):
        if bias:
            rows += bias[0]
        act(rows)

    return epilogue


def _fused_gradient(node, g):
    """`(prologue, bias gradient)`: the gradient through the fused activation, by batch slice.

    `prologue(start, stop)` may run on several threads at once, so each slice's
    bias gradient is kept apart and the slices are summed in batch order by
    `bias_gradient()` (`None` without a bias), once every slice has been seen.
    """
    derivative = _FUSED_ACTIVATIONS[node.attrs.get("activation", "linear")][1]
    out = node.outputs[0]
    filters = g.shape[-1]
    with_bias = len(node.input_refs) == 3
    bias_parts = {}  # slice start -> that slice's bias gradient

    def prologue(start, stop):
        rows = derivative(out[start:stop], g[start:stop]).reshape(-1, filters)
        if with_bias:
            bias_parts[start] = rows.sum(axis=0)
        return rows

    def bias_gradient():
        if not with_bias:
            return None
        parts = [bias_parts[start] for start in sorted(bias_parts)]
        return np.sum(parts, axis=0) if parts else np.zeros(filters, g.dtype)

    return prologue, bias_gradient


def _cast(grad, like):
    return None if grad is None else grad.astype(like.dtype, copy=False)


def _conv_shape(x, kernel, *bias, strides=1, padding="valid", dilation_rate=1,
                activation="linear"):
    sx, sk = rules.shape_of(x), rules.shape_of(kernel)
    rank, strides, dilation = _layout("conv", sx, sk, strides, padding, dilation_rate,
                                      rules.WINDOW_PADDINGS)
    _groups(sx, sk)
    counts = _window_counts("conv", sx[1:-1], sk[:rank], strides, dilation, padding)
    return SymbolicTensor((sx[0],) + counts + (sk[-1],), rules.result_dtype(x, kernel))


@define("conv", shape=declares_batch_kernel(_conv_shape), save_inputs=(0, 1),
        save_outputs=(0,))
def conv(x, kernel, *bias, strides=1, padding="valid", dilation_rate=1, activation="linear"):
    """`activation(convolution(x, kernel) + bias)`; `bias` may be omitted."""
    geo = _conv_geometry(x.shape, kernel.shape, strides, padding, dilation_rate)
    return conv_forward(x, kernel, geo, _epilogue(bias, activation))


@conv.defvjp
def _conv_vjp(node, g):
    x, kernel = node.inputs[0], node.inputs[1]
    attrs = node.attrs
    geo = _conv_geometry(x.shape, kernel.shape, attrs.get("strides", 1),
                         attrs.get("padding", "valid"), attrs.get("dilation_rate", 1))
    prologue, bias_gradient = _fused_gradient(node, g)
    # The input gradient of a first layer (fed with data) is never needed.
    dx, dk = conv_backward(
        g, kernel, geo, x=None if node.input_refs[1] is None else x,
        input_shape=None if node.input_refs[0] is None else x.shape, prologue=prologue)
    grads = (_cast(dx, x), _cast(dk, kernel))
    bias_grad = bias_gradient()
    return grads if bias_grad is None else grads + (bias_grad,)


def _conv_transpose_shape(x, kernel, *bias, strides=1, padding="valid", output_padding=None,
                          dilation_rate=1, activation="linear"):
    sx, sk = rules.shape_of(x), rules.shape_of(kernel)
    spatial, _ = _transposed_geometry(sx, sk, strides, padding, output_padding, dilation_rate)
    return SymbolicTensor((sx[0],) + spatial + (sk[-2],), rules.result_dtype(x, kernel))


@define("conv_transpose", shape=declares_batch_kernel(_conv_transpose_shape),
        save_inputs=(0, 1), save_outputs=(0,))
def conv_transpose(x, kernel, *bias, strides=1, padding="valid", output_padding=None,
                   dilation_rate=1, activation="linear"):
    """The transposed convolution (the input gradient of `conv`), plus bias and activation.

    The output's spatial lengths follow Keras: `length * stride` for "same",
    `length * stride + max(window - stride, 0)` for "valid", and with
    `output_padding` `(length - 1) * stride + window - trim + output_padding`,
    where "same" trims `2 * (window // 2)`.
    """
    spatial, geo = _transposed_geometry(x.shape, kernel.shape, strides, padding,
                                        output_padding, dilation_rate)
    out, _ = conv_backward(x, kernel, geo, input_shape=(x.shape[0],) + spatial
                           + (kernel.shape[-2],))
    _epilogue(bias, activation)(out.reshape(-1, out.shape[-1]))
    return out


@conv_transpose.defvjp
def _conv_transpose_vjp(node, g):
    x, kernel = node.inputs[0], node.inputs[1]
    attrs = node.attrs
    _, geo = _transposed_geometry(x.shape, kernel.shape, attrs.get("strides", 1),
                                  attrs.get("padding", "valid"), attrs.get("output_padding"),
                                  attrs.get("dilation_rate", 1))
    prologue, bias_gradient = _fused_gradient(node, g)
    gz = prologue(0, g.shape[0]).reshape(g.shape)
    dx = None if node.input_refs[0] is None else conv_forward(gz, kernel, geo)
    dk = None
    if node.input_refs[1] is not None:
        _, dk = conv_backward(x, kernel, geo, x=gz)
    grads = (_cast(dx, x), _cast(dk, kernel))
    bias_grad = bias_gradient()
    return grads if bias_grad is None else grads + (bias_grad,)
