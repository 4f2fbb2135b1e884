"""Convolutions, pooling and block rearrangements of `keras.ops.nn`.

Inputs are `(batch, *spatial, channels)` (`data_format="channels_last"`,
the default from `hikeras.backend.image_data_format()`) or
`(batch, channels, *spatial)`; kernels are `(*kernel_size, in, out)` in
both. The work is done by the backend's GEMM convolution and strided
pooling kernels, in channels-last layout, so a channels-first call pays two
transposes. `unfold` and `fold` follow PyTorch (channels first, always).

>>> import numpy as np
>>> conv(np.ones((1, 4, 4, 1)), np.ones((3, 3, 1, 2))).shape
(1, 2, 2, 2)
"""

import numpy as np

from .. import backend
from .core import shape, tensor_operand
from .math import float_operand

_apply = backend.apply


def _data_format(data_format):
    data_format = backend.image_data_format() if data_format is None else data_format
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            "data_format must be 'channels_last' or 'channels_first'. "
            f"Received: data_format={data_format!r}")
    return data_format


def _to_channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    rank = len(shape(x))
    return _apply("transpose", x, axes=(0,) + tuple(range(2, rank)) + (1,))


def _from_channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    rank = len(shape(x))
    return _apply("transpose", x, axes=(0, rank - 1) + tuple(range(1, rank - 1)))


def _padding(padding, op):
    padding = padding.lower() if isinstance(padding, str) else padding
    if padding not in ("valid", "same"):
        raise ValueError(f"{op}: padding must be 'valid' or 'same'. Received: padding={padding!r}")
    return padding


def _check_rank(x, kernel, op):
    sx, sk = shape(x), shape(kernel)
    if len(sx) != len(sk) or len(sx) not in (3, 4, 5):
        raise ValueError(
            f"{op} needs a 3-D, 4-D or 5-D input and a kernel of the same rank. "
            f"Received: inputs.shape={sx}, kernel.shape={sk}")


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (1-D to 3-D) of `inputs` with `kernel` `(*kernel_size, in, out)`.

    A kernel with fewer input channels than `inputs` has makes a grouped
    convolution, as in Keras.
    """
    data_format = _data_format(data_format)
    x, kernel = float_operand(inputs), float_operand(kernel)
    _check_rank(x, kernel, "conv")
    out = _apply("conv", _to_channels_last(x, data_format), kernel, strides=strides,
                 padding=_padding(padding, "conv"), dilation_rate=dilation_rate)
    return _from_channels_last(out, data_format)


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                   data_format=None, dilation_rate=1):
    """The transposed convolution; `kernel` is `(*kernel_size, out, in)`, as in Keras."""
    data_format = _data_format(data_format)
    x, kernel = float_operand(inputs), float_operand(kernel)
    _check_rank(x, kernel, "conv_transpose")
    out = _apply("conv_transpose", _to_channels_last(x, data_format), kernel, strides=strides,
                 padding=_padding(padding, "conv_transpose"), output_padding=output_padding,
                 dilation_rate=dilation_rate)
    return _from_channels_last(out, data_format)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """Each input channel convolved with its own `multiplier` filters.

    `kernel` is `(*kernel_size, in, multiplier)`; output channel
    `c * multiplier + m` is channel `c` convolved with filter `m`.
    """
    data_format = _data_format(data_format)
    x, kernel = float_operand(inputs), float_operand(kernel)
    _check_rank(x, kernel, "depthwise_conv")
    sk = shape(kernel)
    grouped = _apply("reshape", kernel, shape=sk[:-2] + (1, sk[-2] * sk[-1]))
    out = _apply("conv", _to_channels_last(x, data_format), grouped, strides=strides,
                 padding=_padding(padding, "depthwise_conv"), dilation_rate=dilation_rate)
    return _from_channels_last(out, data_format)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """`depthwise_conv` followed by a 1x1 convolution with `pointwise_kernel`."""
    data_format = _data_format(data_format)
    depthwise = depthwise_conv(inputs, depthwise_kernel, strides, padding, data_format,
                               dilation_rate)
    return conv(depthwise, pointwise_kernel, 1, "valid", data_format, 1)


def _pool(op, kernel_op, inputs, pool_size, strides, padding, data_format):
    data_format = _data_format(data_format)
    x = tensor_operand(inputs)
    if op == "average_pool":
        x = float_operand(x)
    out = _apply(kernel_op, _to_channels_last(x, data_format), pool_size=pool_size,
                 strides=strides, padding=_padding(padding, op))
    return _from_channels_last(out, data_format)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """The maximum over each `pool_size` window (strides default to `pool_size`)."""
    return _pool("max_pool", "max_pool", inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """The mean over each window; with "same" padding, over its real elements only."""
    return _pool("average_pool", "avg_pool", inputs, pool_size, strides, padding, data_format)


def _adaptive(reduction, inputs, output_size, data_format):
    data_format = _data_format(data_format)
    x = _to_channels_last(float_operand(inputs), data_format)
    spatial = shape(x)[1:-1]
    sizes = (output_size,) * len(spatial) if isinstance(output_size, int) else tuple(
        output_size)
    if len(sizes) != len(spatial) or any(s is None for s in spatial):
        raise ValueError(
            f"adaptive pooling needs one output size per known spatial axis. Received: "
            f"inputs.shape={shape(inputs)}, output_size={output_size}")
    # The bins are products of per-axis intervals, so the pool is separable:
    # reduce one axis at a time over bins [floor(i L / n), ceil((i + 1) L / n)).
    for axis, (length, bins) in enumerate(zip(spatial, sizes), start=1):
        pieces = []
        for i in range(bins):
            start, stop = (i * length) // bins, -(-((i + 1) * length) // bins)
            key = (slice(None),) * axis + (slice(start, stop),)
            pieces.append(_apply(reduction, _apply("getitem", x, key=key), axis=axis,
                                 keepdims=True))
        x = _apply("concatenate", *pieces, axis=axis)
    return _from_channels_last(x, data_format)


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed `output_size`, with PyTorch's bins."""
    return _adaptive("mean", inputs, output_size, data_format)


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed `output_size`, with PyTorch's bins."""
    return _adaptive("max", inputs, output_size, data_format)


