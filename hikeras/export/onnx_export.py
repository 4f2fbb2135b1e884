"""`export_onnx`: a model's inference graph as an ONNX file.

The model's call is traced once on symbolic inputs (`tracing.py`), the ops
that reach the outputs are translated one by one (`translations/`), and the
graph is checked with `onnx.checker` and written atomically.
"""

import numpy as np

from ..backend import floatx
from ..utils import tree
from ..utils.atomic import atomic_write
from .onnx_graph import OnnxGraph
from .tracing import TracedTensor, trace
from .translations import translate

DEFAULT_OPSET = 18
MIN_OPSET = 17


def export_onnx(model, filepath, input_signature=None, opset_version=None, verbose=False):
    """Writes `model`'s inference computation (`training=False`) to `filepath` as ONNX.

    Args:
        model: a built hikeras model (Sequential, functional or subclassed).
        filepath: where to write the `.onnx` file.
        input_signature: optional structure (a spec, or a list/dict of specs,
            as the model takes its inputs) of objects with a `shape` (and
            optionally a `dtype`), e.g. `hikeras.Input`s or `SymbolicTensor`s.
            `None` dimensions stay dynamic. By default the model's own input
            shapes are used, with a dynamic batch dimension.
        opset_version: the ONNX opset (17 or higher); default 18.
        verbose: print where the file went.

    Returns:
        The `onnx.ModelProto` that was written.
    """
    opset = DEFAULT_OPSET if opset_version is None else int(opset_version)
    if opset < MIN_OPSET:
        raise ValueError(f"ONNX export needs opset {MIN_OPSET} or higher. "
                         f"Received: opset_version={opset_version}")
    g = OnnxGraph()
    g.opset = opset
    names, inputs = _traced_inputs(model, input_signature)
    result = trace(lambda x: model(x, training=False), inputs)
    _check_outputs(model, result.outputs)
    onnx = g.onnx
    graph_inputs = []
    for name, tensor in zip(names, result.inputs):
        onnx_name = g.fresh(name)
        g.bind(tensor, onnx_name)
        graph_inputs.append(_value_info(onnx, onnx_name, tensor))
    for op in result.needed():
        translate(g, op)
    graph_outputs = []
    g.current = None
    for i, tensor in enumerate(result.outputs):
        name = g.fresh(f"output_{i}")
        g.nodes.append(onnx.helper.make_node("Identity", [g.name_of(tensor)], [name],
                                             name=g.fresh(f"node/{name}")))
        graph_outputs.append(_value_info(onnx, name, tensor))
    graph = onnx.helper.make_graph(g.nodes, model.name or "model", graph_inputs, graph_outputs,
                                   initializer=g.initializers)
    opsets = [onnx.helper.make_opsetid("", opset)]
    proto = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="hikeras")
    # The lowest IR version the opset allows, so older runtimes read the file too.
    proto.ir_version = onnx.helper.find_min_ir_version_for(opsets)
    onnx.checker.check_model(proto)
    with atomic_write(filepath) as tmp:
        onnx.save(proto, tmp)
    if verbose:
        print(f"Saved the ONNX model (opset {opset}) to '{filepath}'.")
    return proto


def _traced_inputs(model, input_signature):
    """`(names, structure of TracedTensors)` for the model's inputs."""
    if input_signature is None:
        specs = getattr(model, "_inputs_struct", None) or getattr(model, "inputs", None)
        if specs is None:
            shape = getattr(model, "_build_shapes", None)
            if shape is None:
                raise ValueError(
                    f"Cannot export model '{model.name}': it has no known input shape. Call it "
                    "on data first or pass input_signature. Received: input_signature=None")
            specs = shape
        if isinstance(specs, list) and len(specs) == 1:
            specs = specs[0]
        dynamic_batch = True
    else:
        specs, dynamic_batch = input_signature, False
        if isinstance(specs, (list, tuple)) and len(specs) == 1 and not _is_shape(specs):
            specs = specs[0]
    names = []

    def make(spec):
        if _is_shape(spec):
            shape, dtype, name = tuple(spec), floatx(), None
        else:
            shape = tuple(spec.shape)
            dtype = getattr(spec, "dtype", None) or floatx()
            name = getattr(spec, "name", None)
        if dynamic_batch and shape:
            shape = (None,) + shape[1:]
        names.append(name if isinstance(name, str) and name else f"input_{len(names)}")
        return TracedTensor(shape, np.dtype(dtype))

    if _is_shape(specs):
        return names, make(specs)
    structure = tree.map_structure(make, specs)
    return names, structure


def _is_shape(x):
    return isinstance(x, (tuple, list)) and all(
        d is None or isinstance(d, (int, np.integer)) for d in x)


def _check_outputs(model, outputs):
    for i, out in enumerate(outputs):
        if isinstance(out, TracedTensor):
            continue
        graph_outputs = getattr(model, "outputs", None) or []
        history = getattr(graph_outputs[i], "_keras_history", None) if i < len(
            graph_outputs) else None
        layer = f"layer '{history.layer.name}' ({type(history.layer).__name__})" \
            if history is not None else "a layer"
        raise TypeError(
            f"Cannot export model '{model.name}' to ONNX: its output {i} is computed by {layer} "
            "outside hikeras' ops (the layer returns a tensor of its own for symbolic inputs, "
            f"or uses numpy on the values), so it has no ONNX translation. Received: {out!r}")


def _value_info(onnx, name, tensor):
    elem = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(tensor.dtype))
    shape = [None if d is None else int(d) for d in tensor.shape]
    dims = [d if d is not None else ("batch" if i == 0 else f"dim_{i}")
            for i, d in enumerate(shape)]
    return onnx.helper.make_tensor_value_info(name, elem, dims)
