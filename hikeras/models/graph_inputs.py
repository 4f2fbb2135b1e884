"""Model inputs taken from the middle of a graph, as Keras 3 allows.

`Model(inputs=x, outputs=y)` where `x` is a layer's output (not an `Input`)
means "the part of the graph from `x` to `y`": a model of pre-encoded data
built on `FeatureSpace.get_encoded_features()` is the common case. As
Keras 3 does, that part of the graph is called again on a fresh `Input` of
`x`'s shape and dtype: its layers (and their weights) are shared with the
original graph, and the new model starts at an `InputLayer` like any other.
"""

from ..layers.input_layer import Input
from ..layers.node import KerasTensor
from ..utils import tree


def is_graph_input(tensor):
    """True for a tensor made by `Input` (its layer's first node has no inbound tensors)."""
    return tensor._keras_history.layer._inbound_nodes[0].is_input


def rooted_at_inputs(inputs, outputs):
    """`(inputs, outputs)` with every non-`Input` tensor of `inputs` replaced by a new `Input`.

    The nodes between a replaced tensor and the outputs are called again on
    the new inputs; nodes that do not depend on a replaced tensor are kept.
    """
    flat_inputs = tree.flatten(inputs)
    replaced = {id(t): Input(batch_shape=tuple(t.shape), dtype=t.dtype)
                for t in flat_inputs if not is_graph_input(t)}
    if not replaced:
        return inputs, outputs
    nodes, stack = {}, [_node_of(t) for t in tree.flatten(outputs) if id(t) not in replaced]
    while stack:
        node = stack.pop()
        if id(node) in nodes:
            continue
        nodes[id(node)] = node
        stack.extend(_node_of(t) for t in node.input_tensors if id(t) not in replaced)
    mapping = dict(replaced)

    def swap(value):
        return mapping.get(id(value), value) if isinstance(value, KerasTensor) else value

    for node in sorted(nodes.values(), key=lambda n: n.index):  # creation order is topological
        if node.is_input or not any(id(t) in mapping for t in node.input_tensors):
            continue
        args = tree.map_structure(swap, list(node.call_args))
        kwargs = tree.map_structure(swap, dict(node.call_kwargs))
        new_outputs = node.layer(*args, **kwargs)
        for old, new in zip(tree.flatten(node.outputs), tree.flatten(new_outputs)):
            mapping[id(old)] = new
    return tree.map_structure(swap, inputs), tree.map_structure(swap, outputs)


def _node_of(tensor):
    layer, node_index, _ = tensor._keras_history
    return layer._inbound_nodes[node_index]
