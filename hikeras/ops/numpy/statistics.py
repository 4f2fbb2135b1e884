"""Reductions beyond `sum`/`mean`: extrema aliases, quantiles, NaN-ignoring forms,
running sums and products, differences and integrals.

Quantiles sort along the reduced axes and interpolate between neighbours, so
they have a gradient (through `sort`) like Keras's TensorFlow backend. The
NaN-ignoring reductions replace NaN by the operation's identity first, so
they are differentiable where their plain forms are.

>>> import numpy as np
>>> float(median(np.array([3.0, 1.0, 2.0])))
2.0
"""

import builtins as _builtins
import math as _math

import numpy as np

from ... import backend
from ..core import cast, shape, tensor_operand
from .basics import add as _add
from .basics import (
    argmax,
    argmin,
    divide,
    max,
    mean,
    min,
    multiply,
    ones_like,
    prod,
    reshape,
    subtract,
    sum,
    take,
    transpose,
    where,
)
from .basics import ndim as _ndim
from .elementwise import isnan
from .promotion import float_operand, float_operands
from .shaping import get_item, moveaxis, ravel

_apply = backend.apply

_QUANTILE_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def amax(x, axis=None, keepdims=False):
    """Maximum over `axis` (same as `max`)."""
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    """Minimum over `axis` (same as `min`)."""
    return min(x, axis=axis, keepdims=keepdims)


def ptp(x, axis=None, keepdims=False):
    """Range (maximum minus minimum) over `axis`."""
    return subtract(max(x, axis=axis, keepdims=keepdims), min(x, axis=axis, keepdims=keepdims))


def average(x, axis=None, weights=None):
    """Mean over `axis` weighted by `weights` (shaped like `x`, or 1-d along `axis`)."""
    if weights is None:
        return mean(x, axis=axis)
    x, weights = float_operands(x, weights)
    if _ndim(weights) == 1 and _ndim(x) > 1:
        if axis is None:
            raise ValueError("average needs an axis when 1-d weights go with a tensor of "
                             f"rank {_ndim(x)}. Received: x.shape={shape(x)}, "
                             f"weights.shape={shape(weights)}")
        view = [1] * _ndim(x)
        view[axis] = -1
        weights = reshape(weights, view)
    total_weight = sum(multiply(weights, ones_like(x)), axis=axis)
    return divide(sum(multiply(x, weights), axis=axis), total_weight)


def count_nonzero(x, axis=None):
    """The number of non-zero entries over `axis` (int32; no gradient)."""
    x = tensor_operand(x)
    nonzero = _apply("not_equal", x, np.zeros((), np.dtype(x.dtype)))
    return cast(sum(nonzero, axis=tuple(axis) if isinstance(axis, list) else axis), "int32")


def _cumulative(name, x, axis, dtype):
    x = tensor_operand(x)
    if dtype is not None:
        x = cast(x, dtype)
    elif np.dtype(x.dtype) in (np.dtype("bool"), np.dtype("int8"), np.dtype("int16"),
                               np.dtype("uint8"), np.dtype("uint16")):
        x = cast(x, "int32")
    if axis is None:
        x, axis = ravel(x), 0
    elif not -_ndim(x) <= axis < _builtins.max(_ndim(x), 1):
        raise ValueError(f"{name}: axis is out of bounds for a tensor of rank {_ndim(x)}. "
                         f"Received: x.shape={shape(x)}, axis={axis}")
    return _apply(name, x, axis=int(axis))


