"""A recorded op application: one node of the graph the executor differentiates."""


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
    """

    __slots__ = ("op", "attrs", "input_refs", "output_refs", "inputs", "outputs",
                 "residual", "input_shapes", "output_shapes", "output_dtypes")

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

    def release(self):
        """Drops the arrays saved for the backward pass."""
        self.inputs = self.outputs = self.residual = None

    def __repr__(self):
        return f"<Node {self.op.name} in={self.input_refs} out={self.output_refs}>"
