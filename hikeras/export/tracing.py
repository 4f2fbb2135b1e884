"""Tracing a model's inference call into a list of backend op applications.

The model is called once on `TracedTensor`s: symbolic tensors (shape and
dtype, no data) that remember nothing but their identity. Every op that
reaches `hikeras.backend.apply` with a traced input is intercepted through the
backend's symbolic hook (`set_symbolic_interceptor`): its shape rule gives the
output specs, and the application is recorded as a `TracedOp` (op name, the
inputs as they were passed, attributes, outputs). Weights arrive as concrete
arrays or variables and become constants of the exported graph; ops whose
inputs are all concrete run as usual, so they are folded into constants.

Anything a layer computes outside the backend's ops on a traced tensor (a
shortcut that returns a fresh symbolic tensor, numpy on the values) leaves a
tensor the trace did not produce; the exporter reports it, naming the layer,
rather than writing a graph that would compute something else.
"""

import contextlib
import sys
import threading

from ..backend import SymbolicTensor, dispatch, get_op
from ..backend.tensor import spec_of
from ..utils import tree


class TracedTensor(SymbolicTensor):
    """A symbolic tensor produced by the trace (a model input or an op output)."""

    __slots__ = ()


class TracedOp:
    """One op application seen by the trace.

    Attributes:
        name: the backend op's name.
        inputs: the op's positional inputs as passed (traced tensors, arrays,
            variables, Python scalars, None, untraced symbolic placeholders).
        attrs: the op's keyword attributes.
        outputs: tuple of `TracedTensor`s.
        layer: the name of the innermost layer whose `call` applied the op, or
            None (for error messages).
    """

    __slots__ = ("attrs", "inputs", "layer", "name", "outputs")

    def __init__(self, name, inputs, attrs, outputs, layer):
        self.name, self.inputs, self.attrs = name, inputs, attrs
        self.outputs, self.layer = outputs, layer

    def where(self):
        """`op 'name' (in layer 'x')` for messages."""
        inside = f" (in layer '{self.layer}')" if self.layer else ""
        return f"op '{self.name}'{inside}"


class Trace:
    """The result of tracing: `inputs`, `ops` in execution order and `outputs`."""

    def __init__(self, inputs, ops, outputs):
        self.inputs, self.ops, self.outputs = inputs, ops, outputs

    def needed(self):
        """The ops the outputs depend on, in their traced order."""
        producer = {id(t): op for op in self.ops for t in op.outputs}
        needed, stack = set(), [producer.get(id(t)) for t in self.outputs]
        while stack:
            op = stack.pop()
            if op is None or id(op) in needed:
                continue
            needed.add(id(op))
            for x in list(op.inputs) + list(op.attrs.values()):
                if isinstance(x, TracedTensor):
                    stack.append(producer.get(id(x)))
        return [op for op in self.ops if id(op) in needed]


_lock = threading.Lock()  # the interceptor is process-wide: one trace at a time


def trace(fn, inputs):
    """Calls `fn(inputs)` and records the ops it applies.

    The outputs are returned as `fn` gave them: one that is not a
    `TracedTensor` was computed outside the ops, and the caller reports it.

    Args:
        fn: a callable taking `inputs` (e.g. a model's inference call).
        inputs: a `TracedTensor` or a list/dict structure of them.

    Returns:
        A `Trace` whose `inputs` and `outputs` are flat lists of traced tensors.
    """
    ops = []
    with _lock, _intercepting(ops):
        try:
            outputs = fn(inputs)
        except Exception as error:
            layer = _innermost_layer(error.__traceback__)
            where = f"layer '{layer.name}' ({type(layer).__name__})" if layer else "the model"
            raise ValueError(
                f"Cannot export to ONNX: calling {where} on symbolic inputs failed, most "
                "likely because it computes with numpy on the values rather than with "
                f"hikeras.ops. Received: {type(error).__name__}: {error}") from error
    return Trace(tree.flatten(inputs), ops, tree.flatten(outputs))


@contextlib.contextmanager
def _intercepting(ops):
    previous = dispatch.get_symbolic_interceptor()

    def intercept(name, inputs, attrs):
        if not any(isinstance(x, TracedTensor) for x in inputs):
            return NotImplemented if previous is None else previous(name, inputs, attrs)
        spec = get_op(name).shape_rule(*[spec_of(v) for v in inputs], **attrs)
        many = isinstance(spec, (tuple, list))
        outputs = tuple(TracedTensor(s.shape, s.dtype) for s in (spec if many else (spec,)))
        ops.append(TracedOp(name, tuple(inputs), dict(attrs), outputs, current_layer()))
        return outputs if many else outputs[0]

    dispatch.set_symbolic_interceptor(intercept)
    try:
        yield
    finally:
        dispatch.set_symbolic_interceptor(previous)


def current_layer():
    """The name of the innermost layer whose `call` is running, found on the stack."""
    frame = sys._getframe(1)
    while frame is not None:
        layer = _layer_of(frame)
        if layer is not None:
            return layer.name
        frame = frame.f_back
    return None


def _innermost_layer(traceback):
    """The layer whose `call` is deepest in `traceback`, or None."""
    found = None
    while traceback is not None:
        found = _layer_of(traceback.tb_frame) or found
        traceback = traceback.tb_next
    return found


def _layer_of(frame):
    """The layer whose `call` `frame` runs, or None (layers are told by name and `built`)."""
    owner = frame.f_locals.get("self") if frame.f_code.co_name == "call" else None
    return owner if isinstance(getattr(owner, "name", None), str) and hasattr(
        owner, "built") else None
