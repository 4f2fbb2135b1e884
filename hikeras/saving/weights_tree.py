"""Keras 3's weights layout as a nested dict of arrays, for `KerasFileEditor`.

In a `.weights.h5` file (or the `model.weights.h5` of a `.keras` zip) an
object (the model, a layer, the optimizer) is a group; its own weights are the
datasets of its `vars` subgroup (`layers/dense/vars/0`), whose `name` attribute
records the object's name, and its children are its other subgroups
(`layers/dense`, `optimizer`). The tree collapses each `vars` group into its
object: `{"layers": {"dense": {"0": kernel, "1": bias}}, "optimizer": {...}}`.
Objects with no weights anywhere below them are left out, as Keras's file
editor does; the loaders need no group for a weightless layer.

Unlike Keras 3.15's editor, an object that has both weights and children (a
nested model's group has an empty `vars` and a `layers` child) keeps its
children, so nothing is lost when an edited file is written back.
"""

import h5py

from .checksums import digest, write_dataset
from .file_errors import file_error
from .h5_attributes import read_string
from .saved_arrays import SavedArray, file_size_of


def _natural(key):
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


def _join(path, key):
    return f"{path}/{key}" if path else key


def read_weights_tree(h5file, source):
    """`(tree, names)`: the file's weights as nested dicts of arrays, and
    `{object path: saved name}` from the `vars` groups' `name` attributes.

    `h5file` must come from the checked opener (`h5_open.open_h5`); links are
    refused here too, so a soft link cannot make the walk loop.
    """
    size = file_size_of(h5file)
    names = {}

    def read_object(group, path):
        node = {}
        keys = sorted(group.keys(), key=_natural)
        if "vars" in keys:
            keys.remove("vars")
            keys.insert(0, "vars")
        for key in keys:
            where = _join(path, key)
            if group.get(key, getlink=True).__class__ is not h5py.HardLink:
                raise file_error(source, f"has a link at '{where}'; only plain groups and "
                                         "datasets are read")
            item = group[key]
            if key == "vars" and isinstance(item, h5py.Group):
                name = read_string(item.attrs, "name", source)
                if name is not None:
                    names[path] = name
                for weight in sorted(item.keys(), key=_natural):
                    dataset = item.get(weight, getlink=True)
                    if dataset.__class__ is not h5py.HardLink or not isinstance(
                            item[weight], h5py.Dataset):
                        raise file_error(source, f"has '{where}/{weight}', which is not a "
                                                 "dataset")
                    node[weight] = _read_checked(item[weight], f"{where}/{weight}", source,
                                                 size)
            elif isinstance(item, h5py.Group):
                child = read_object(item, where)
                if child:
                    node[key] = child
            else:
                node[key] = _read_checked(item, where, source, size)
        return node

    return read_object(h5file, ""), names


def _read_checked(dataset, where, source, size):
    """The dataset's array, verified against the checksum hikeras recorded (if any)."""
    saved = SavedArray.from_dataset(dataset, where, source, size)
    array = saved.read()
    if saved.checksum is not None and digest(array) != saved.checksum:
        raise file_error(source, f"is corrupt: the data of '{where}' does not match the "
                                 "checksum recorded when the file was written")
    return array


def write_weights_tree(h5file, tree, names):
    """Writes `tree` in Keras 3's layout: each object's arrays under `<path>/vars`,
    each with its checksum (`checksums`)."""

    def write_object(node, path):
        weights = {k: v for k, v in node.items() if not isinstance(v, dict)}
        if weights:
            group = h5file.require_group(_join(path, "vars"))
            if path in names:
                group.attrs["name"] = names[path]
            for key, value in weights.items():
                write_dataset(group, key, value)
        for key, value in node.items():
            if isinstance(value, dict):
                write_object(value, _join(path, key))

    write_object(tree, "")

