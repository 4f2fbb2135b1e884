"""Shape/dtype rules shared by many ops (elementwise, reductions, ...).

A rule receives input specs (`SymbolicTensor`s, or Python scalars, which are
"weak" in type promotion) plus the op's attributes, and returns output
`SymbolicTensor`s. Unknown dimensions are `None` and propagate.
"""

import numpy as np

from .tensor import SymbolicTensor


def shape_of(x):
    """The shape of a spec; `()` for a Python scalar."""
    return getattr(x, "shape", ())


def dtype_of(x):
    """The dtype of a spec, or the Python scalar itself (for weak promotion)."""
    return getattr(x, "dtype", x)


def broadcast_shapes(*shapes):
    """numpy broadcasting over shapes that may contain `None`."""
    ndim = max((len(s) for s in shapes), default=0)
    result = []
    for axis in range(-ndim, 0):
        dims = [s[axis] for s in shapes if len(s) >= -axis]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ValueError(
                f"Shapes cannot be broadcast together. Received: shapes={list(shapes)}"
            )
        if known:
            result.append(known.pop())
        elif any(d is None for d in dims):
            result.append(None)
        else:
            result.append(1)
    return tuple(result)


def result_dtype(*specs):
    """numpy's promotion of the inputs' dtypes (Python scalars stay weak)."""
    dtypes = [dtype_of(s) for s in specs]
    if any(getattr(d, "name", None) == "bfloat16" for d in dtypes):
        # numpy widens ml-dtypes' bfloat16 with a Python float to float64; Keras keeps it.
        dtypes = [d for d in dtypes if not isinstance(d, (bool, int, float))]
    return np.result_type(*dtypes)


def elementwise(*specs, **_):
    """Broadcast shape, promoted dtype."""
    return SymbolicTensor(broadcast_shapes(*map(shape_of, specs)), result_dtype(*specs))


def elementwise_float(*specs, **_):
    """Broadcast shape; integer inputs give the default float (like `np.exp`)."""
    dtype = result_dtype(*specs)
    if not np.issubdtype(dtype, np.inexact) and dtype.name != "bfloat16":
        dtype = np.dtype("float64") if dtype.itemsize >= 4 else np.dtype("float32")
    return SymbolicTensor(broadcast_shapes(*map(shape_of, specs)), dtype)


def comparison(*specs, **_):
    """Broadcast shape, bool dtype."""
    return SymbolicTensor(broadcast_shapes(*map(shape_of, specs)), "bool")


def same(x, *_, **__):
    """The first input's shape and dtype."""
    return SymbolicTensor(shape_of(x), dtype_of(x))


def updates_in_place(*specs, **_):
    """The rule of update ops: they write into arrays, so there is nothing symbolic to return."""
    raise TypeError(
        "An update op (an optimizer step, a metric accumulation) writes into concrete "
        "arrays in place and cannot run on symbolic tensors. Received: "
        f"inputs={[s for s in specs if isinstance(s, SymbolicTensor)]}"
    )


def normalize_axes(axis, ndim):
    """`axis` (None, int or sequence, negatives allowed) as a sorted tuple."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"Axis {a} is out of bounds for a tensor of rank {ndim}. Received: axis={axis}"
            )
        out.append(a % ndim)
    return tuple(sorted(set(out)))


def reduction(x, axis=None, keepdims=False, **_):
    """Shape after reducing `axis`; dtype unchanged."""
    shape = shape_of(x)
    axes = normalize_axes(axis, len(shape))
    if keepdims:
        out = tuple(1 if i in axes else d for i, d in enumerate(shape))
    else:
        out = tuple(d for i, d in enumerate(shape) if i not in axes)
    return SymbolicTensor(out, dtype_of(x))


# --------------------------------------------------------------- sliding windows
# Convolution and pooling use TensorFlow's window arithmetic, as Keras does:
# "valid" keeps only whole windows; "same" gives ceil(length / stride) windows
# with the zero padding split evenly (any odd element after); "causal" pads
# only before, so that no window sees later elements.

WINDOW_PADDINGS = ("valid", "same", "causal")


def window_padding(length, window, stride=1, dilation=1, padding="valid"):
    """`(before, after)` padding of one spatial axis of `length` (an int)."""
    span = dilation * (window - 1) + 1
    if padding == "valid":
        return (0, 0)
    if padding == "causal":
        return (span - 1, 0)
    if padding == "same":
        windows = -(-length // stride)
        total = max((windows - 1) * stride + span - length, 0)
        return (total // 2, total - total // 2)
    raise ValueError(f"padding must be one of {WINDOW_PADDINGS}. Received: padding={padding!r}")


def window_count(length, window, stride=1, dilation=1, padding="valid"):
    """How many windows fit along an axis; `None` if `length` or `window` is unknown.

    The count is below 1 when the window is longer than a "valid" input;
    callers turn that into an error naming their arguments.
    """
    if length is None or window is None:
        return None
    before, after = window_padding(length, window, stride, dilation, padding)
    span = dilation * (window - 1) + 1
    return (length + before + after - span) // stride + 1


def transposed_length(length, window, stride=1, dilation=1, padding="valid",
                      output_padding=None):
    """Output length of a transposed convolution (Keras's `deconv_output_length`)."""
    if length is None or window is None:
        return None
    span = dilation * (window - 1) + 1
    if output_padding is None:
        if padding == "same":
            return length * stride
        return length * stride + max(span - stride, 0)
    trim = 2 * (span // 2) if padding == "same" else 0
    return (length - 1) * stride + span - trim + output_padding
