"""Merging layers: elementwise `Add`, `Subtract`, `Multiply`, `Average`,
`Maximum`, `Minimum`, plus `Concatenate` and `Dot`, and their functional forms.

Elementwise merges follow Keras's broadcasting: batch sizes must agree, and
the other axes broadcast as in numpy, an input of lower rank first gaining
size-1 axes right after the batch axis. Inputs that cannot be merged raise a
ValueError naming the layer and every input shape.

Masks follow Keras 3: an elementwise merge passes on the logical OR of its
inputs' masks (no mask if any input has none), `Concatenate` concatenates
them (an unmasked input counting as all true) and keeps an entry where any
part is true, and `Dot` ends masks.
"""

import math

from .. import backend, ops
from ..backend import SymbolicTensor
from .layer import Layer


def _shapes_of(inputs):
    """The inputs' shapes; anything but a list or tuple is passed on to be rejected."""
    if isinstance(inputs, (list, tuple)):
        return [tuple(x.shape) for x in inputs]
    return inputs


class _Merge(Layer):
    """Base of the merges: checks the list of inputs, then merges them."""

    _arity = None  # the exact number of inputs, for layers that need one

    def _fail(self, problem, shapes):
        raise ValueError(
            f"Layer '{self.name}' ({type(self).__name__}) {problem}. "
            f"Received: input shapes {[tuple(s) for s in shapes]}"
        )

    def _check_shapes(self, shapes):
        """Validates a list of input shapes; returns the output shape."""
        if not isinstance(shapes, (list, tuple)) or not shapes or not all(
                isinstance(s, (list, tuple)) for s in shapes):
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) must be called on a non-empty "
                f"list of tensors. Received: input_shape={shapes}"
            )
        if self._arity is not None and len(shapes) != self._arity:
            self._fail(f"must be called on exactly {self._arity} inputs, not {len(shapes)}",
                       shapes)
        if any(len(s) == 0 for s in shapes) or len({s[0] for s in shapes} - {None}) > 1:
            self._fail("needs inputs with a batch axis of one common size", shapes)
        return self._merged_shape([tuple(s) for s in shapes])

    def _merged_shape(self, shapes):
        rank = max(len(s) for s in shapes)
        batch = next((s[0] for s in shapes if s[0] is not None), None)
        padded = [(1,) * (rank - len(s)) + s[1:] for s in shapes]
        out = [batch]
        for dims in zip(*padded):
            known = {d for d in dims if d is not None and d != 1}
            if len(known) > 1:
                self._fail("got inputs whose shapes cannot be broadcast together", shapes)
            out.append(known.pop() if known else None if None in dims else 1)
        return tuple(out)

    def build(self, input_shape):
        self._check_shapes(input_shape)
        super().build(input_shape)

    def call(self, inputs):
        return self._merge(self._aligned(inputs))

    def _aligned(self, inputs):
        """The checked inputs, each of lower rank given size-1 axes after the batch axis."""
        shapes = _shapes_of(inputs)
        self._check_shapes(shapes)
        rank = max(len(s) for s in shapes)
        return [x if len(x.shape) == rank else
                ops.expand_dims(x, tuple(range(1, 1 + rank - len(x.shape))))
                for x in inputs]

    def _merge(self, inputs):
        out = inputs[0]
        for x in inputs[1:]:
            out = self._combine(out, x)
        return out

    def _input_masks(self, inputs, mask):
        """`mask` checked to be one entry per input; None when no input has one."""
        if mask is None:
            return None
        if not isinstance(mask, (list, tuple)) or not isinstance(inputs, (list, tuple)) \
                or len(mask) != len(inputs):
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) needs one mask (or None) per "
                f"input. Received: {len(inputs) if isinstance(inputs, (list, tuple)) else 1} "
                f"inputs and mask={mask!r}"
            )
        return None if all(m is None for m in mask) else list(mask)

    def compute_mask(self, inputs, mask=None):
        masks = self._input_masks(inputs, mask)
        if masks is None or any(m is None for m in masks):
            return None
        out = masks[0]
        for m in masks[1:]:
            out = ops.logical_or(out, m)
        return out


class Add(_Merge):
    """Sums a list of tensors elementwise.

    >>> import numpy as np
    >>> Add()([np.ones((2, 3)), np.full((2, 3), 2.0)]).tolist()[0]
    [3.0, 3.0, 3.0]
    """

    _combine = staticmethod(ops.add)


class Subtract(_Merge):
    """Subtracts the second of exactly two tensors from the first.

    >>> import numpy as np
    >>> Subtract()([np.ones((1, 2)), np.full((1, 2), 3.0)]).tolist()
    [[-2.0, -2.0]]
    """

    _arity = 2
    _combine = staticmethod(ops.subtract)


