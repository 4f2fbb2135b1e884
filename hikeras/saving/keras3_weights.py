"""Keras 3's `.weights.h5` layout (also `model.weights.h5` inside a `.keras` zip).

Objects are addressed by structure, not by (unstable) names. Every layer or
model gets a group holding `vars/<key>`: what its `save_own_variables` stores
(by default `vars/0`, `vars/1`, ...: its own variables, trainable then
non-trainable; the `vars` group's `name` attribute records the layer's
name), and one subgroup per child: for Sequential and functional
models a `layers` container, whose keys are snake-case class names made
unique in layer order (`dense`, `dense_1`, `input_layer`, ...); for other
layers the attributes holding sublayers, public ones first, in name order.
The root is the model itself; a compiled model adds `optimizer/vars/<i>`.
"""

import h5py

from ..layers.layer import Layer, to_snake_case
from .checksums import write_dataset
from .file_errors import file_error
from .layer_stores import Slot, overrides_loading, own_slots
from .saved_arrays import SavedArray, SavedEntry, file_size_of

# Base-class bookkeeping that refers to layers but is not a child to save.
_NOT_CHILDREN = frozenset({"_layers", "_input_layer", "_stack", "_graph", "_inbound_nodes"})


def _keyed(layers):
    used, out = {}, []
    for layer in layers:
        base = to_snake_case(type(layer).__name__)
        n = used.get(base, 0)
        used[base] = n + 1
        out.append((base if n == 0 else f"{base}_{n}", layer))
    return out


def _name_key(name):
    return f"~{name}" if name.startswith("_") else name


def children(obj):
    """`[(relative path, sublayer)]` in Keras 3's saving order."""
    if hasattr(obj, "_nodes_in_order") or hasattr(obj, "_stack"):  # Functional, Sequential
        return [(f"layers/{key}", layer) for key, layer in _keyed(obj.layers)]
    out = []
    for attr in sorted(vars(obj), key=_name_key):
        if attr in _NOT_CHILDREN or attr.startswith("__"):
            continue
        value = vars(obj)[attr]
        if isinstance(value, Layer):
            out.append((attr, value))
            continue
        if isinstance(value, dict):   # Keras saves a dict's values like a list's
            value = list(value.values())
        if isinstance(value, (list, tuple)) and value and all(
                isinstance(v, Layer) for v in value):
            out.extend((f"{attr}/{key}", layer) for key, layer in _keyed(value))
    return out


def layer_paths(obj, path="", visited=None):
    """`[(group path, layer)]` for `obj` (at `path`) and its children, depth first."""
    visited = set() if visited is None else visited
    out = [(path, obj)]
    prefix = f"{path}/" if path else ""
    for rel, child in children(obj):
        if id(child) not in visited:
            visited.add(id(child))
            out.extend(layer_paths(child, f"{prefix}{rel}", visited))
    return out


def own_stores(obj):
    """`[(group path, layer, slots)]` for `obj` and its children, in Keras 3's order:
    each layer's store (`layer_stores.own_slots`) goes to `<group path>/vars/<key>`."""
    return [(path, layer, own_slots(layer)) for path, layer in layer_paths(obj)]


def _vars_path(path, key):
    return f"{path}/vars/{key}" if path else f"vars/{key}"


def slot_paths(obj):
    """`[(dataset path, Slot)]` for `obj` and its children, Keras 3's order."""
    return [(_vars_path(path, slot.key), slot)
            for path, _, slots in own_stores(obj) for slot in slots]


def variable_paths(obj):
    """`[(dataset path, saved value)]`: a variable, for what the default
    `save_own_variables` stores."""
    return [(path, slot.value) for path, slot in slot_paths(obj)]


def keras3_order(layer):
    """A layer's slots in the order this layout stores them."""
    return [slot for _, slot in slot_paths(layer)]


def _write_object(h5file, obj):
    for path, layer, slots in own_stores(obj):
        group = h5file.require_group(f"{path}/vars" if path else "vars")
        group.attrs["name"] = layer.name
        for slot in slots:
            write_dataset(group, slot.key, slot.array())


def write_keras3_weights(h5file, model, include_optimizer=True):
    """Writes the model (and its built optimizer, if compiled) in Keras 3's layout."""
    _write_object(h5file, model)
    optimizer = getattr(model, "optimizer", None)
    if include_optimizer and optimizer is not None and optimizer.built:
        group = h5file.create_group("optimizer/vars")
        group.attrs["name"] = optimizer.name
        for i, var in enumerate(optimizer.variables):
            write_dataset(group, str(i), var.value)


