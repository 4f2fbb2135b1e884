"""`apply`: the single entry point through which every op runs.

Depending on its inputs an op is evaluated three ways:

* any input symbolic  -> the op's shape rule gives symbolic outputs;
* a tape is recording and an input is tracked -> forward kernel, and a
  `Node` is recorded on every active tape, outputs wrapped as `Tensor`s;
* otherwise -> the forward kernel on plain arrays, returning plain arrays
  (the fast path used by inference); if it fails on an attribute that holds
  a size unknown while a layer is traced (a `SymbolicDim`), the shape rule
  answers instead.
"""

import contextlib
import threading

import numpy as np

from . import autocast, bfloat16
from .graph import Node
from .tensor import SymbolicTensor, Tensor, Variable, new_ref, spec_of

_local = threading.local()
_ops = {}  # the active backend's name -> Op table, set by selection.set_backend
_symbolic_interceptor = None


def set_symbolic_interceptor(fn):
    """Installs `fn(name, inputs, attrs)`, consulted before shape rules run.

    The front end uses it to turn ops on its graph-building tensors into graph
    nodes; `fn` returns `NotImplemented` to let the shape rule answer.
    """
    global _symbolic_interceptor
    _symbolic_interceptor = fn


def get_symbolic_interceptor():
    """The function installed by `set_symbolic_interceptor`, or None."""
    return _symbolic_interceptor


def active_tapes():
    """The tapes recording in this thread, innermost last."""
    tapes = getattr(_local, "tapes", None)
    if tapes is None:
        tapes = _local.tapes = []
    return tapes


@contextlib.contextmanager
def recording_on(tapes):
    """Makes `tapes` the recording tapes of this thread for the enclosed code.

    A backward pass runs inside it: with no tapes, its ops run unrecorded on
    plain arrays; with the tapes that should see the gradient computation
    (nested tapes), its ops are recorded so the gradient can be differentiated.
    """
    previous = active_tapes()
    _local.tapes = list(tapes)
    try:
        yield
    finally:
        _local.tapes = previous


def set_op_table(table):
    """Points dispatch at a backend's op table (called by `set_backend`)."""
    global _ops
    _ops = table


def get_op_table():
    """The active op table (`name -> Op`).

    The profiling hook: `hikeras.utils.Profiler` swaps in a table of timed
    copies of the ops with `set_op_table` and puts this one back afterwards,
    so `apply` itself carries no profiling code and costs nothing extra.
    """
    return _ops


def get_op(name):
    """Returns the active backend's `Op` called `name`."""
    try:
        return _ops[name]
    except KeyError:
        raise ValueError(
            f"Unknown op; the active backend registers {sorted(_ops)}. Received: name={name!r}"
        ) from None


def apply(name, *inputs, **attrs):
    """Runs op `name` on `inputs` (arrays, tensors, symbolic tensors or scalars)."""
    op = _ops.get(name) or get_op(name)
    if autocast.any_scope_open() and not op.mutates:
        inputs = _autocast_variables(inputs)
    return _run(op, inputs, attrs)


def _run(op, inputs, attrs):
    """`apply` past its autocast step."""
    values = []
    for x in inputs:
        if isinstance(x, Tensor):
            values.append(x.value)
        elif isinstance(x, SymbolicTensor):
            return _apply_symbolic(op, inputs, attrs)
        else:
            values.append(x)
    tapes = getattr(_local, "tapes", None)
    if tapes and op.differentiable:
        refs = _input_refs(inputs, tapes)
        if refs is not None:
            return _record(op, values, refs, attrs, tapes)
    try:  # no cost on Python 3.11+ unless the kernel raises
        out = _forward(op, values, attrs)
    except TypeError:
        # Concrete inputs with a size that is unknown while a layer is traced
        # (`ops.tile(weight, (ops.shape(x)[0], 1))`): the answer is a spec.
        if not _has_unknown_dim(attrs):
            raise
        return _apply_symbolic(op, inputs, attrs)
    return out[0] if op.residual else out


def _autocast_variables(inputs):
    """`inputs` with autocast float variables read through a cast (see `autocast`)."""
    return tuple(autocast_operand(x) if isinstance(x, Variable) else x for x in inputs)


def autocast_operand(x):
    """`x`, or an autocast float `Variable` read in the open `AutocastScope`'s dtype.

    Front-end ops that promote their operands' dtypes before reaching `apply`
    call this first, so a float32 weight promotes as the float16 it is read as.
    """
    dtype = autocast.autocast_dtype()
    if (dtype is None or not isinstance(x, Variable) or not x.autocast
            or x.value.dtype == dtype or x.value.dtype.kind != "f"):
        return x
    return _run(_ops.get("cast") or get_op("cast"), (x,), {"dtype": dtype})


def _forward(op, values, attrs):
    """`op`'s forward kernel; bfloat16 inputs are computed on in float32 (`bfloat16.py`)."""
    # A cast, or an op told its output dtype, answers in the dtype it was asked for.
    if bfloat16.bfloat16_in_use() and op.name != "cast" and attrs.get("dtype") is None and any(
            getattr(v, "dtype", None) is not None and v.dtype.kind == "V" for v in values):
        return bfloat16.round_to_bfloat16(
            op.forward(*bfloat16.widen_bfloat16(values), **attrs), op.residual)
    return op.forward(*values, **attrs)


def _has_unknown_dim(attrs):
    """Whether an attribute holds a `SymbolicDim` (directly or in a tuple or list)."""
    for value in attrs.values():
        entries = value if isinstance(value, (tuple, list)) else (value,)
        if any(isinstance(v, SymbolicTensor) for v in entries):
            return True
    return False


def _apply_symbolic(op, inputs, attrs):
    if _symbolic_interceptor is not None:
        result = _symbolic_interceptor(op.name, inputs, attrs)
        if result is not NotImplemented:
            return result
    return op.shape_rule(*[spec_of(v) for v in inputs], **attrs)


def _input_refs(inputs, tapes):
    """Per input, its tracked reference or None; None overall if nothing is tracked."""
    refs = []
    tracked = False
    for x in inputs:
        ref = None
        if isinstance(x, Tensor):
            ref = x.ref
        elif isinstance(x, np.ndarray):
            for tape in tapes:
                ref = tape.watched_ref(x)
                if ref is not None:
                    break
        refs.append(ref)
        tracked = tracked or ref is not None
    return tuple(refs) if tracked else None


def _record(op, values, refs, attrs, tapes):
    out = _forward(op, values, attrs)
    residual = None
    if op.residual:
        out, residual = out
    outs = (out,) if op.num_outputs == 1 else tuple(out)
    # numpy reductions and ufuncs on 0-d arrays return numpy scalars; a Tensor
    # always holds an ndarray (so `np.asarray(tensor)` and in-place ops work).
    outs = tuple(o if type(o) is np.ndarray else np.asarray(o) for o in outs)
    save_in, save_out = op.save_inputs, op.save_outputs
    node = Node(
        op, attrs, refs,
        tuple(new_ref() for _ in outs),
        tuple(v if i in save_in else None for i, v in enumerate(values)),
        tuple(o if i in save_out else None for i, o in enumerate(outs)),
        residual,
        tuple(getattr(v, "shape", ()) for v in values),
        tuple(o.shape for o in outs),
        tuple(o.dtype for o in outs),
    )
    node.shared = len(tapes) > 1
    for tape in tapes:
        tape.record(node)
    wrapped = tuple(Tensor(o, r) for o, r in zip(outs, node.output_refs))
    return wrapped[0] if op.num_outputs == 1 else wrapped
