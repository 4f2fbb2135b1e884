"""Functional model <-> config, in the Keras 2 dialect (which Keras 3 also reads).

A config lists each layer with its `inbound_nodes`: for every call of the
layer inside this model, the `[layer_name, node_index, tensor_index, kwargs]`
of each input tensor. Node indices count only the calls that belong to this
model, so a layer shared with another model still numbers from 0 here.

Inside `keras3_nodes()` (used for `.keras` archives) nodes are written the
Keras 3 way instead: `{"args": [...], "kwargs": {...}}` with tensors as
`__keras_tensor__` dicts, and a nested model's calls numbered from 0 (Keras 3
gives a model no node of its own; Keras 2 does, so its numbers start at 1).
"""

import collections
import contextlib
import contextvars
import inspect

from ..layers.layer_table import deserialize
from ..layers.node import KerasTensor
from ..serialization import custom_object_scope, serialize_keras_object
from ..utils import tree
from .functional_config_check import check_functional_config, keras3_tensors

_BUILTIN_NODE = object()  # stands for node 0 of a nested model in Keras 2 configs
_MORE_ARGS = "__positional_arguments__"  # Keras 3 nodes' arguments after the first
_KERAS3_NODES = contextvars.ContextVar("hikeras_keras3_nodes", default=False)


@contextlib.contextmanager
def keras3_nodes():
    """Within it, `functional_config` writes Keras 3's node dialect (see module docstring)."""
    token = _KERAS3_NODES.set(True)
    try:
        yield
    finally:
        _KERAS3_NODES.reset(token)


def has_builtin_node(layer):
    """Whether Keras 2 numbers this layer's calls from 1: a nested model with its own
    `Input` owns a node 0 linking its inputs to its outputs (Keras 3 numbers from 0)."""
    if hasattr(layer, "_nodes_in_order"):  # Functional
        return True
    return getattr(layer, "_input_layer", None) is not None  # Sequential with an Input


def _is_sequential_with_input(layer):
    return getattr(layer, "_input_layer", None) is not None and not hasattr(
        layer, "_nodes_in_order")


def _numbered_from_one(layer, keras3):
    """Keras 2 numbering, except for a nested `Sequential`: it is written without its
    `InputLayer` entry (see `_nested_entry`), so both tf.keras and Keras 3 number its
    calls from 0; Keras 3 rejects the numbering from 1 that tf.keras writes for it."""
    return not keras3 and has_builtin_node(layer) and not _is_sequential_with_input(layer)


def _nested_entry(layer, keras3):
    """A layer's `{"class_name", "config"}`; a nested `Sequential` without its
    `InputLayer` in the Keras 2 dialect (the outer graph gives it its input)."""
    entry = serialize_keras_object(layer)
    if not keras3 and _is_sequential_with_input(layer):
        entry["config"] = {**entry["config"], "layers": [
            c for c in entry["config"]["layers"] if c.get("class_name") != "InputLayer"]}
    return entry


def _model_node_indices(model, keras3):
    """`{id(node): index among the layer's nodes that belong to this model}`."""
    members = {id(n) for n in model._nodes_in_order}
    members.update(id(t._keras_history.layer._inbound_nodes[0]) for t in model.inputs)
    index = {}
    for layer in model.layers:
        k = 1 if _numbered_from_one(layer, keras3) else 0
        for node in layer._inbound_nodes:
            if id(node) in members:
                index[id(node)] = k
                k += 1
    return index


def _tensor_ref(tensor, node_index):
    layer, node_idx, tensor_idx = tensor._keras_history
    return [layer.name, node_index[id(layer._inbound_nodes[node_idx])], tensor_idx]


def functional_config(model):
    """The JSON-able config of a functional model."""
    keras3 = _KERAS3_NODES.get()
    node_index = _model_node_indices(model, keras3)
    layers = []
    for layer in model.layers:
        inbound = []
        for node in layer._inbound_nodes:
            if id(node) not in node_index or node.is_input:
                continue
            if keras3:
                inbound.append(_keras3_node(node, node_index))
                continue
            first, kwargs = _call_arguments(node, node_index)
            inbound.append([_tensor_ref(t, node_index) + [kwargs] for t in tree.flatten(first)
                            if isinstance(t, KerasTensor)])
        entry = _nested_entry(layer, keras3)
        entry["name"] = layer.name
        entry["inbound_nodes"] = inbound
        layers.append(entry)
    return {
        "name": model.name,
        "trainable": model.trainable,
        "layers": layers,
        "input_layers": _refs(model._inputs_struct, model.inputs, node_index),
        "output_layers": _refs(model._outputs_struct, model.outputs, node_index),
    }