def _block_shape(x, block_size, data_format, op):
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"{op}: invalid data_format. Received: data_format={data_format!r}")
    s = shape(x)
    if len(s) != 4:
        raise ValueError(f"{op} needs a 4-D input. Received: x.shape={s}")
    return s


def depth_to_space(x, block_size, data_format="channels_last"):
    """Moves channel blocks into `block_size x block_size` spatial tiles (TensorFlow's order)."""
    x = tensor_operand(x)
    _block_shape(x, block_size, data_format, "depth_to_space")
    x = _to_channels_last(x, data_format)
    _, h, w, c = shape(x)
    b = int(block_size)
    if c is not None and c % (b * b):
        raise ValueError(
            "depth_to_space needs channels divisible by block_size**2. "
            f"Received: x.shape={shape(x)}, block_size={block_size}")
    depth = None if c is None else c // (b * b)
    x = _apply("reshape", x, shape=(-1, h, w, b, b, depth))
    x = _apply("transpose", x, axes=(0, 1, 3, 2, 4, 5))
    x = _apply("reshape", x, shape=(-1, _times(h, b), _times(w, b), depth))
    return _from_channels_last(x, data_format)


def space_to_depth(x, block_size, data_format="channels_last"):
    """Moves `block_size x block_size` spatial tiles into channels; the inverse of `depth_to_space`."""
    x = tensor_operand(x)
    _block_shape(x, block_size, data_format, "space_to_depth")
    x = _to_channels_last(x, data_format)
    _, h, w, c = shape(x)
    b = int(block_size)
    if h is not None and h % b or w is not None and w % b:
        raise ValueError(
            "space_to_depth needs height and width divisible by block_size. "
            f"Received: x.shape={shape(x)}, block_size={block_size}")
    x = _apply("reshape", x, shape=(-1, h // b, b, w // b, b, c))
    x = _apply("transpose", x, axes=(0, 1, 3, 2, 4, 5))
    x = _apply("reshape", x, shape=(-1, h // b, w // b, b * b * c))
    return _from_channels_last(x, data_format)


def _times(n, b):
    return None if n is None else n * b


def _pair(value, name, op):
    values = (value, value) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) != 2:
        raise ValueError(f"{op}: {name} must be an int or a pair. Received: {name}={value!r}")
    return tuple(int(v) for v in values)


def _unfold_geometry(size, kernel_size, dilation, padding, stride, op):
    k, d, p, s = (_pair(v, n, op) for v, n in (
        (kernel_size, "kernel_size"), (dilation, "dilation"), (padding, "padding"),
        (stride, "stride")))
    counts = tuple((n + 2 * pi - di * (ki - 1) - 1) // si + 1
                   for n, ki, di, pi, si in zip(size, k, d, p, s))
    return k, d, p, s, counts


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of `(N, C, H, W)` as columns: `(N, C * kh * kw, blocks)` (PyTorch's `unfold`)."""
    x = tensor_operand(x)
    _, c, h, w = _nchw(x, "unfold")
    k, d, p, s, (oh, ow) = _unfold_geometry((h, w), kernel_size, dilation, padding, stride,
                                            "unfold")
    if oh < 1 or ow < 1:
        raise ValueError(f"unfold: the kernel does not fit the input. Received: x.shape={shape(x)}")
    x = _apply("pad", x, pad_width=((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    taps = []
    for i in range(k[0]):
        for j in range(k[1]):
            key = (slice(None), slice(None),
                   slice(i * d[0], i * d[0] + s[0] * (oh - 1) + 1, s[0]),
                   slice(j * d[1], j * d[1] + s[1] * (ow - 1) + 1, s[1]))
            taps.append(_apply("getitem", x, key=key))
    blocks = _apply("stack", *taps, axis=2)  # (N, C, kh * kw, oh, ow)
    return _apply("reshape", blocks, shape=(-1, c * k[0] * k[1], oh * ow))


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The adjoint of `unfold`: columns `(N, C * kh * kw, blocks)` summed back into `(N, C, H, W)`."""
    x = tensor_operand(x)
    sx = shape(x)
    h, w = _pair(output_size, "output_size", "fold")
    k, d, p, s, (oh, ow) = _unfold_geometry((h, w), kernel_size, dilation, padding, stride,
                                            "fold")
    taps = k[0] * k[1]
    if len(sx) != 3 or sx[1] is not None and sx[1] % taps or sx[2] not in (None, oh * ow):
        raise ValueError(
            "fold needs input (N, C * kh * kw, blocks) matching output_size and the kernel. "
            f"Received: x.shape={sx}, output_size={output_size}, kernel_size={kernel_size}")
    c = sx[1] // taps
    blocks = _apply("reshape", x, shape=(-1, c, taps, oh, ow))
    hp, wp = h + 2 * p[0], w + 2 * p[1]
    total = None
    for t in range(taps):
        i, j = divmod(t, k[1])
        tap = _apply("getitem", blocks, key=(slice(None), slice(None), t))
        if s != (1, 1):  # spread the blocks `stride` apart with zeros between
            tap = _dilate(tap, s)
        top, left = i * d[0], j * d[1]
        th, tw = shape(tap)[-2:]
        placed = _apply("pad", tap, pad_width=((0, 0), (0, 0), (top, hp - top - th),
                                                (left, wp - left - tw)))
        total = placed if total is None else _apply("add", total, placed)
    return _apply("getitem", total, key=(slice(None), slice(None), slice(p[0], p[0] + h),
                                         slice(p[1], p[1] + w)))


def _dilate(x, strides):
    """`x`'s last two axes with `stride - 1` zeros between entries."""
    n_shape = shape(x)
    out = x
    for axis, step in ((2, strides[0]), (3, strides[1])):
        length = shape(out)[axis]
        expanded = _apply("expand_dims", out, axis=axis + 1)
        widths = [(0, 0)] * (len(n_shape) + 1)
        widths[axis + 1] = (0, step - 1)
        padded = _apply("pad", expanded, pad_width=tuple(widths))
        merged = list(shape(padded))
        merged[axis:axis + 2] = [length * step]
        merged[0] = -1
        out = _apply("reshape", padded, shape=tuple(merged))
        key = [slice(None)] * len(n_shape)
        key[axis] = slice(0, (length - 1) * step + 1)
        out = _apply("getitem", out, key=tuple(key))
    return out


def _nchw(x, op):
    s = shape(x)
    if len(s) != 4:
        raise ValueError(f"{op} needs a 4-D (N, C, H, W) input. Received: x.shape={s}")
    if None in s[1:]:
        raise ValueError(f"{op} needs known channels and spatial sizes. Received: x.shape={s}")
    return s
