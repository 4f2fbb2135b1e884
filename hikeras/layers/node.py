"""Symbolic tensors and nodes: how functional models record their graph.

Calling a layer on `KerasTensor`s does not compute anything. It creates a
`Node` (one call of the layer) whose outputs are new `KerasTensor`s carrying
`(layer, node_index, tensor_index)` — exactly the indices Keras's
`inbound_nodes` JSON refers to.
"""

import collections
import itertools

from ..backend import SymbolicTensor
from ..utils import tree

_node_counter = itertools.count()

KerasHistory = collections.namedtuple("KerasHistory", ["layer", "node_index", "tensor_index"])


class KerasTensor(SymbolicTensor):
    """A symbolic tensor produced by `Input` or by calling a layer on one.

    Attributes:
        shape: tuple with `None` for unknown dimensions (the batch axis).
        dtype: numpy dtype.
        name: the tensor's name (the input layer's name for model inputs).
        _keras_mask: the spec (`SymbolicTensor`) of the mask this tensor
            carries, or None; models propagate the concrete masks where
            their graph has one (see docs/masking.md).
    """

    __slots__ = ("_keras_history", "name", "_keras_mask")

    def __init__(self, shape, dtype="float32", name=None, keras_history=None, keras_mask=None):
        super().__init__(shape, dtype)
        self.name = name
        self._keras_history = keras_history
        self._keras_mask = keras_mask

    def __repr__(self):
        layer = self._keras_history.layer.name if self._keras_history else None
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype.name}, "
                f"name={self.name}, from layer={layer}>")

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


def is_keras_tensor(x):
    """Whether `x` is a symbolic tensor of a functional graph."""
    return isinstance(x, KerasTensor)


class Node:
    """One call of `layer` on symbolic inputs.

    Attributes:
        layer: the called layer.
        call_args / call_kwargs: the arguments as passed, KerasTensors included.
        input_tensors: the KerasTensors among the arguments, in order.
        outputs: the structure returned by the call (KerasTensors).
        output_tensors: its leaves.
    """

    def __init__(self, layer, call_args=(), call_kwargs=None, outputs=None):
        self.layer = layer
        self.index = next(_node_counter)  # creation order: deterministic tie-breaks
        self.call_args = tuple(call_args)
        self.call_kwargs = dict(call_kwargs or {})
        self.input_tensors = [t for t in tree.flatten([self.call_args, self.call_kwargs])
                              if isinstance(t, KerasTensor)]
        self.outputs = outputs
        self.output_tensors = tree.flatten(outputs) if outputs is not None else []

    @property
    def is_input(self):
        """True for the node of an `InputLayer` (it has no inbound tensors)."""
        return not self.input_tensors

    @property
    def parent_nodes(self):
        """The nodes that produced this node's input tensors."""
        parents = []
        for t in self.input_tensors:
            layer, node_index, _ = t._keras_history
            parents.append(layer._inbound_nodes[node_index])
        return parents

    def __repr__(self):
        return f"<Node of {self.layer.name}>"
