"""Dot and `dot`: batched dot products between two inputs."""

import math

from ... import backend, ops
from ...backend import SymbolicTensor
from .base_merge import _Merge, _shapes_of

__all__ = ["Dot", "dot"]


class Dot(_Merge):
    """Dot product of two tensors over one axis of each, per sample.

    For inputs of shapes `(N, a..., k, b...)` and `(N, c..., k, d...)` with
    `axes` pointing at the two `k` axes, the output has shape
    `(N, a..., b..., c..., d...)`, or `(N, 1)` when that leaves only the
    batch axis (as Keras's `batch_dot`).

    Args:
        axes: one axis for both inputs, or a pair `(axis_of_first,
            axis_of_second)`; negative axes count from the end. Never 0.
        normalize: L2-normalise both inputs along their `axes` first, so the
            output is the cosine similarity.

    >>> import numpy as np
    >>> Dot(axes=1)([np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]])]).tolist()
    [[11.0]]
    """

    _arity = 2

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axes, (list, tuple)):
            if len(axes) != 2 or not all(isinstance(a, int) for a in axes):
                raise ValueError(f"Dot expects `axes` to be an int or a pair of ints. "
                                 f"Received: axes={axes!r}")
            axes = list(axes)
        elif not isinstance(axes, int) or isinstance(axes, bool):
            raise TypeError(f"Dot expects `axes` to be an int or a pair of ints. "
                            f"Received: axes={axes!r}")
        self.axes = axes
        self.normalize = bool(normalize)

    def _positive_axes(self, shapes):
        axes = self.axes if isinstance(self.axes, list) else [self.axes] * 2
        out = []
        for a, shape in zip(axes, shapes):
            if not -len(shape) <= a < len(shape) or a % len(shape) == 0:
                self._fail(f"cannot take a dot product over axis {a}", shapes)
            out.append(a % len(shape))
        return out

    def _merged_shape(self, shapes):
        if any(len(s) < 2 for s in shapes):
            self._fail("needs inputs of rank 2 or more", shapes)
        (a0, a1), (s0, s1) = self._positive_axes(shapes), shapes
        if None not in (s0[a0], s1[a1]) and s0[a0] != s1[a1]:
            self._fail(f"needs axis {a0} of the first input and axis {a1} of the second "
                       f"to have one size", shapes)
        out = s0[:a0] + s0[a0 + 1:] + tuple(d for i, d in enumerate(s1) if i not in (0, a1))
        return out if len(out) > 1 else out + (1,)

    def compute_output_spec(self, inputs):
        shape = self._check_shapes(_shapes_of(inputs))
        return SymbolicTensor(shape, inputs[0].dtype)

    def call(self, inputs):
        shapes = _shapes_of(inputs)
        self._check_shapes(shapes)
        a0, a1 = self._positive_axes(shapes)
        x, y = inputs
        if self.normalize:
            x, y = _l2_normalize(x, a0), _l2_normalize(y, a1)
        return _batch_dot(x, y, a0, a1)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


def _l2_normalize(x, axis):
    """`x / max(||x||, epsilon)` along `axis`, as Keras's `Dot(normalize=True)`."""
    square_sum = ops.sum(ops.square(x), axis=axis, keepdims=True)
    floor = backend.epsilon() ** 2
    return ops.multiply(x, ops.rsqrt(ops.maximum(square_sum, floor)))


def _move_axis(x, source, destination):
    order = [i for i in range(len(x.shape)) if i != source]
    order.insert(destination, source)
    return x if order == sorted(order) else ops.transpose(x, order)


def _batch_dot(x, y, x_axis, y_axis):
    """Per-sample contraction of `x`'s `x_axis` with `y`'s `y_axis`, as one matmul."""
    x = _move_axis(x, x_axis, len(x.shape) - 1)  # (N, rest_x..., k)
    y = _move_axis(y, y_axis, 1)  # (N, k, rest_y...)
    rest_x, rest_y, k = x.shape[1:-1], y.shape[2:], x.shape[-1]
    product = ops.matmul(ops.reshape(x, (-1, math.prod(rest_x), k)),
                         ops.reshape(y, (-1, k, math.prod(rest_y))))
    out_shape = tuple(rest_x) + tuple(rest_y)
    return ops.reshape(product, (-1,) + (out_shape or (1,)))


def dot(inputs, axes=-1, **kwargs):
    """Functional form of `Dot` (Keras's default `axes=-1`)."""
    return Dot(axes=axes, **kwargs)(inputs)
