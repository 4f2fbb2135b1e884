"""What the merge layers share: shape checks, broadcasting and masks."""

from ... import ops
from ..layer import Layer


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
