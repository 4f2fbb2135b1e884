"""`print_summary`: Keras's model summary table.

The totals are computed from the same `trainable_weights` the optimizer
updates, so "Trainable params" is exactly the number of scalars training
changes (frozen layers count as non-trainable).
"""

import numpy as np

from ..layers.input_layer import InputLayer


def _count(weights):
    return int(sum(np.prod(w.shape, dtype=np.int64) for w in weights))


def _shape_text(shapes):
    if len(shapes) != 1:
        return "multiple"
    shape = shapes[0]
    if isinstance(shape, list):
        return str([tuple(s) for s in shape])
    return str(tuple(shape))


def _rows(model):
    """(name (type), output shape, params, connected-to list) per layer."""
    graph_nodes = getattr(model, "_nodes_in_order", None)
    sequential_graph = getattr(model, "_graph", None)
    rows = []
    if graph_nodes is not None:  # functional
        for layer in model.layers:
            own = [n for n in graph_nodes if n.layer is layer]
            if isinstance(layer, InputLayer):
                shapes = [layer.batch_shape]
            else:
                shapes = [_tensor_shapes(n.outputs) for n in own]
            connected = [f"{t._keras_history.layer.name}[{t._keras_history.node_index}]"
                         f"[{t._keras_history.tensor_index}]"
                         for n in own for t in n.input_tensors]
            rows.append((layer, _shape_text(shapes), connected))
    else:
        tensors = sequential_graph[1:] if sequential_graph is not None else None
        for i, layer in enumerate(model.layers):
            shape = _shape_text([tensors[i].shape]) if tensors else "?"
            rows.append((layer, shape, None))
    return rows


def _tensor_shapes(outputs):
    if isinstance(outputs, (list, tuple)):
        return [t.shape for t in outputs]
    return outputs.shape


def _emit_nested(layer, emit, functional, show_trainable, depth):
    """The rows of a nested model's own layers, indented by `depth`."""
    if not (hasattr(layer, "_nodes_in_order") or hasattr(layer, "_graph")) or not layer.built:
        return
    for inner, shape, _ in _rows(layer):
        if isinstance(inner, InputLayer):
            continue
        params = inner.count_params() if inner.built else 0
        fields = ["  " * depth + f"{inner.name} ({type(inner).__name__})", shape, f"{params:,}"]
        if functional:
            fields.append("")
        if show_trainable:
            fields.append("Y" if inner.trainable else "N")
        emit(fields)
        _emit_nested(inner, emit, functional, show_trainable, depth + 1)


def print_summary(model, line_length=None, positions=None, print_fn=None, expand_nested=False,
                  show_trainable=False):
    """Prints a table of the model's layers, output shapes and parameter counts.

    Args:
        model: a model; the layers of an unbuilt one show shape `?` and
            `0 (unbuilt)` parameters, as in Keras 3.
        line_length: total width (default 65, or 98 for functional models).
        positions: column right edges, as fractions or absolute positions.
        print_fn: called with each line (default `print`).
        expand_nested: also list the layers of nested models, indented
            under the model's row (recursively).
        show_trainable: add a Trainable column.
    """
    print_fn = print_fn or print
    functional = getattr(model, "_nodes_in_order", None) is not None
    line_length = line_length or (98 if functional else 65)
    positions = positions or ([0.3, 0.6, 0.7, 1.0] if functional else [0.45, 0.85, 1.0])
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    headers = ["Layer (type)", "Output Shape", "Param #"] + (["Connected to"] if functional
                                                             else [])
    if show_trainable:
        headers.append("Trainable")
        positions = positions + [line_length + 11]
        line_length += 11

    def emit(fields):
        line = ""
        for i, field in enumerate(fields):
            if i > 0:
                line = line[:-1] + " "
            line += str(field)
            if i < len(fields) - 1:  # the last column may run past the line (Keras's too)
                line = line[:positions[i]]
            line += " " * (positions[i] - len(line))
        print_fn(line.rstrip())

    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    emit(headers)
    print_fn("=" * line_length)
    rows = _rows(model)
    for i, (layer, shape, connected) in enumerate(rows):
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        fields = [f"{layer.name} ({type(layer).__name__})", shape, params]
        if functional:
            fields.append(connected[0] if connected else "[]")
        if show_trainable:
            fields.append("Y" if layer.trainable else "N")
        emit(fields)
        for extra in (connected or [])[1:]:
            emit(["", "", ""] + [extra])
        if expand_nested:
            _emit_nested(layer, emit, functional, show_trainable, depth=1)
        print_fn("=" * line_length if i == len(rows) - 1 else "")
    total = _count(model.weights)
    trainable = _count(model.trainable_weights)
    print_fn(f"Total params: {total:,}")
    print_fn(f"Trainable params: {trainable:,}")
    print_fn(f"Non-trainable params: {total - trainable:,}")
    print_fn("_" * line_length)
