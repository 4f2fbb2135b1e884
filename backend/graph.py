"""A recorded op application: one node of the graph the executor differentiates."""

from .tensor import Tensor


class Node:
    """One op applied to concrete inputs, as a tape recorded it.

    The node keeps only what its op's VJP declared it needs (`save_inputs`,
    `save_outputs`, the residual); everything else was never referenced, so
    numpy frees it as soon as the forward pass moves on. `release()` drops the
    saved arrays too, once the backward pass has consumed them.

    Attributes:
        op: the registered `Op`.
        attrs: keyword attributes the op was called with.
        input_refs: per input, the reference number of a tracked tensor, or `None`.
        output_refs: reference numbers of the outputs.
        inputs / outputs: saved arrays (`None` where not saved).
        residual: the op's residual, if it declares one.
        input_shapes, output_shapes, output_dtypes: for `unbroadcast` and zero-filling.
        shared: recorded on more than one tape (nested tapes); its saved
            arrays are then left to the garbage collector, since a backward
            pass of one tape must not take them from the others.
    """

    __slots__ = ("op", "attrs", "input_refs", "output_refs", "inputs", "outputs",
                 "residual", "input_shapes", "output_shapes", "output_dtypes", "shared")

    def __init__(self, op, attrs, input_refs, output_refs, inputs, outputs, residual,
                 input_shapes, output_shapes, output_dtypes):
        self.op = op
        self.attrs = attrs
        self.input_refs = input_refs
        self.output_refs = output_refs
        self.inputs = inputs
        self.outputs = outputs
        self.residual = residual
        self.input_shapes = input_shapes
        self.output_shapes = output_shapes
        self.output_dtypes = output_dtypes
        self.shared = False

    def release(self):
        """Drops the arrays saved for the backward pass (unless other tapes hold it)."""
        if not self.shared:
            self.inputs = self.outputs = self.residual = None

    def traced(self):
        """This node as a traced VJP sees it: saved tracked arrays become `Tensor`s.

        Each saved input or output that was tracked is wrapped with its own
        reference number, so the ops a traced VJP applies to it are recorded
        as functions of that tensor, and the gradient can be differentiated.
        """
        return _TracedNode(self)

    def __repr__(self):
        return f"<Node {self.op.name} in={self.input_refs} out={self.output_refs}>"


def _tracked(values, refs):
    if values is None:
        return None
    return tuple(v if v is None or r is None else Tensor(v, r) for v, r in zip(values, refs))


class _TracedNode:
    """A read-only view of a `Node` whose saved tracked arrays are `Tensor`s."""

    __slots__ = ("_node", "inputs", "outputs")

    def __init__(self, node):
        self._node = node
        self.inputs = _tracked(node.inputs, node.input_refs)
        self.outputs = _tracked(node.outputs, node.output_refs)

    def __getattr__(self, name):
        return getattr(self._node, name)
