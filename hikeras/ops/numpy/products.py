"""Products of tensors beyond `matmul`/`dot`/`einsum`: tensordot, outer, inner,
kron, cross, correlation, Vandermonde matrices, correlation coefficients, and
`slogdet`.

All are compositions of registered ops, so they have gradients and run on
symbolic tensors.

>>> import numpy as np
>>> outer(np.array([1.0, 2.0]), np.array([1.0, 10.0])).tolist()
[[1.0, 10.0], [2.0, 20.0]]
"""

import math as _math

import numpy as np

from ... import backend
from ..core import shape, tensor_operand
from .basics import (
    concatenate,
    divide,
    expand_dims,
    matmul,
    mean,
    multiply,
    power,
    reshape,
    sqrt,
    stack,
    subtract,
    sum,
    transpose,
)
from .basics import ndim as _ndim
from .promotion import float_operand
from .shaping import diagonal, flip, get_item, moveaxis, ravel


def tensordot(x1, x2, axes=2):
    """Sums products over the last `axes` axes of `x1` and the first of `x2`, or over
    the axes listed in `axes = (axes_of_x1, axes_of_x2)`."""
    x1, x2 = tensor_operand(x1), tensor_operand(x2)
    r1, r2 = _ndim(x1), _ndim(x2)
    if isinstance(axes, (int, np.integer)):
        if axes < 0 or axes > min(r1, r2):
            raise ValueError("tensordot: axes must be between 0 and the smaller rank. "
                             f"Received: x1.shape={shape(x1)}, x2.shape={shape(x2)}, "
                             f"axes={axes}")
        a1, a2 = list(range(r1 - axes, r1)), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, (int, np.integer)) else list(a) for a in axes)
        a1, a2 = [a % r1 for a in a1], [a % r2 for a in a2]
    s1, s2 = shape(x1), shape(x2)
    for i, j in zip(a1, a2):
        if s1[i] is not None and s2[j] is not None and s1[i] != s2[j]:
            raise ValueError("tensordot: contracted axes differ in length. Received: "
                             f"x1.shape={s1}, x2.shape={s2}, axes={axes}")
    free1 = [a for a in range(r1) if a not in a1]
    free2 = [a for a in range(r2) if a not in a2]
    size = _math.prod(s1[a] for a in a1) if a1 else 1
    left = reshape(transpose(x1, free1 + a1), (-1, size))
    right = reshape(transpose(x2, a2 + free2), (size, -1))
    out_shape = tuple(s1[a] for a in free1) + tuple(s2[a] for a in free2)
    return reshape(matmul(left, right), tuple(-1 if d is None else d for d in out_shape))


def outer(x1, x2):
    """`x1[i] * x2[j]` of the flattened inputs."""
    return multiply(expand_dims(ravel(x1), -1), expand_dims(ravel(x2), 0))


def inner(x1, x2):
    """Sums products over the last axes (a product when either is a scalar)."""
    x1, x2 = tensor_operand(x1), tensor_operand(x2)
    if _ndim(x1) == 0 or _ndim(x2) == 0:
        return multiply(x1, x2)
    return tensordot(x1, x2, axes=([-1], [-1]))


def vdot(x1, x2):
    """The dot product of the flattened inputs (no conjugation: tensors are real)."""
    return sum(multiply(ravel(x1), ravel(x2)))


