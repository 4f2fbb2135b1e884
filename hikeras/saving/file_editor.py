"""`KerasFileEditor`: inspect, edit and resave the weights of `.keras` and `.weights.h5` files.

What Keras 3's editor is for: adapting a saved weights file to a changed
architecture (rename or drop a layer's weights, add those of a new layer),
then writing a `.weights.h5` that `load_weights` (ours or Keras's) accepts.

The file is read once, through the same checked readers as `load_model`
(the zip reader for `.keras`, `h5_open` for HDF5: no links out of the file,
no code run, bounded metadata walk), into `weights_dict`, a nested dict of
numpy arrays (see `weights_tree`). Edits change that dict only; `save`
writes it atomically to a new `.weights.h5`.
"""

import os

import h5py
import numpy as np

from ..utils.atomic import atomic_write
from ..utils.free_space import check_free_space
from .h5_open import open_h5
from .keras3_weights import own_stores
from .keras_zip import open_keras_zip_weights, read_keras_zip_json
from .weights_tree import read_weights_tree, write_weights_tree

_NUMERIC_KINDS = "biufc"


class KerasFileEditor:
    """Inspects and edits the weights saved in a `.keras` or `.weights.h5` file.

    Objects (the model, its layers, the optimizer) are addressed by their path
    in the file, as `summary` prints it (`"layers/dense_1"`), or by their last
    component alone (`"dense_1"`) when that occurs once in the file. Weights
    are named as Keras stores them: `"0"`, `"1"`, ... in the layer's order.

    Args:
        filepath: a `.keras` or `.weights.h5` file.

    Attributes:
        weights_dict: the weights, nested dicts of numpy arrays keyed as in
            the file (`editor.weights_dict["layers"]["dense"]["0"]`).
        config: the model config of a `.keras` file (None for `.weights.h5`).
        metadata: a `.keras` file's `metadata.json` (Keras version, date).
        object_metadata: `{object path: {"name": saved name}}`.

    Example (`model` and `new_model` are hikeras models):

    ```python
    editor = KerasFileEditor("model.weights.h5")
    editor.summary()
    editor.delete_object("layers/dense_1")
    editor.add_object("layers/dense_2", weights={"0": kernel, "1": bias})
    editor.compare(new_model)             # {"status": "success", ...}
    editor.save("adapted.weights.h5")
    new_model.load_weights("adapted.weights.h5")
    ```
    """

    def __init__(self, filepath):
        filepath = os.fspath(filepath)
        self.filepath = filepath
        self.config = None
        self.metadata = None
        if filepath.endswith(".keras"):
            self.config = read_keras_zip_json(filepath, "config.json")
            self.metadata = read_keras_zip_json(filepath, "metadata.json")
            with open_keras_zip_weights(filepath) as h5file:
                tree, names = read_weights_tree(h5file, f"{filepath}: model.weights.h5")
        elif filepath.endswith(".weights.h5"):
            with open_h5(filepath) as h5file:
                tree, names = read_weights_tree(h5file, filepath)
        else:
            raise ValueError("Invalid filename: expected a `.keras` or `.weights.h5` "
                             f"extension. Received: filepath={filepath}")
        self.weights_dict = tree
        self.object_metadata = {path: {"name": name} for path, name in names.items()}
        print(f"Keras model file '{filepath}'")
        if self.metadata is not None:
            print(f"Saved with Keras {self.metadata.get('keras_version')} - date: "
                  f"{self.metadata.get('date_saved')}")

    # -- looking ------------------------------------------------------------

    def summary(self):
        """Prints the tree of objects and weights, with each weight's shape and dtype."""
        print("Weights structure")
        self._print_tree(self.weights_dict, "", "  ")

    def weights_summary(self):
        """The same as `summary` (Keras's error messages point to this name)."""
        self.summary()

    def _print_tree(self, node, path, prefix):
        items = list(node.items())
        for i, (key, value) in enumerate(items):
            last = i == len(items) - 1
            connector = "> " if not path and i == 0 else "└─ " if last else "├─ "
            inner = f"{path}/{key}" if path else key
            if isinstance(value, dict):
                name = self.object_metadata.get(inner, {}).get("name")
                print(f"{prefix}{connector}{key}" + (f" ('{name}')" if name else ""))
                self._print_tree(value, inner, prefix + ("    " if last else "│   "))
            else:
                print(f"{prefix}{connector}{key}: shape={value.shape}, dtype={value.dtype}")

    def compare(self, reference_model):
        """Lists every difference between the file and `reference_model`'s weights.

        A weight or object present on one side only, or a weight whose shape
        differs, is one error (printed with its path).

        Returns:
            `{"status": "success" | "error", "error_count": int, "match_count": int}`.
        """
        print("Running comparison")
        reference = _weight_spec(reference_model)
        errors, matches = _compare(self.weights_dict, reference, "")
        if errors == 0:
            print("Comparison successful: saved file is compatible with the reference model")
            print(f"    Found {matches} matching weight{'' if matches == 1 else 's'}")
        else:
            print(f"Found {errors} error{'' if errors == 1 else 's'}: saved file is not "
                  "compatible with the reference model")
        return {"status": "success" if errors == 0 else "error", "error_count": errors,
                "match_count": matches}

    # -- editing ------------------------------------------------------------

    def rename_object(self, object_name, new_name):
        """Renames an object (e.g. `"dense_2"` or `"layers/dense_2"`) to `new_name`.

        `new_name` is a leaf name, not a path; it must not be taken already.
        """
        if not isinstance(new_name, str) or not new_name or "/" in new_name:
            raise ValueError("Argument `new_name` should be a leaf name, not a full path "
                             f"name. Received: new_name={new_name!r}")
        parent, key, path = self._locate(object_name)
        if new_name in parent:
            raise ValueError(f"Cannot rename '{path}' to '{new_name}': an entry of that name "
                             f"already exists there. Received: new_name={new_name!r}")
        parent[new_name] = parent.pop(key)
        self._forget_metadata(path)

    def delete_object(self, object_name):
        """Removes an object and everything below it (e.g. `"layers/dense_2"`)."""
        parent, key, path = self._locate(object_name)
        del parent[key]
        self._forget_metadata(path)

    def add_object(self, object_path, weights):
        """Adds an object at `object_path` (e.g. `"layers/dense_2"`) with `weights`,
        a dict of weight names to arrays (`{"0": kernel, "1": bias}`).

        The path's parent must exist, and the object must not.
        """
        weights = _checked_weights(weights)
        if not isinstance(object_path, str) or not object_path or any(
                not part for part in object_path.split("/")):
            raise ValueError("Argument `object_path` should be a path such as "
                             f"'layers/dense_2'. Received: object_path={object_path!r}")
        *parents, leaf = object_path.split("/")
        node = self.weights_dict
        for i, part in enumerate(parents):
            node = node.get(part)
            if not isinstance(node, dict):
                raise ValueError(  # noqa: TRY004 (a missing path: ValueError, as in Keras)
                    f"Path '{'/'.join(parents[:i + 1])}' not found in the file. "
                    f"Received: object_path={object_path!r}")
        if leaf in node:
            raise ValueError(f"'{object_path}' already exists; delete it first or use "
                             f"`add_weights`. Received: object_path={object_path!r}")
        node[leaf] = weights

    def delete_weight(self, object_name, weight_name):
        """Removes weight `weight_name` (e.g. `"1"`) from an object."""
        _, _, path = self._locate(object_name)
        obj = self._object_at(path)
        if weight_name not in obj or isinstance(obj[weight_name], dict):
            found = [k for k, v in obj.items() if not isinstance(v, dict)]
            raise ValueError(f"Weight {weight_name} not found in object {object_name}. "
                             f"Weights found: {found}. Received: weight_name={weight_name!r}")
        del obj[weight_name]

    def add_weights(self, object_name, weights):
        """Adds weights (a dict of names to arrays) to an existing object."""
        weights = _checked_weights(weights)
        _, _, path = self._locate(object_name)
        obj = self._object_at(path)
        taken = sorted(set(weights) & set(obj))
        if taken:
            raise ValueError(f"Object '{path}' already has weights {taken}; delete them "
                             f"first. Received: weights with keys {list(weights)}")
        obj.update(weights)

    # -- writing --------------------------------------------------------------

    def save(self, filepath):
        """Writes the edited weights to a new `.weights.h5` file (Keras 3's layout), atomically."""
        filepath = os.fspath(filepath)
        if not filepath.endswith(".weights.h5"):
            raise ValueError("Invalid `filepath` argument: expected a `.weights.h5` "
                             f"extension. Received: filepath={filepath}")
        arrays = _arrays(self.weights_dict)
        check_free_space(filepath, sum(a.nbytes for a in arrays), len(arrays))
        names = {path: meta["name"] for path, meta in self.object_metadata.items()
                 if isinstance(meta.get("name"), str)}
        with atomic_write(filepath) as tmp, h5py.File(tmp, "w") as h5file:
            write_weights_tree(h5file, self.weights_dict, names)

    def resave_weights(self, filepath):
        """The same as `save`."""
        self.save(filepath)

    # -- helpers ------------------------------------------------------------------

    def _locate(self, object_name):
        """`(parent dict, key, path)` of an entry given by path or by a unique name."""
        if not isinstance(object_name, str) or not object_name:
            raise ValueError("Expected the name or path of an object in the file. "
                             f"Received: object_name={object_name!r}")
        if "/" in object_name:
            *parents, key = object_name.split("/")
            node = self.weights_dict
            for part in parents:
                node = node.get(part) if isinstance(node, dict) else None
            if not isinstance(node, dict) or key not in node:
                raise ValueError(f"Path '{object_name}' not found in the file. "
                                 "Use `editor.summary()` to list all objects.")
            return node, key, object_name
        found = list(_occurrences(self.weights_dict, object_name, ""))
        if len(found) > 1:
            raise ValueError(f"Name '{object_name}' occurs more than once in the file "
                             f"({', '.join(p for _, p in found)}); pass a complete path.")
        if not found:
            raise ValueError(f"Source name '{object_name}' does not appear in the file. "
                             "Use `editor.summary()` to list all objects.")
        parent, path = found[0]
        return parent, object_name, path

    def _object_at(self, path):
        node = self.weights_dict
        for part in path.split("/"):
            node = node[part]
        if not isinstance(node, dict):
            raise ValueError(  # noqa: TRY004 (a wrong path, not a wrong type)
                f"'{path}' is a weight, not an object. Received: {path!r}")
        return node

    def _forget_metadata(self, path):
        for key in [k for k in self.object_metadata if k == path or k.startswith(path + "/")]:
            del self.object_metadata[key]


