"""`OnnxGraph`: the ONNX graph being written, built with the `onnx` package.

Translations (`hikeras.export.translations`) add nodes through it: `value`
turns what an op received (a traced tensor, a weight, a Python scalar) into
the name of an ONNX value, `node` appends an ONNX node and returns its output
names, and `bind` says which ONNX value holds a traced tensor. Weights become
initializers, stored once however many ops use them.
"""

import numpy as np

from ..backend import SymbolicTensor, Tensor
from .tracing import TracedTensor


def onnx_module():
    """The `onnx` package, or an ImportError that says how to install it."""
    try:
        import onnx
    except ImportError:
        raise ImportError("Exporting to ONNX needs the `onnx` package: "
                          "pip install \"hikeras[onnx]\"") from None
    return onnx


class OnnxGraph:
    """Nodes, initializers and the traced-tensor → ONNX-value mapping of one export."""

    def __init__(self):
        self.onnx = onnx_module()
        self.nodes, self.initializers = [], []
        self._names = {}      # id(traced tensor) -> ONNX value name
        self._tensors = []    # keeps traced tensors alive, so their ids stay unique
        self._constants = {}  # (id(array), dtype) -> initializer name
        self._arrays = []     # keeps constant sources alive for the same reason
        self._used = set()
        self.current = None   # the TracedOp being translated (for names and messages)

    # ------------------------------------------------------------------ names
    def fresh(self, hint):
        """A value name not used yet, made from `hint`."""
        base = "".join(c if c.isalnum() or c in "_./:" else "_" for c in hint) or "v"
        name, k = base, 1
        while name in self._used:
            name, k = f"{base}_{k}", k + 1
        self._used.add(name)
        return name

    def bind(self, tensor, name):
        """Records that traced `tensor` is held by ONNX value `name`."""
        self._names[id(tensor)] = name
        self._tensors.append(tensor)

    def name_of(self, tensor):
        return self._names[id(tensor)]

    # ------------------------------------------------------------------ values
    def value(self, x, dtype=None):
        """The ONNX value name for an op input `x`, as `dtype` when given.

        Traced tensors of another dtype get a `Cast`; weights and scalars are
        converted when they are stored.
        """
        if isinstance(x, TracedTensor):
            if id(x) not in self._names:
                raise self.error(f"an input of shape {x.shape} that the trace did not produce")
            name = self._names[id(x)]
            if dtype is not None and np.dtype(dtype) != x.dtype:
                return self.cast(name, dtype)
            return name
        if isinstance(x, SymbolicTensor):
            raise self.error(
                f"a symbolic input of shape {x.shape} that was not computed through hikeras' "
                "ops (a layer took a shortcut for symbolic inputs)")
        if x is None:
            raise self.error("a missing (None) input")
        return self.constant(x, dtype)

    def constant(self, x, dtype=None, hint=None):
        """An initializer holding `x` (an array, a variable, a scalar or a list)."""
        source = x
        array = np.asarray(x.value if isinstance(x, Tensor) else x)
        if dtype is not None:
            array = array.astype(dtype, copy=False)
        elif isinstance(x, (float, list, tuple)) and array.dtype == np.float64:
            array = array.astype(np.float32)  # a Python float is weak: float32 unless told
        kept = isinstance(source, (np.ndarray, Tensor))
        key = (id(source), array.dtype.str, array.shape) if kept else None
        if key is not None and key in self._constants:
            return self._constants[key]
        name = self.fresh(hint or getattr(source, "path", None) or "const")
        # (np.ascontiguousarray would make a 0-d array 1-d: a scalar must stay one.)
        array = np.ascontiguousarray(array).reshape(array.shape)
        self.initializers.append(self.onnx.numpy_helper.from_array(array, name))
        if key is not None:
            self._constants[key] = name
            self._arrays.append(source)
        return name

    def ints(self, values, hint="ints"):
        """An int64 initializer (shapes, axes, pads, slice bounds)."""
        return self.constant(np.asarray(values, dtype=np.int64).reshape(-1), hint=hint)

    def scalar(self, value, dtype, hint="scalar"):
        return self.constant(np.asarray(value, dtype=dtype), hint=hint)

    # ------------------------------------------------------------------ nodes
    def node(self, op_type, inputs, outputs=1, **attributes):
        """Appends an ONNX node; returns its output name (or names when `outputs` > 1)."""
        hint = op_type if self.current is None else f"{self.current.name}/{op_type}"
        names = [self.fresh(hint) for _ in range(outputs)]
        self.nodes.append(self.onnx.helper.make_node(
            op_type, list(inputs), names, name=self.fresh(f"node/{hint}"),
            **{k: v for k, v in attributes.items() if v is not None}))
        return names[0] if outputs == 1 else names

    def cast(self, name, dtype):
        return self.node("Cast", [name], to=self.onnx.helper.np_dtype_to_tensor_dtype(
            np.dtype(dtype)))

    def error(self, what):
        where = self.current.where() if self.current is not None else "the model"
        return ValueError(f"Cannot export {where} to ONNX: it received {what}.")

