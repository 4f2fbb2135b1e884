"""Math ops that Keras keeps in `keras.src.ops.math` (reached as `keras.ops.<name>`).

Segment reductions, `top_k`/`in_top_k`, `logsumexp`, `cdist`, the error
functions, `logdet` and the complex views. The Fourier transforms and
framing ops live in `spectral.py`. Integer inputs of float-valued ops become
`floatx()`, as in Keras.

>>> import numpy as np
>>> values, indices = top_k(np.array([1.0, 3.0, 2.0]), 2)
>>> values.tolist(), indices.tolist()
([3.0, 2.0], [1, 2])
"""

import numpy as np

from .. import backend
from .core import cast, convert_to_numpy, shape, tensor_operand

_apply = backend.apply


def float_operand(x):
    """`x` ready for a float-valued op: integer and bool inputs become `floatx()`."""
    x = tensor_operand(x)
    if not np.issubdtype(np.dtype(x.dtype), np.floating):
        x = cast(x, backend.floatx())
    return x


def logsumexp(x, axis=None, keepdims=False):
    """`log(sum(exp(x), axis))`, computed without overflow.

    >>> float(logsumexp(np.array([1000.0, 1000.0])))  # 1000 + log(2)
    1000.6931471805599
    """
    axis = tuple(axis) if isinstance(axis, list) else axis
    return _apply("logsumexp", float_operand(x), axis=axis, keepdims=keepdims)


def rsqrt(x):
    """Elementwise `1 / sqrt(x)`."""
    return _apply("rsqrt", float_operand(x))


def erf(x):
    """The error function, elementwise.

    >>> round(float(erf(np.array(0.5))), 6)
    0.5205
    """
    return _apply("erf", float_operand(x))


def erfc(x):
    """`1 - erf(x)`, elementwise, accurate where it is tiny."""
    return _apply("erfc", float_operand(x))


def erfinv(x):
    """The inverse of `erf` on `[-1, 1]` (`+-inf` at `+-1`, NaN outside)."""
    return _apply("erfinv", float_operand(x))


def logdet(x):
    """`log(det(x))` of (stacks of) square matrices, through `log|det|` without overflow.

    Meant for positive-definite matrices, as in Keras; a negative determinant
    gives NaN.
    """
    sign, logabs = _apply("slogdet", float_operand(x))
    return logabs + _apply("log", _apply("stop_gradient", sign))


def _segment(reduction, data, segment_ids, num_segments, sorted):
    data = tensor_operand(data)
    segment_ids = tensor_operand(segment_ids)
    sd, si = shape(data), shape(segment_ids)
    if len(si) != 1 or not sd or None not in (si[0], sd[0]) and si[0] != sd[0]:
        raise ValueError(
            f"segment_{reduction} needs one segment id per row of data (a 1-D segment_ids "
            f"as long as data's first axis). Received: data.shape={sd}, "
            f"segment_ids.shape={si}")
    if num_segments is None:
        ids = convert_to_numpy(segment_ids)
        num_segments = int(ids.max()) + 1 if ids.size else 0
    del sorted  # the kernel does not need sorted ids; Keras's flag is a speed hint
    return _apply("segment_reduce", data, segment_ids, num_segments=int(num_segments),
                  reduction=reduction)


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    """Sums of the rows of `data` that share a segment id.

    Args:
        data: the rows, along the first axis.
        segment_ids: one integer id per row; ids outside
            `[0, num_segments)` are dropped.
        num_segments: the number of segments; by default the largest id + 1
            (which needs concrete ids: give it for symbolic inputs).
        sorted: Keras's hint that the ids are sorted; the result is the same.

    >>> segment_sum(np.array([1.0, 2.0, 3.0]), np.array([0, 0, 1])).tolist()
    [3.0, 3.0]
    """
    return _segment("sum", data, segment_ids, num_segments, sorted)


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    """Maxima of the rows that share a segment id (an empty segment holds the dtype's lowest value)."""
    return _segment("max", data, segment_ids, num_segments, sorted)


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    """Minima of the rows that share a segment id (an empty segment holds the dtype's highest value)."""
    return _segment("min", data, segment_ids, num_segments, sorted)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    """Products of the rows that share a segment id (an empty segment holds 1)."""
    return _segment("prod", data, segment_ids, num_segments, sorted)


def top_k(x, k, sorted=True):
    """`(values, indices)` of the `k` largest entries along the last axis.

    Ties go to the lower index. Results are always sorted, which Keras
    allows for `sorted=False` too. Only `values` carries a gradient.
    """
    del sorted
    x = tensor_operand(x)
    s = shape(x)
    if not s or int(k) < 0 or s[-1] is not None and int(k) > s[-1]:
        raise ValueError(
            f"top_k: k must be in [0, x.shape[-1]]. Received: x.shape={s}, k={k}")
    return _apply("top_k", x, k=int(k))


def in_top_k(targets, predictions, k):
    """Whether `predictions[i, targets[i]]` is among row `i`'s `k` largest (bool, no gradient)."""
    return _apply("in_top_k", tensor_operand(targets), tensor_operand(predictions), k=int(k))


def cdist(x, y):
    """Euclidean distances between the rows of `x` and of `y`: `(..., m, d), (..., n, d) -> (..., m, n)`."""
    x, y = float_operand(x), float_operand(y)
    sx, sy = shape(x), shape(y)
    if len(sx) < 2 or len(sy) < 2:
        raise ValueError(
            f"cdist needs inputs of rank >= 2. Received: x.shape={sx}, y.shape={sy}")
    diff = _apply("subtract", _apply("expand_dims", x, axis=-2),
                  _apply("expand_dims", y, axis=-3))
    return _apply("sqrt", _apply("sum", _apply("square", diff), axis=-1))


def view_as_complex(x):
    """A complex array from a real one whose last axis (of size 2) holds (real, imag).

    Complex values exist only as eager numpy arrays here: no symbolic
    tensors and no gradient.
    """
    x = convert_to_numpy(x)
    if x.ndim == 0 or x.shape[-1] != 2:
        raise ValueError(
            f"view_as_complex needs a last axis of size 2. Received: x.shape={x.shape}")
    dtype = np.complex128 if x.dtype == np.float64 else np.complex64
    return (x[..., 0] + 1j * x[..., 1]).astype(dtype)


def view_as_real(x):
    """A complex array as a real one with a last axis of size 2 (real, imag); eager only."""
    x = np.asarray(convert_to_numpy(x))
    if not np.iscomplexobj(x):
        raise ValueError(f"view_as_real needs a complex input. Received: x.dtype={x.dtype}")
    return np.stack([x.real, x.imag], axis=-1)