def _occurrences(node, name, path):
    """`(parent dict, path)` of every entry called `name` anywhere under `node`."""
    for key, value in node.items():
        inner = f"{path}/{key}" if path else key
        if key == name:
            yield node, inner
        if isinstance(value, dict):
            yield from _occurrences(value, name, inner)


def _arrays(node):
    out = []
    for value in node.values():
        out.extend(_arrays(value) if isinstance(value, dict) else [value])
    return out


def _checked_weights(weights):
    """`weights` as `{str: numeric numpy array}`, or a Keras-style error."""
    if not isinstance(weights, dict):
        raise ValueError(  # noqa: TRY004 (Keras raises ValueError here)
            "Argument `weights` should be a dict where keys are weight names "
                         "(usually '0', '1', etc.) and values are NumPy arrays. "
                         f"Received: type(weights)={type(weights)}")
    out = {}
    for key, value in weights.items():
        if not isinstance(key, str) or not key or "/" in key:
            raise ValueError(f"Weight names must be non-empty strings without '/'. "
                             f"Received: weight name {key!r}")
        array = np.asarray(getattr(value, "value", value))
        if array.dtype.kind not in _NUMERIC_KINDS:
            raise ValueError(f"Weight '{key}' must be a numeric array. "
                             f"Received: dtype={array.dtype}")
        out[key] = array
    return out


