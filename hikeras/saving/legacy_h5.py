"""Keras's legacy HDF5 weights layout (Keras 2's `.h5`, also read by Keras 3).

A weights group (the file root for `save_weights("w.h5")`, `model_weights`
inside a full-model file) has attributes `layer_names`, `backend` and
`keras_version`; one subgroup per layer, in `layer_names` order, whose
`weight_names` attribute lists its datasets (`dense/kernel:0`, stored at
`<layer>/dense/kernel:0`). Layers without weights still get an (empty) group.
A layer's datasets are what it and its sublayers `save_own_variables`, in
`layer_stores.legacy_slots` order: a variable under its path, any other
array as `<layer name>/<key>:0`.
The optimizer's state goes in `optimizer_weights`, listed by `weight_names`
in `optimizer.variables` order.
"""

import h5py

from ..version import __version__
from .checksums import write_dataset
from .file_errors import file_error
from .h5_attributes import read_string_list, write_string_list
from .layer_stores import legacy_slots
from .saved_arrays import SavedArray, SavedEntry, file_size_of

KERAS_VERSION = "2.15.0"  # the Keras whose layout and config dialect we write
BACKEND = "tensorflow"    # Keras's readers only special-case "theano"


def _unique(names):
    """Names made unique within one group (sublayers of custom layers may share one)."""
    seen, out = {}, []
    for name in names:
        candidate, i = name, 0
        while candidate in seen:
            i += 1
            candidate = f"{name}_{i}"
        seen[candidate] = True
        out.append(candidate)
    return out


def _write_arrays(group, names, arrays):
    write_string_list(group, "weight_names", names)
    for name, array in zip(names, arrays):
        write_dataset(group, name, array)


def write_weights_group(group, model):
    """Writes every top-level layer's weights, Keras's legacy layout."""
    layers = model.layers
    write_string_list(group, "layer_names", [layer.name for layer in layers])
    group.attrs["backend"] = BACKEND
    group.attrs["keras_version"] = KERAS_VERSION
    group.attrs["hikeras_version"] = __version__
    # Groups are created in name order, as Keras does, so no name is a prefix problem.
    for layer in sorted(layers, key=lambda l: l.name):
        slots = legacy_slots(layer)
        names = _unique([f"{slot.path}:0" for slot in slots])
        _write_arrays(group.create_group(layer.name), names, [slot.array() for slot in slots])


def read_weights_group(group, source):
    """The `SavedEntry`s of a weights group, in `layer_names` order (validated)."""
    size = file_size_of(group.file)
    entries = []
    for name in read_string_list(group, "layer_names", source):
        layer_group = group.get(name)
        if not isinstance(layer_group, h5py.Group):
            raise file_error(source, f"lists layer '{name}' in 'layer_names' of "
                                     f"'{group.name}' but has no group for it")
        entries.append(SavedEntry(name, _read_arrays(layer_group, source, size)))
    return entries


def _read_arrays(group, source, size):
    arrays = []
    for weight_name in read_string_list(group, "weight_names", source):
        try:
            dataset = group.get(weight_name)
        except (ValueError, KeyError, OSError) as e:  # names h5py cannot even parse
            raise file_error(source, f"has an unreadable weight name {weight_name!r} in "
                                     f"'{group.name}' ({e})") from None
        if dataset is None:
            raise file_error(source, f"lists weight '{weight_name}' in '{group.name}' but "
                                     "has no dataset for it")
        arrays.append(SavedArray.from_dataset(dataset, weight_name, source, size))
    return arrays


def write_optimizer_group(h5file, optimizer):
    """`optimizer_weights`: the optimizer's variables by path, in `variables` order."""
    variables = optimizer.variables
    group = h5file.create_group("optimizer_weights")
    _write_arrays(group, _unique([v.path for v in variables]), [v.value for v in variables])


def read_optimizer_group(h5file, source):
    """The saved optimizer arrays, in the file's order; None when there are none."""
    group = h5file.get("optimizer_weights")
    if group is None:
        return None
    if not isinstance(group, h5py.Group):
        raise file_error(source, "has an 'optimizer_weights' that is not a group")
    return _read_arrays(group, source, file_size_of(h5file))