def _datasets_under(group):
    """The relative names of every dataset under `group`."""
    found = []
    group.visititems(lambda name, obj: found.append(name)
                     if isinstance(obj, h5py.Dataset) else None)
    return found


def _numbered(name):
    """Keras's default keys: `vars/<i>`. Other names are only read when a layer
    stores them (or reads them itself: a lookup layer's `idf_weights`)."""
    return name.rpartition("/")[2].isdigit()


def _group_name(group):
    vars_group = group.get("vars")
    if isinstance(vars_group, h5py.Group):
        name = vars_group.attrs.get("name")
        if isinstance(name, bytes):
            name = name.decode("utf-8", "replace")
        if isinstance(name, str):
            return name
    return None


def read_keras3_entries(h5file, model, source, by_name=False):
    """Saved entries named after the model's layers they belong to, plus leftovers.

    Topologically a layer's entry is the group at its structural key; with
    `by_name` it is the group whose `vars` records the layer's name.
    """
    size = file_size_of(h5file)
    layers = children(model)
    container = "layers" if layers and layers[0][0].startswith("layers/") else ""
    groups = {}
    root = h5file.get(container) if container else h5file
    if root is not None and not isinstance(root, h5py.Group):
        raise file_error(source, f"has a '{container}' that is not a group")
    for key in (root.keys() if root is not None else ()):
        group = root.get(key)
        if isinstance(group, h5py.Group) and key not in ("vars", "optimizer"):
            groups[f"{container}/{key}" if container else key] = group
    by_saved_name = {_group_name(g): p for p, g in groups.items()} if by_name else {}
    entries, used = [], set()
    for rel, layer in layers:
        path = by_saved_name.get(layer.name, rel) if by_name else rel
        group = groups.get(path)
        if group is None and "/" in path and not container:
            # a child held in a list or dict attribute: "<attribute>/<key>"
            nested = h5file.get(path)
            group = nested if isinstance(nested, h5py.Group) else None
        if group is None:
            continue
        used.add(path.split("/")[0] if not container else path)
        entries.append(_layer_entry(layer, group, path, source, size))
    for path, group in groups.items():
        if path not in used:
            names = sorted(filter(_numbered, _datasets_under(group)), key=_natural)
            entries.append(SavedEntry(_group_name(group) or path, [
                SavedArray.from_dataset(group[n], f"{path}/{n}", source, size) for n in names]))
    return entries


def _layer_entry(layer, group, path, source, size):
    """The saved entry of one top-level layer (with its sublayers) from its group.

    When the group holds exactly the datasets the layer's stores list, they
    are taken in that order; otherwise the numbered ones that are there, for
    the matching to report. Other datasets in the `vars` group of a layer
    that overrides `load_own_variables` are its `extras`.
    """
    stores = own_stores(layer)
    expected = [_vars_path(p, slot.key) for p, _, slots in stores for slot in slots]
    listed = set(expected)
    datasets = _datasets_under(group)
    present = sorted((n for n in datasets if n in listed or _numbered(n)), key=_natural)
    names = expected if listed == set(present) else present
    extras = []
    for sub_path, sublayer, _ in stores:
        if not overrides_loading(sublayer):
            continue
        prefix = _vars_path(sub_path, "")
        for name in datasets:
            key = name[len(prefix):]
            if name.startswith(prefix) and "/" not in key and name not in listed \
                    and not _numbered(name):
                extras.append((Slot(sublayer, key, None), SavedArray.from_dataset(
                    group[name], f"{path}/{name}", source, size)))
    return SavedEntry(layer.name, [SavedArray.from_dataset(group[n], f"{path}/{n}", source,
                                                           size) for n in names], extras)


def read_keras3_optimizer(h5file, source):
    """The saved optimizer arrays (`optimizer/vars/0..n`), or None."""
    group = h5file.get("optimizer/vars")
    if group is None:
        return None
    if not isinstance(group, h5py.Group):
        raise file_error(source, "has an 'optimizer/vars' that is not a group")
    keys = list(group.keys())
    if any(not k.isdigit() for k in keys) or sorted(map(int, keys)) != list(range(len(keys))):
        raise file_error(source, f"has optimizer variables named {keys[:5]}, not 0..n-1")
    size = file_size_of(h5file)
    return [SavedArray.from_dataset(group[str(i)], f"optimizer/vars/{i}", source, size)
            for i in range(len(keys))]


def _natural(path):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in path.split("/")]
