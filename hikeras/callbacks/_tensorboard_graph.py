"""The layer graph as a TensorBoard `GraphDef`, and the model summary as text.

Each layer becomes one graph node (op = the layer's class, inputs = the layers
feeding it, `_output_shapes` = its output shape), so TensorBoard's Graphs tab
shows the same picture as `plot_model`.
"""

from ..utils.plot import layer_graph


def _add_shapes(node, shapes):
    for shape in shapes:
        proto = node.attr["_output_shapes"].list.shape.add()
        for dim in shape:
            proto.dim.add().size = -1 if dim is None else int(dim)


def model_graph_def(model):
    """A tensorboardX `GraphDef` with one node per layer."""
    from tensorboardX.proto import graph_pb2

    layers, edges, shapes = layer_graph(model)
    graph = graph_pb2.GraphDef()
    for layer in layers:
        node = graph.node.add()
        node.name = layer.name
        node.op = type(layer).__name__
        node.input.extend(parent.name for parent, child in edges if child is layer)
        _add_shapes(node, shapes.get(layer.name, ([], []))[1])
    return graph


def write_model_graph(writer, model):
    """Writes the graph event and a `model_summary` text summary at step 0."""
    from tensorboardX.proto import event_pb2

    graph = model_graph_def(model)
    writer._get_file_writer().add_event(event_pb2.Event(graph_def=graph.SerializeToString()))
    lines = []
    model.summary(print_fn=lines.append)
    writer.add_text("model_summary", "```\n" + "\n".join(lines) + "\n```", 0)