def kron(x1, x2):
    """The Kronecker product: blocks of `x2` scaled by the entries of `x1`."""
    x1, x2 = tensor_operand(x1), tensor_operand(x2)
    rank = max(_ndim(x1), _ndim(x2))
    s1 = (1,) * (rank - _ndim(x1)) + tuple(shape(x1))
    s2 = (1,) * (rank - _ndim(x2)) + tuple(shape(x2))
    if (s1 + s2).count(None) > 1:
        raise ValueError("kron handles at most one unknown dimension. Received: "
                         f"x1.shape={shape(x1)}, x2.shape={shape(x2)}")
    known = [-1 if d is None else d for d in s1], [-1 if d is None else d for d in s2]
    a = reshape(x1, tuple(d for pair in zip(known[0], (1,) * rank) for d in pair))
    b = reshape(x2, tuple(d for pair in zip((1,) * rank, known[1]) for d in pair))
    return reshape(multiply(a, b), tuple(-1 if p is None or q is None else p * q
                                         for p, q in zip(s1, s2)))


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors are padded with a zero z-component)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(tensor_operand(x1), axisa, -1)
    b = moveaxis(tensor_operand(x2), axisb, -1)
    for name, v in (("x1", a), ("x2", b)):
        if shape(v)[-1] not in (2, 3):
            raise ValueError(f"cross: vectors must have 2 or 3 components. Received: "
                             f"{name}.shape={shape(v)}")
    a0, a1 = get_item(a, (Ellipsis, 0)), get_item(a, (Ellipsis, 1))
    b0, b1 = get_item(b, (Ellipsis, 0)), get_item(b, (Ellipsis, 1))
    if shape(a)[-1] == 2 and shape(b)[-1] == 2:
        return subtract(multiply(a0, b1), multiply(a1, b0))
    a2 = get_item(a, (Ellipsis, 2)) if shape(a)[-1] == 3 else multiply(a0, 0)
    b2 = get_item(b, (Ellipsis, 2)) if shape(b)[-1] == 3 else multiply(b0, 0)
    out = stack([subtract(multiply(a1, b2), multiply(a2, b1)),
                 subtract(multiply(a2, b0), multiply(a0, b2)),
                 subtract(multiply(a0, b1), multiply(a1, b0))], axis=-1)
    return moveaxis(out, -1, axisc)


def correlate(x1, x2, mode="valid"):
    """Cross-correlation of two 1-d tensors; `mode` is "valid", "same" or "full"."""
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"correlate: mode must be 'valid', 'same' or 'full'. "
                         f"Received: mode={mode!r}")
    a, v = float_operand(x1), float_operand(x2)
    if _ndim(a) != 1 or _ndim(v) != 1:
        raise ValueError(f"correlate needs 1-d tensors. Received: x1.shape={shape(a)}, "
                         f"x2.shape={shape(v)}")
    n, m = shape(a)[0], shape(v)[0]
    if n is None or m is None:
        raise ValueError("correlate needs inputs of known length. Received: "
                         f"x1.shape={shape(a)}, x2.shape={shape(v)}")
    if n < m:
        return flip(correlate(v, a, mode), 0)
    pad = {"valid": 0, "same": m // 2, "full": m - 1}[mode]
    after = {"valid": 0, "same": m - 1 - m // 2, "full": m - 1}[mode]
    padded = concatenate([_zeros(a, pad), a, _zeros(a, after)], axis=0)
    length = n + pad + after - m + 1
    windows = np.arange(length)[:, None] + np.arange(m)[None, :]
    return sum(multiply(get_item(padded, windows), v), axis=-1)


def _zeros(a, length):
    """`length` zeros of `a`'s dtype (an array: padding carries no gradient)."""
    return np.zeros(length, np.dtype(a.dtype))


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix: columns are powers of the 1-d `x`, decreasing unless
    `increasing`."""
    x = tensor_operand(x)
    if _ndim(x) != 1:
        raise ValueError(f"vander needs a 1-d tensor. Received: x.shape={shape(x)}")
    n = shape(x)[0] if N is None else int(N)
    if n is None:
        raise ValueError(f"vander needs N when the length of x is unknown. Received: "
                         f"x.shape={shape(x)}, N=None")
    powers = np.arange(n) if increasing else np.arange(n)[::-1]
    exponents = powers.astype(np.dtype(x.dtype))
    return power(expand_dims(x, -1), exponents)


def corrcoef(x):
    """Pearson correlation coefficients between the rows of `x`."""
    x = float_operand(x)
    if _ndim(x) == 1:
        x = reshape(x, (1, -1))
    centred = subtract(x, mean(x, axis=1, keepdims=True))
    covariance = matmul(centred, transpose(centred))
    scale = sqrt(diagonal(covariance))
    return divide(divide(covariance, expand_dims(scale, 0)), expand_dims(scale, 1))


def slogdet(x):
    """`(sign, log|det x|)` of square matrices (batched over leading axes); the
    log-magnitude has a gradient, the sign none."""
    x = float_operand(x)
    return tuple(backend.apply("slogdet", x))
