"""`Function`: the graph between symbolic inputs and outputs, run on new inputs.

`Function(inputs, outputs)` collects the calls (layer or operation nodes)
that lead from `inputs` to `outputs`, schedules them once (Kahn's algorithm,
the backend's `kahn_order`) and replays them on whatever it is called with:
arrays give arrays, symbolic tensors give output specs. Unlike a functional
`Model` it has no weights of its own, no training loop and no masks, and its
inputs may be any graph tensors, intermediate ones included. Nested inputs and
outputs follow `hikeras.tree` (dicts in sorted key order), as Keras's.
"""

from .. import tree
from ..backend import SymbolicTensor, kahn_order
from ..utils import tree as ordered_tree
from .operation import Operation


def _is_graph_tensor(x):
    return isinstance(x, SymbolicTensor) and getattr(x, "_keras_history", None) is not None


def _node_of(tensor):
    layer, node_index, _ = tensor._keras_history
    return layer._inbound_nodes[node_index]


class Function(Operation):
    """Runs the graph of operations between `inputs` and `outputs`, as `keras.Function`.

    Args:
        inputs: a graph tensor (from `Input` or a layer call), or a nested
            structure (list, tuple, dict) of them.
        outputs: graph tensors computed from `inputs`, nested likewise.
        name: the function's name.

    Calling it takes inputs of the structure of `inputs` and returns outputs
    of the structure of `outputs`.

    >>> import numpy as np, hikeras
    >>> from hikeras import layers
    >>> a, b = hikeras.Input((2,)), hikeras.Input((2,))
    >>> fn = hikeras.Function({"a": a, "b": b}, {"sum": layers.Add()([a, b]), "a": a})
    >>> out = fn({"a": np.ones((1, 2)), "b": np.full((1, 2), 2.0)})
    >>> out["sum"].tolist()
    [[3.0, 3.0]]
    """

    def __init__(self, inputs, outputs, name=None):
        super().__init__(name=name)
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self._inputs = tree.flatten(inputs)
        self._outputs = tree.flatten(outputs)
        for what, tensors in (("inputs", self._inputs), ("outputs", self._outputs)):
            for t in tensors:
                if not _is_graph_tensor(t):
                    raise ValueError(
                        f"All `{what}` of a Function must be symbolic tensors from "
                        f"`hikeras.Input` or from layer and operation calls. Received: {t!r}")
        if not self._outputs:
            raise ValueError(f"A Function needs at least one output. Received: outputs={outputs!r}")
        self._nodes = self._collect_nodes()

    def _collect_nodes(self):
        input_ids = {id(t) for t in self._inputs}
        nodes, stack = set(), [t for t in self._outputs if id(t) not in input_ids]
        while stack:
            node = _node_of(stack.pop())
            if node in nodes:
                continue
            if node.is_input:
                raise ValueError(
                    "An output of the Function is not connected to `inputs`: it depends on "
                    f"input '{node.layer.name}', which is not among them. Received: "
                    f"inputs={self._inputs}")
            nodes.add(node)
            stack.extend(t for t in node.input_tensors if id(t) not in input_ids)
        order = kahn_order(sorted(nodes, key=lambda n: n.index),
                           lambda n: [_node_of(t) for t in n.input_tensors
                                      if id(t) not in input_ids])
        return order

    @property
    def inputs(self):
        """The input tensors, flattened."""
        return list(self._inputs)

    @property
    def outputs(self):
        """The output tensors, flattened."""
        return list(self._outputs)

    @property
    def operations(self):
        """The operations the function runs, in the order it runs them (inputs' first)."""
        found = []
        for layer in ([t._keras_history.layer for t in self._inputs]
                      + [node.layer for node in self._nodes]):
            operation = getattr(layer, "operation", layer)  # a wrapped `Operation`
            if not any(operation is o for o in found):
                found.append(operation)
        return found

    def call(self, inputs):
        return self._run(inputs)

    def compute_output_spec(self, inputs):
        """The output specs for symbolic `inputs`: the graph run on specs."""
        return self._run(inputs)

    def _run(self, inputs):
        try:
            tree.assert_same_structure(self._inputs_struct, inputs)
        except (ValueError, TypeError):
            raise ValueError(
                f"Function '{self.name}' was called with an invalid input structure. Expected "
                f"input structure: {self._inputs_struct}. Received: inputs={inputs!r}") from None
        values = {id(t): x for t, x in zip(self._inputs, tree.flatten(inputs))}

        def lookup(x):
            return values[id(x)] if _is_graph_tensor(x) else x

        for node in self._nodes:
            args = ordered_tree.map_structure(lookup, list(node.call_args))
            kwargs = ordered_tree.map_structure(lookup, dict(node.call_kwargs))
            out = node.layer(*args, **kwargs)
            for t, value in zip(node.output_tensors, ordered_tree.flatten(out)):
                values[id(t)] = value
        return tree.pack_sequence_as(self._outputs_struct,
                                     [values[id(t)] for t in self._outputs])