class Multiply(_Merge):
    """Multiplies a list of tensors elementwise.

    >>> import numpy as np
    >>> Multiply()([np.full((1, 2), 2.0), np.full((1, 2), 3.0)]).tolist()
    [[6.0, 6.0]]
    """

    _combine = staticmethod(ops.multiply)


class Average(_Merge):
    """Averages a list of tensors elementwise.

    >>> import numpy as np
    >>> Average()([np.zeros((1, 2)), np.full((1, 2), 3.0)]).tolist()
    [[1.5, 1.5]]
    """

    def _merge(self, inputs):
        total = inputs[0]
        for x in inputs[1:]:
            total = ops.add(total, x)
        return ops.divide(total, float(len(inputs)))


class _Extremum(_Merge):
    """`Maximum`/`Minimum`: as in Keras 3, masked entries take no part.

    An entry masked in one input takes the value of the inputs merged so far
    (and the other way round), so the extremum is over the unmasked entries.
    """

    def call(self, inputs, mask=None):
        inputs = self._aligned(inputs)
        masks = self._input_masks(inputs, mask)
        if masks is None:
            return self._merge(inputs)
        output = output_mask = None
        for x, m in zip(inputs, masks):
            if m is not None and len(m.shape) < len(x.shape):
                m = ops.expand_dims(m, -1)
            if output is None:
                output, output_mask = x, m
                continue
            if m is not None:
                x = ops.where(m, x, output)
            if output_mask is not None:
                output = ops.where(output_mask, output, x)
            output_mask = (None if m is None or output_mask is None
                           else ops.logical_or(output_mask, m))
            output = self._combine(output, x)
        return output


class Maximum(_Extremum):
    """Elementwise maximum of a list of tensors.

    >>> import numpy as np
    >>> Maximum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).tolist()
    [[3.0, 5.0]]
    """

    _combine = staticmethod(ops.maximum)


class Minimum(_Extremum):
    """Elementwise minimum of a list of tensors.

    >>> import numpy as np
    >>> Minimum()([np.array([[1.0, 5.0]]), np.array([[3.0, 2.0]])]).tolist()
    [[1.0, 2.0]]
    """

    _combine = staticmethod(ops.minimum)


class Concatenate(_Merge):
    """Concatenates a list of tensors along `axis`.

    All inputs need the same rank and the same sizes on every other axis.

    Args:
        axis: the concatenation axis (default the last).

    >>> import numpy as np
    >>> Concatenate()([np.zeros((2, 3)), np.ones((2, 1))]).shape
    (2, 4)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = int(axis)

    def _merged_shape(self, shapes):
        rank = len(shapes[0])
        if any(len(s) != rank for s in shapes):
            self._fail("needs inputs of one rank", shapes)
        if not -rank <= self.axis < rank:
            self._fail(f"cannot concatenate along axis {self.axis} of rank-{rank} inputs",
                       shapes)
        axis = self.axis % rank
        out = []
        for i, dims in enumerate(zip(*shapes)):
            if i == axis:
                out.append(None if None in dims else sum(dims))
                continue
            known = {d for d in dims if d is not None}
            if len(known) > 1:
                self._fail(f"needs inputs whose shapes match except on the concatenation "
                           f"axis {self.axis}", shapes)
            out.append(known.pop() if known else None)
        return tuple(out)

    def call(self, inputs):
        self._check_shapes(_shapes_of(inputs))
        return ops.concatenate(list(inputs), axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        masks = self._input_masks(inputs, mask)
        if masks is None:
            return None
        full = []
        for x, m in zip(inputs, masks):
            if m is None:
                m = ops.ones_like(x, dtype="bool")
            elif len(m.shape) < len(x.shape):  # a timestep mask: one entry per feature
                m = ops.logical_or(ops.expand_dims(m, -1), ops.zeros_like(x, dtype="bool"))
            full.append(m)
        return ops.any(ops.concatenate(full, axis=self.axis), axis=-1)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


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


def add(inputs, **kwargs):
    """Functional form of `Add`: `Add(**kwargs)(inputs)`."""
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    """Functional form of `Subtract`."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """Functional form of `Multiply`."""
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """Functional form of `Average`."""
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """Functional form of `Maximum`."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """Functional form of `Minimum`."""
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """Functional form of `Concatenate`."""
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes=-1, **kwargs):
    """Functional form of `Dot` (Keras's default `axes=-1`)."""
    return Dot(axes=axes, **kwargs)(inputs)


__all__ = ["Add", "Average", "Concatenate", "Dot", "Maximum", "Minimum", "Multiply",
           "Subtract", "add", "average", "concatenate", "dot", "maximum", "minimum",
           "multiply", "subtract"]
