"""Argument handling shared by the convolution and pooling layers.

Keras accepts an int or a tuple for sizes, strings in any case for padding,
and `None` for the image data format; these helpers normalise them once and
raise the errors users see. `to_channels_last`/`from_channels_last` wrap the
channels-last backend ops for `data_format="channels_first"` layers.
"""

from ... import backend, ops

_PADDINGS = ("valid", "same")


def standardize_tuple(value, rank, name, allow_zero=False):
    """An int or a sequence of `rank` ints as a tuple, each positive (or >= 0)."""
    values = (value,) * rank if isinstance(value, int) and not isinstance(value, bool) \
        else value
    try:
        values = tuple(values)
    except TypeError:
        values = ()
    minimum = 0 if allow_zero else 1
    if len(values) != rank or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= minimum for v in values):
        kind = "non-negative" if allow_zero else "positive"
        raise ValueError(
            f"The `{name}` argument must be a {kind} integer or a tuple of {rank} {kind} "
            f"integers. Received: {name}={value!r}")
    return values


def standardize_padding(padding, allow_causal=False):
    """`padding` lower-cased and checked ("causal" only where allowed)."""
    allowed = _PADDINGS + (("causal",) if allow_causal else ())
    value = padding.lower() if isinstance(padding, str) else padding
    if value not in allowed:
        raise ValueError(
            f"The `padding` argument must be one of {allowed}. Received: padding={padding!r}")
    return value


def standardize_data_format(data_format):
    """`data_format`, defaulting to `image_data_format()`, checked."""
    if data_format is None:
        return backend.image_data_format()
    value = data_format.lower() if isinstance(data_format, str) else data_format
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            "The `data_format` argument must be one of 'channels_last', 'channels_first'. "
            f"Received: data_format={data_format!r}")
    return value


def to_channels_last(x, data_format):
    """`(batch, C, *spatial)` -> `(batch, *spatial, C)` when `data_format` is channels-first."""
    if data_format == "channels_last":
        return x
    rank = len(x.shape)
    return ops.transpose(x, (0,) + tuple(range(2, rank)) + (1,))


def from_channels_last(x, data_format):
    """The inverse of `to_channels_last`."""
    if data_format == "channels_last":
        return x
    rank = len(x.shape)
    return ops.transpose(x, (0, rank - 1) + tuple(range(1, rank - 1)))


def check_input(layer, input_shape, rank, data_format):
    """Raises unless `input_shape` has rank `rank + 2` and known channels; returns them."""
    input_shape = tuple(input_shape)
    if len(input_shape) != rank + 2:
        layout = ("(batch, *spatial, channels)" if data_format == "channels_last"
                  else "(batch, channels, *spatial)")
        raise ValueError(
            f"Layer '{layer.name}' ({type(layer).__name__}) expects inputs of rank {rank + 2} "
            f"{layout}. Received: input_shape={input_shape}")
    channels = input_shape[-1 if data_format == "channels_last" else 1]
    if channels is None:
        raise ValueError(
            f"The channel dimension of the inputs to layer '{layer.name}' "
            f"({type(layer).__name__}) must be known. Received: input_shape={input_shape}")
    return channels


def check_windows(layer, op, input_shape, data_format, *specs, **attrs):
    """Runs `op` (a `hikeras.ops.kernels` function) on a symbolic channels-last input,
    so its shape rule checks the windows; names `layer` on failure.

    This is where a window larger than a "valid" input is reported, once,
    when the layer is built.
    """
    shape = tuple(input_shape)
    if data_format == "channels_first":
        shape = (shape[0],) + shape[2:] + (shape[1],)
    try:
        op(backend.SymbolicTensor(shape, layer.dtype), *specs, **attrs)
    except ValueError as error:
        raise ValueError(f"Layer '{layer.name}' ({type(layer).__name__}): {error}") from None