def _weight_spec(model):
    """The model's weights as the file would hold them: nested dicts of shapes."""
    spec = {}
    for path, _, slots in own_stores(model):
        if not slots:
            continue
        node = spec
        for part in path.split("/") if path else ():
            node = node.setdefault(part, {})
        for slot in slots:
            node[slot.key] = slot.shape
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and getattr(optimizer, "built", False):
        spec["optimizer"] = {str(i): tuple(v.value.shape)
                             for i, v in enumerate(optimizer.variables)}
    return spec


def _compare(saved, reference, path):
    """`(errors, matches)` between the file's tree and the model's spec, printing errors."""
    errors = matches = 0
    for key in list(reference) + [k for k in saved if k not in reference]:
        inner = f"{path}/{key}" if path else key
        ours, theirs = saved.get(key), reference.get(key)
        kind = "Object" if isinstance(ours if theirs is None else theirs, dict) else "Weight"
        if ours is None or theirs is None:
            errors += 1
            where, missing = (("reference model", "saved file") if ours is None
                              else ("saved file", "reference model"))
            print(f"...{kind} {inner} present in {where}, missing from {missing}")
        elif isinstance(ours, dict) != isinstance(theirs, dict):
            errors += 1
            print(f"...{inner} is an object on one side and a weight on the other")
        elif isinstance(theirs, dict):
            sub_errors, sub_matches = _compare(ours, theirs, inner)
            errors, matches = errors + sub_errors, matches + sub_matches
        elif tuple(ours.shape) != tuple(theirs):
            errors += 1
            print(f"...Weight shape mismatch for {inner}\n    In reference model: "
                  f"shape={tuple(theirs)}\n    In saved file: shape={tuple(ours.shape)}")
        else:
            matches += 1
    return errors, matches