def _refs(struct, flat, node_index):
    """The model's inputs/outputs as triples: a dict keyed as the user gave it (as Keras 3
    writes it), else a list."""
    if isinstance(struct, dict):
        return {key: _tensor_ref(t, node_index) for key, t in struct.items()}
    return [_tensor_ref(t, node_index) for t in flat]


def functional_from_config(functional_class, config, custom_objects=None):
    """Rebuilds a functional model by replaying its layer calls.

    `functional_class` is `Functional`, passed in by its `from_config` (Keras's
    shape): this module sits below `functional.py`, which imports it.
    """
    check_functional_config(config)
    with custom_object_scope(custom_objects):
        created = {}
        for layer_config in config["layers"]:
            layer = deserialize({"class_name": layer_config["class_name"],
                                 "config": layer_config["config"]})
            created[layer_config["name"]] = layer
        outputs_by_layer = {name: [] for name in created}
        keras2 = not any(isinstance(n, dict) for c in config["layers"]
                         for n in c.get("inbound_nodes", []))
        for name, layer in created.items():
            if keras2 and has_builtin_node(layer):
                outputs_by_layer[name].append(_BUILTIN_NODE)
            if not layer._inbound_nodes:
                continue
            outputs_by_layer[name].append(layer.output)  # InputLayer: node 0
        _replay_nodes(config, created, outputs_by_layer)
        return functional_class(_endpoints(outputs_by_layer, config["input_layers"]),
                                _endpoints(outputs_by_layer, config["output_layers"]),
                                name=config.get("name"),
                                trainable=config.get("trainable", True))


def _replay_nodes(config, created, outputs_by_layer):
    """Replays every recorded layer call once its inputs exist, in linear time
    whatever order the config lists the layers in.

    A layer's calls replay in their recorded order (so node indices line up); a
    call waiting for a tensor is woken when that tensor's layer produces one,
    instead of rescanning every pending call (quadratic for reversed configs).
    """
    queues = {}
    for c in config["layers"]:
        nodes = [_node_entries(n) for n in c.get("inbound_nodes", [])]
        if nodes:
            queues.setdefault(c["name"], collections.deque()).extend(nodes)
    waiting = collections.defaultdict(list)  # producer name -> layers waiting on it
    todo = list(reversed(queues))  # a stack, popped in config order
    while todo:
        name = todo.pop()
        queue = queues[name]
        while queue:
            entries = queue[0]
            inputs = [_resolve(outputs_by_layer, e) for e in entries]
            kwargs = entries[0][3] if entries and len(entries[0]) > 3 else {}
            kwargs = _resolve_kwargs(outputs_by_layer, kwargs or {})
            missing = {e[0] for e, x in zip(entries, inputs) if x is None}
            if missing or kwargs is None:
                for producer in missing or [None]:  # None: a tensor among the kwargs
                    waiting[producer].append(name)
                break
            arg = inputs[0] if len(inputs) == 1 else inputs
            more_args = kwargs.pop(_MORE_ARGS, [])
            outputs_by_layer[name].append(created[name](arg, *more_args, **kwargs))
            queue.popleft()
            todo.extend(waiting.pop(name, []))
            todo.extend(waiting.pop(None, []))
    stuck = sorted(n for n, q in queues.items() if q)
    if stuck:
        raise ValueError(
            f"The model config cannot be rebuilt: layers {stuck} depend on tensors that "
            "are never produced. The file may be corrupt."
        )


