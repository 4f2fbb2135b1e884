"""Pictures of models and training runs: `plot_model` and `plot_history`.

Both are optional extras (`pip install "hikeras[plot]"`): `plot_model` draws
with Graphviz through `pydot`, as Keras does, and `plot_history` with
matplotlib. A missing piece is an `ImportError` that names the command
installing it.
"""

import os

import numpy as np


def layer_graph(model):
    """The model's layers and the connections between them.

    Returns:
        `(layers, edges, shapes)`: the layers in model order (input layers
        first), the `(from_layer, to_layer)` pairs, and per layer name the
        lists of its input and output shapes (from its first call in the model).
    """
    try:
        inputs = list(model.inputs or [])
    except (AttributeError, ValueError):  # subclassed or unbuilt: no graph of calls
        inputs = []
    layers = []
    for layer in [t._keras_history.layer for t in inputs if hasattr(t, "_keras_history")] + \
            list(model.layers):
        if all(layer is not seen for seen in layers):
            layers.append(layer)
    members = {id(layer) for layer in layers}
    edges, shapes = [], {}
    for layer in layers:
        for node in getattr(layer, "_inbound_nodes", []):
            parents = [t._keras_history.layer for t in node.input_tensors]
            if node.input_tensors and not all(id(p) in members for p in parents):
                continue  # a call of this layer inside another model
            for parent in parents:
                if (parent, layer) not in edges:
                    edges.append((parent, layer))
            shapes.setdefault(layer.name, ([tuple(t.shape) for t in node.input_tensors],
                                           [tuple(t.shape) for t in node.output_tensors]))
    return layers, edges, shapes


def _require(module, what):
    try:
        return __import__(module)
    except ImportError as err:
        raise ImportError(f"{what} needs `{module}`, which is not installed. Install it with: "
                          'pip install "hikeras[plot]"') from err


def _shape_text(shapes):
    return str(shapes[0]) if len(shapes) == 1 else str(shapes)


def _label(layer, shapes, show_shapes, show_dtype, show_layer_names, show_layer_activations,
           show_trainable):
    lines = [f"{layer.name} ({type(layer).__name__})" if show_layer_names
             else type(layer).__name__]
    activation = getattr(layer, "activation", None)
    if show_layer_activations and activation is not None:
        lines.append(f"Activation: {getattr(activation, '__name__', activation)}")
    if show_dtype:
        lines.append(f"dtype: {getattr(layer, 'dtype', '?')}")
    if show_shapes and shapes is not None:
        inputs, outputs = shapes
        if inputs:
            lines.append(f"Input shape: {_shape_text(inputs)}")
        if outputs:
            lines.append(f"Output shape: {_shape_text(outputs)}")
    if show_trainable:
        lines.append(f"Trainable: {'yes' if layer.trainable else 'no'}")
    return "\n".join(lines)


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", dpi=200, show_layer_activations=False, show_trainable=False):
    """The layer graph as a `pydot.Dot` (one box per layer, arrows along the data flow)."""
    if rankdir not in ("TB", "LR"):
        raise ValueError(f"rankdir must be 'TB' or 'LR'. Received: rankdir={rankdir!r}")
    pydot = _require("pydot", "plot_model")
    layers, edges, shapes = layer_graph(model)
    dot = pydot.Dot(graph_type="digraph", rankdir=rankdir, dpi=str(dpi), concentrate="true")
    dot.set_node_defaults(shape="box", fontname="Helvetica")
    for layer in layers:
        label = _label(layer, shapes.get(layer.name), show_shapes, show_dtype,
                       show_layer_names, show_layer_activations, show_trainable)
        dot.add_node(pydot.Node(str(id(layer)), label=f'"{_escape(label)}"'))
    for parent, child in edges:
        dot.add_edge(pydot.Edge(str(id(parent)), str(id(child))))
    return dot


