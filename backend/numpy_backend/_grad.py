"""Helpers shared by the numpy VJPs."""

import numpy as np

from ._traced import ops


def unbroadcast(grad, shape):
    """Sums `grad` over the axes numpy broadcasting added or stretched to reach it.

    The one place broadcasting is undone: every elementwise VJP calls it with
    the shape of the input it differentiates. It sums with the `sum` op, so
    traced VJPs use it too.
    """
    if grad.shape == tuple(shape):
        return grad
    extra = len(grad.shape) - len(shape)
    if extra:
        grad = ops.sum(grad, axis=tuple(range(extra)))
    stretched = tuple(i for i, d in enumerate(shape) if d == 1 and grad.shape[i] != 1)
    if stretched:
        grad = ops.sum(grad, axis=stretched, keepdims=True)
    return grad


def float_grad(grad, dtype):
    """`grad` cast to `dtype` when that is a float type; None for integer inputs."""
    if not np.issubdtype(dtype, np.inexact):
        return None
    return grad if grad.dtype == dtype else grad.astype(dtype)
