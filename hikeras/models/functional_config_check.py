"""Checks a functional model's config before it is replayed, naming what is wrong.

`functional_from_config` trusts the shape of the config: a `layers` list of
`{"class_name", "config", "name", "inbound_nodes"}` entries whose nodes refer
to tensors as `[layer_name, node_index, tensor_index, kwargs]` (Keras 2) or
`{"args", "kwargs"}` with `__keras_tensor__` dicts (Keras 3), and
`input_layers`/`output_layers` made of such triples. A corrupt file breaks
that shape in ways the replay would report as `list indices must be integers`
or `list index out of range`; here every entry is checked first, and an error
names the layer (name and class), the key, the value and what was expected.
"""

from ..serialization.config_errors import config_error

_TRIPLE = "[layer name, node index, tensor index] with non-negative integer indices"


def check_functional_config(config):
    """Raises `ConfigError` unless `config` has the shape of a functional model's config."""
    model = config.get("name") if isinstance(config, dict) else None

    def fail(what, layer=None):
        if layer is None:
            return config_error("model", model, "Functional", what)
        return config_error("layer", layer.get("name"), layer.get("class_name"),
                            f"{what} (in model {model!r})")

    layers = config.get("layers")
    if not isinstance(layers, list):
        raise fail(f"key 'layers' has the value {_short(layers)}; expected a list of layers")
    names = set()
    for i, layer in enumerate(layers):
        if not isinstance(layer, dict):
            raise fail(f"key 'layers[{i}]' has the value {_short(layer)}; expected an object")
        for key, kind, expected in (("class_name", str, "a string"),
                                    ("name", str, "a string"),
                                    ("config", dict, "an object")):
            if not isinstance(layer.get(key), kind):
                value = "is missing" if key not in layer else (
                    f"has the value {_short(layer[key])}")
                raise fail(f"key 'layers[{i}].{key}' {value}; expected {expected}",
                           layer if key != "class_name" else None)
        if layer["name"] in names:
            raise fail(f"key 'name' has the value {layer['name']!r}, which an earlier layer "
                       "has; expected a name unique within the model", layer)
        names.add(layer["name"])
        nodes = layer.get("inbound_nodes", [])
        if not isinstance(nodes, list):
            raise fail(f"key 'inbound_nodes' has the value {_short(nodes)}; expected a list",
                       layer)
        for j, node in enumerate(nodes):
            problem = _node_problem(node)
            if problem:
                raise fail(f"key 'inbound_nodes[{j}]' has the value {_short(node)}; "
                           f"expected {problem}", layer)
    for key in ("input_layers", "output_layers"):
        spec = config.get(key)
        for triple in _endpoint_triples(spec):
            if not _is_triple(triple) or triple[0] not in names:
                raise fail(f"key '{key}' has the value {_short(spec)}; expected a list (or "
                           f"dict) of {_TRIPLE} naming layers of the model")


def _node_problem(node):
    """What a node should have been, or None when it is well formed."""
    if isinstance(node, dict):  # Keras 3: {"args": [...], "kwargs": {...}}
        if not isinstance(node.get("args", []), list) or not isinstance(
                node.get("kwargs", {}), (dict, type(None))):
            return "{'args': [...], 'kwargs': {...}}"
        for tensor in keras3_tensors(node):
            history = tensor.get("config", {}).get("keras_history") if isinstance(
                tensor.get("config"), dict) else None
            if not (isinstance(history, list) and _is_triple(history[:3])):
                return f"tensors whose 'keras_history' is {_TRIPLE}"
        return None
    if not isinstance(node, list):
        return "a list of tensor entries or a Keras 3 node object"
    for entry in node:
        if not (isinstance(entry, list) and len(entry) in (3, 4) and _is_triple(entry[:3])
                and (len(entry) == 3 or isinstance(entry[3], dict))):
            return ("entries [layer name, node index, tensor index, kwargs] with "
                    "non-negative integer indices")
    return None


def keras3_tensors(value):
    """The `__keras_tensor__` dicts inside a Keras 3 call argument, in order."""
    if isinstance(value, dict):
        if value.get("class_name") == "__keras_tensor__":
            return [value]
        return [t for v in value.values() for t in keras3_tensors(v)]
    if isinstance(value, list):
        return [t for v in value for t in keras3_tensors(v)]
    return []


def _is_triple(value):
    return (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)
            and all(type(i) is int and i >= 0 for i in value[1:]))


def _endpoint_triples(spec):
    if isinstance(spec, dict):
        return list(spec.values())
    if isinstance(spec, list) and spec and isinstance(spec[0], str):
        return [spec]
    if isinstance(spec, list) and spec:
        return spec
    return [spec]


def _short(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "..."