def _escape(text):
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=True, rankdir="TB", dpi=200, show_layer_activations=False,
               show_trainable=False):
    """Draws the model's layer graph to `to_file` (`.png`, `.svg`, `.pdf` or `.dot`).

    Needs `pydot`, and for every format but `.dot` the Graphviz program
    `dot` (`apt-get install graphviz`, `brew install graphviz`, ...).

    Args:
        model: a built model.
        to_file: the output file; its extension picks the format.
        show_shapes: add each layer's input and output shapes.
        show_dtype: add each layer's dtype.
        show_layer_names: label boxes "name (Class)" rather than "Class".
        rankdir: `"TB"` (top to bottom) or `"LR"` (left to right).
        dpi: resolution of raster images.
        show_layer_activations: add the activation of layers that have one.
        show_trainable: add whether each layer is trainable.

    Returns:
        An `IPython.display.Image` of a `.png` when IPython is installed, else None.

    >>> import os, tempfile, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((4,)), hikeras.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.dot")
    >>> _ = plot_model(model, to_file=path, show_shapes=True)
    >>> "Output shape: (None, 2)" in open(path).read()
    True
    """
    dot = model_to_dot(model, show_shapes, show_dtype, show_layer_names, rankdir, dpi,
                       show_layer_activations, show_trainable)
    to_file = os.fspath(to_file)
    extension = os.path.splitext(to_file)[1][1:].lower() or "png"
    if extension == "dot":
        with open(to_file, "w", encoding="utf-8") as f:
            f.write(dot.to_string())
        return None
    try:
        dot.write(to_file, format=extension)
    except FileNotFoundError as err:
        raise ImportError("plot_model draws with the Graphviz program `dot`, which was not "
                          "found. Install Graphviz (e.g. `apt-get install graphviz` or "
                          "`brew install graphviz`), or write a `.dot` file instead. "
                          f"Received: to_file={to_file!r}") from err
    if extension == "png":
        try:
            from IPython import display
        except ImportError:
            return None
        return display.Image(filename=to_file)
    return None


def plot_history(history, to_file=None, metrics=None, title=None):
    """Plots each logged metric per epoch, training and validation on the same axes.

    Args:
        history: the `History` returned by `fit`, or its `history` dict.
        to_file: if given, the figure is saved there (format from the extension).
        metrics: the metric names to plot (default: every logged name without
            its `val_` prefix, e.g. `["loss", "accuracy"]`).
        title: the figure title.

    Returns:
        The matplotlib `Figure`, one subplot per metric.

    >>> fig = plot_history({"loss": [1.0, 0.5], "val_loss": [1.2, 0.7]})
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['loss', 'val_loss']
    """
    _require("matplotlib", "plot_history")
    from matplotlib.figure import Figure

    logs = getattr(history, "history", history)
    if not isinstance(logs, dict) or not logs:
        raise ValueError("plot_history needs a History or a non-empty dict of per-epoch "
                         f"values. Received: {history!r}")
    epochs = list(getattr(history, "epoch", None) or range(len(next(iter(logs.values())))))
    names = metrics or [k for k in logs if not k.startswith("val_")] or \
        [k[4:] for k in logs]
    missing = [n for n in names if n not in logs and f"val_{n}" not in logs]
    if missing:
        raise ValueError(f"plot_history: {missing} were not logged; logged: {sorted(logs)}. "
                         f"Received: metrics={metrics!r}")
    fig = Figure(figsize=(5 * len(names), 4), layout="constrained")
    for ax, name in zip(np.atleast_1d(fig.subplots(1, len(names))), names):
        for key in (name, f"val_{name}"):
            if key in logs:
                values = logs[key]
                ax.plot([e + 1 for e in epochs[-len(values):]], values, marker="o", label=key)
        ax.set_xlabel("epoch")
        ax.set_ylabel(name)
        ax.legend()
    if title:
        fig.suptitle(title)
    if to_file is not None:
        fig.savefig(os.fspath(to_file))
    return fig