def _node_entries(node):
    """A node's inputs as Keras 2 entries: `[name, node_index, tensor_index, kwargs]`.

    Keras 3 writes a node as `{"args": [...], "kwargs": {...}}` whose tensors are
    `{"class_name": "__keras_tensor__", "config": {"keras_history": [...]}}`;
    the tensors of its first argument, in order, become the entries; its
    non-None kwargs ride on the first one (as in Keras 2), tensors as
    `[name, node, index]`, and further positional arguments with them.
    """
    if not isinstance(node, dict):
        return [list(e) for e in node]
    args = node.get("args") or []
    history = [t["config"]["keras_history"] for t in keras3_tensors(args[:1])]
    kwargs = {k: _keras3_refs(v) for k, v in (node.get("kwargs") or {}).items()
              if v is not None}
    if len(args) > 1:  # more positional arguments, e.g. `mha(query, value)`
        kwargs[_MORE_ARGS] = _keras3_refs(args[1:])
    return [list(h[:3]) + [kwargs if i == 0 else {}] for i, h in enumerate(history)]


def _keras3_refs(value):
    """A Keras 3 kwarg with its tensors replaced by `[name, node_index, tensor_index]`."""
    if isinstance(value, dict):
        if value.get("class_name") == "__keras_tensor__":
            return list(value["config"]["keras_history"][:3])
        return {k: _keras3_refs(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_keras3_refs(v) for v in value]
    return value


def _endpoints(outputs_by_layer, spec):
    """The tensors named by `input_layers`/`output_layers`: one, a list, or a dict."""
    if isinstance(spec, dict):
        return {key: _resolve(outputs_by_layer, e) for key, e in spec.items()}
    tensors = [_resolve(outputs_by_layer, e) for e in _triples(spec)]
    for entry, tensor in zip(_triples(spec), tensors):
        if tensor is None:
            raise ValueError(f"The model config names {entry} among its inputs or outputs, "
                             f"but layer '{entry[0]}' has no node {entry[1]}.")
    return tensors if len(tensors) > 1 else tensors[0]


def _triples(spec):
    """`input_layers`/`output_layers`: a list of triples, or one bare triple."""
    if spec and isinstance(spec[0], str):
        return [spec]
    return spec


def _call_arguments(node, node_index):
    """A call as tf.keras writes it: the first argument, and all others by name.

    Tensors among the named arguments (e.g. `MultiHeadAttention`'s `value`)
    become `[layer_name, node_index, tensor_index]`.
    """
    names = list(inspect.signature(node.layer.call).parameters)[1:]
    named = dict(zip(names, node.call_args[1:]))
    named.update(node.call_kwargs)
    return node.call_args[0], tree.map_structure(
        lambda v: _tensor_ref(v, node_index) if isinstance(v, KerasTensor) else v, named)


def _keras3_node(node, node_index):
    """A call as Keras 3 writes it: positional and keyword arguments as passed."""
    def serialize(value):
        if not isinstance(value, KerasTensor):
            return value
        return {"class_name": "__keras_tensor__", "config": {
            "shape": [None if d is None else int(d) for d in value.shape],
            # a string tensor is held as a numpy object array; Keras names it "string"
            "dtype": "string" if value.dtype == object else value.dtype.name,
            "keras_history": _tensor_ref(value, node_index)}}

    return {"args": tree.map_structure(serialize, list(node.call_args)),
            "kwargs": tree.map_structure(serialize, node.call_kwargs)}


def _resolve_kwargs(outputs_by_layer, kwargs):
    """`kwargs` with tensor references replaced by tensors; None while one is missing."""
    missing = []

    def resolve(value):
        if (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)
                and value[0] in outputs_by_layer
                and all(type(v) is int for v in value[1:])):
            tensor = _resolve(outputs_by_layer, value)
            if tensor is None:
                missing.append(value)
            return tensor
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        return value

    resolved = resolve(kwargs)
    return None if missing else resolved


def _resolve(outputs_by_layer, entry):
    name, node_index, tensor_index = entry[0], entry[1], entry[2]
    produced = outputs_by_layer.get(name)
    if produced is None:
        raise ValueError(f"The model config refers to an unknown layer '{name}'.")
    if node_index >= len(produced):
        return None
    if produced[node_index] is _BUILTIN_NODE:
        raise ValueError(f"The model config refers to node {node_index} of nested model "
                         f"'{name}', which is its own input-to-output node.")
    flat = tree.flatten(produced[node_index])
    if tensor_index >= len(flat):
        raise ValueError(f"The model config refers to tensor {tensor_index} of node "
                         f"{node_index} of layer '{name}', which has {len(flat)} output "
                         f"tensor(s). Received: {list(entry[:3])}")
    return flat[tensor_index]