def cumsum(x, axis=None, dtype=None):
    """Running sum along `axis` (of the flattened `x` when None)."""
    return _cumulative("cumsum", x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    """Running product along `axis` (of the flattened `x` when None)."""
    return _cumulative("cumprod", x, axis, dtype)


def diff(a, n=1, axis=-1):
    """The `n`-th discrete difference along `axis`."""
    x = tensor_operand(a)
    rank = _ndim(x)
    if not -rank <= axis < rank:
        raise ValueError(f"diff: axis is out of bounds for a tensor of rank {rank}. "
                         f"Received: a.shape={shape(x)}, axis={axis}")
    axis %= rank
    head = tuple(slice(None) for _ in range(axis))
    for _ in range(int(n)):
        x = subtract(get_item(x, head + (slice(1, None),)), get_item(x, head + (slice(None, -1),)))
    return x


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of `y` along `axis` by the trapezoidal rule, with sample points
    `x` or spacing `dx`."""
    y = float_operand(y)
    rank = _ndim(y)
    axis %= rank
    head = tuple(slice(None) for _ in range(axis))
    later = get_item(y, head + (slice(1, None),))
    earlier = get_item(y, head + (slice(None, -1),))
    if x is None:
        steps = dx
    else:
        x = float_operand(x)
        steps = diff(x, axis=-1 if _ndim(x) == 1 else axis)
        if _ndim(x) == 1 and rank > 1:
            view = [1] * rank
            view[axis] = -1
            steps = reshape(steps, view)
    return sum(multiply(steps, _add(later, earlier)) * 0.5, axis=axis)


def _moved_to_end(x, axis):
    """`x` with the reduced axes flattened into one last axis, and the kept shape."""
    rank = _ndim(x)
    axes = tuple(range(rank)) if axis is None else tuple(
        a % rank for a in ((axis,) if isinstance(axis, (int, np.integer)) else axis))
    kept = [a for a in range(rank) if a not in axes]
    dims = shape(x)
    moved = transpose(x, kept + list(axes))
    reduced = [dims[a] for a in axes]
    length = None if None in reduced else _math.prod(reduced)
    if length is None:
        return moved, axes, None
    kept_dims = tuple(-1 if dims[a] is None else dims[a] for a in kept)
    return reshape(moved, kept_dims + (length,)), axes, length


def _quantile(name, x, q, axis, method, keepdims):
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"{name}: method must be one of {_QUANTILE_METHODS}. "
                         f"Received: method={method!r}")
    x = float_operand(x)
    if isinstance(q, backend.SymbolicTensor):
        raise TypeError(f"{name} needs concrete quantile levels. Received: q={q!r}")
    q = np.asarray(q.value if isinstance(q, backend.Tensor) else q, dtype=np.float64)
    if np.any((q < 0) | (q > 1)):
        raise ValueError(f"{name}: quantiles must lie in [0, 1]. Received: q={q.tolist()}")
    flat, axes, n = _moved_to_end(x, axis)
    if n is None or n == 0:
        raise ValueError(f"{name} needs reduced axes of known, non-zero length. "
                         f"Received: x.shape={shape(x)}, axis={axis}")
    ordered = _apply("sort", flat, axis=-1)
    position = q.reshape(-1) * (n - 1)
    lower = np.floor(position).astype(np.int32)
    upper = np.ceil(position).astype(np.int32)
    if method == "lower":
        out = take(ordered, lower, axis=-1)
    elif method == "higher":
        out = take(ordered, upper, axis=-1)
    elif method == "nearest":
        out = take(ordered, np.round(position).astype(np.int32), axis=-1)
    else:
        low, high = take(ordered, lower, axis=-1), take(ordered, upper, axis=-1)
        weight = 0.5 if method == "midpoint" else (position - lower).astype(
            np.dtype(x.dtype))
        weight = np.where(lower == upper, 0.0, weight).astype(np.dtype(x.dtype))
        out = _add(low, multiply(subtract(high, low), weight))
    if keepdims:
        out = _keep(out, shape(x), axes)
    return moveaxis(out, -1, 0)


def _keep(out, dims, axes):
    """Quantiles laid out as `(*kept, num_q)` reshaped to keep the reduced axes as 1s."""
    num_q = shape(out)[-1]
    return reshape(out, tuple(1 if a in axes else (-1 if d is None else d)
                              for a, d in enumerate(dims)) + (num_q,))


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th quantiles (in [0, 1]) over `axis`; the quantile axes come first."""
    return _finish_q(_quantile("quantile", x, q, axis, method, keepdims), q)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th percentiles (in [0, 100]) over `axis`."""
    q = np.asarray(q, np.float64) / 100.0
    return _finish_q(_quantile("percentile", x, q, axis, method, keepdims), q)


def median(x, axis=None, keepdims=False):
    """The median over `axis` (the mean of the two middle values for even counts)."""
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def _finish_q(out, q):
    """Drops the quantile axis for a scalar `q`, or shapes it like `q`."""
    q = np.asarray(q)
    rest = tuple(-1 if d is None else d for d in shape(out)[1:])
    if q.ndim == 0:
        return reshape(out, rest)
    return reshape(out, q.shape + rest) if q.ndim > 1 else out


def _without_nan(x, fill):
    x = float_operand(x)
    return where(isnan(x), fill, x)


def nansum(x, axis=None, keepdims=False):
    """Sum over `axis`, NaN counting as 0."""
    return sum(_without_nan(x, 0.0), axis=axis, keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False):
    """Product over `axis`, NaN counting as 1."""
    return prod(_without_nan(x, 1.0), axis=axis, keepdims=keepdims)


def nanmax(x, axis=None, keepdims=False):
    """Maximum over `axis`, ignoring NaN (NaN where every entry is NaN)."""
    x = float_operand(x)
    out = max(where(isnan(x), -np.inf, x), axis=axis, keepdims=keepdims)
    return where(_all_nan(x, axis, keepdims), np.nan, out)


def nanmin(x, axis=None, keepdims=False):
    """Minimum over `axis`, ignoring NaN (NaN where every entry is NaN)."""
    x = float_operand(x)
    out = min(where(isnan(x), np.inf, x), axis=axis, keepdims=keepdims)
    return where(_all_nan(x, axis, keepdims), np.nan, out)


def _all_nan(x, axis, keepdims):
    return _apply("all", isnan(x), axis=tuple(axis) if isinstance(axis, list) else axis,
                  keepdims=keepdims)


def _count(x, axis, keepdims):
    present = cast(_apply("logical_not", isnan(x)), np.dtype(x.dtype))
    return sum(present, axis=axis, keepdims=keepdims)


def nanmean(x, axis=None, keepdims=False):
    """Mean over `axis` of the entries that are not NaN."""
    x = float_operand(x)
    return divide(nansum(x, axis, keepdims), _count(x, axis, keepdims))


def nanvar(x, axis=None, keepdims=False):
    """Population variance over `axis` of the entries that are not NaN."""
    x = float_operand(x)
    centred = subtract(x, nanmean(x, axis, keepdims=True))
    return nanmean(multiply(centred, centred), axis, keepdims)


def nanstd(x, axis=None, keepdims=False):
    """Population standard deviation over `axis` of the entries that are not NaN."""
    return _apply("sqrt", nanvar(x, axis, keepdims))


def nanargmax(x, axis=None, keepdims=False):
    """Index of the first maximum along `axis`, ignoring NaN (no gradient)."""
    x = float_operand(x)
    return cast(argmax(where(isnan(x), -np.inf, x), axis=axis, keepdims=keepdims), "int32")


def nanargmin(x, axis=None, keepdims=False):
    """Index of the first minimum along `axis`, ignoring NaN (no gradient)."""
    x = float_operand(x)
    return cast(argmin(where(isnan(x), np.inf, x), axis=axis, keepdims=keepdims), "int32")


def nancumsum(x, axis=None, dtype=None):
    """Running sum along `axis`, NaN counting as 0."""
    x = tensor_operand(x)
    if np.issubdtype(np.dtype(x.dtype), np.inexact):
        x = where(isnan(x), 0.0, x)
    return cumsum(x, axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    """Running product along `axis`, NaN counting as 1."""
    x = tensor_operand(x)
    if np.issubdtype(np.dtype(x.dtype), np.inexact):
        x = where(isnan(x), 1.0, x)
    return cumprod(x, axis=axis, dtype=dtype)


def _nan_quantile(name, x, q, axis, method, keepdims):
    """NaN-ignoring quantiles, computed by numpy on values (no gradient, no symbols)."""
    x = float_operand(x)
    if isinstance(x, backend.SymbolicTensor):
        raise TypeError(f"{name} runs on concrete values only. Received: x={x!r}")
    value = x.value if isinstance(x, backend.Tensor) else np.asarray(x)
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.asarray(np.nanquantile(value, q, axis=axis, method=method, keepdims=keepdims),
                      dtype=value.dtype)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """`quantile` ignoring NaN (computed on values: no gradient)."""
    return _nan_quantile("nanquantile", x, np.asarray(q, np.float64), axis, method, keepdims)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """`percentile` ignoring NaN (computed on values: no gradient)."""
    return _nan_quantile("nanpercentile", x, np.asarray(q, np.float64) / 100.0, axis, method,
                         keepdims)


def nanmedian(x, axis=None, keepdims=False):
    """`median` ignoring NaN (computed on values: no gradient)."""
    return _nan_quantile("nanmedian", x, 0.5, axis, "linear", keepdims)

