"""The public entry points: `save_model`, `load_model`, `save_weights`, `load_weights`.

Formats are chosen by suffix when writing and recognised by content when
reading, so a weights file loads whatever Keras (or hikeras) wrote it:

| suffix          | written as                                   |
| --------------- | -------------------------------------------- |
| `.h5`, `.hdf5`  | Keras's legacy layout (full model or weights) |
| `.weights.h5`   | Keras 3's weights layout                     |
| `.weights.json` | with `max_shard_size`: a sharded checkpoint  |
| `.keras`        | Keras 3's zip (full model)                   |
"""

import os

import h5py

from ..utils.atomic import atomic_write
from ..utils.free_space import check_free_space, model_arrays
from .custom_object_check import warn_about_custom_objects
from .file_errors import SavedFileError, file_error
from .h5_open import open_h5
from .keras3_weights import (
    keras3_order,
    read_keras3_entries,
    read_keras3_optimizer,
    write_keras3_weights,
)
from .keras_zip import is_keras_zip, load_keras_zip, open_keras_zip_weights
from .keras_zip_writer import save_keras_zip
from .legacy_h5 import read_weights_group, write_weights_group
from .model_h5 import load_model_h5, save_model_h5
from .optimizer_state import plan_optimizer_state
from .sharded import is_sharded, load_sharded, save_sharded
from .weight_matching import assign, plan_by_name, plan_topological

_H5_ERRORS = (KeyError, TypeError, ValueError, OSError, RuntimeError, AttributeError)


def _check_overwrite(filepath, overwrite):
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"'{filepath}' exists and overwrite=False. "
                              f"Received: filepath={filepath!r}")


def save_model(model, filepath, overwrite=True, include_optimizer=True):
    """Saves architecture, weights and training state: `.keras` (Keras 3) or `.h5`.

    Custom objects are recorded by name; a warning names those that loading
    will need in `custom_objects` (see `custom_object_check`). With
    `include_optimizer=False` the file holds no compile state (it loads
    uncompiled).
    """
    filepath = os.fspath(filepath)
    if filepath.endswith(".keras"):
        writer = save_keras_zip
    elif filepath.endswith((".h5", ".hdf5")):
        writer = save_model_h5
    else:
        raise ValueError(
            "hikeras saves whole models as '.keras' (Keras 3's zip) or '.h5' (Keras's "
            "legacy HDF5, which Keras 2 also loads) files. For weights only, use "
            f"`save_weights`. Received: filepath={filepath!r}")
    _check_overwrite(filepath, overwrite)
    warn_about_custom_objects(model)
    writer(model, filepath, include_optimizer=include_optimizer)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """Loads a model saved by hikeras or Keras (`.h5` full model, or Keras 3 `.keras`).

    `safe_mode` is accepted for Keras compatibility: loading never runs code
    from the file, whatever its value.
    """
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        raise FileNotFoundError(f"No file or directory found at '{filepath}'. "
                                f"Received: filepath={filepath!r}")
    if is_keras_zip(filepath):
        return load_keras_zip(filepath, load_from_h5, custom_objects=custom_objects,
                              compile=compile)
    return load_model_h5(filepath, custom_objects=custom_objects, compile=compile)


def save_weights(model, filepath, overwrite=True, max_shard_size=None):
    """Saves the weights; the layout follows the suffix (see module docstring)."""
    filepath = os.fspath(filepath)
    _check_overwrite(filepath, overwrite)
    if not model.built:
        raise ValueError(f"Model '{model.name}' has no weights yet: build it (call it on data "
                         "or `build(input_shape)`) before `save_weights`.")
    if max_shard_size is not None:
        save_sharded(model, filepath, max_shard_size)
        return
    if filepath.endswith(".weights.h5"):
        writer = write_keras3_weights
    elif filepath.endswith((".h5", ".hdf5")):
        writer = write_weights_group
    else:
        raise ValueError("`save_weights` writes '.weights.h5' (Keras 3's layout) or '.h5' "
                         "(Keras 2's layout) files, or a sharded '.weights.json' checkpoint "
                         f"with `max_shard_size`. Received: filepath={filepath!r}")
    check_free_space(filepath, *model_arrays(model))
    with atomic_write(filepath) as tmp, h5py.File(tmp, "w") as f:
        writer(f, model)


def load_weights(model, filepath, skip_mismatch=False, by_name=False, name_map=None,
                 verbose=False, layers=None):
    """Loads weights written by hikeras or Keras into `model`; returns a `LoadReport`.

    Args:
        model: a built model.
        filepath: a `.h5`/`.weights.h5` file (either Keras layout, recognised by
            content), a full-model `.h5` or `.keras` file, or a sharded
            checkpoint's index (or its directory, through its `checkpoint` pointer).
        skip_mismatch: skip layers whose weight count or shapes differ
            (reported) instead of raising.
        by_name: match top-level layers by name (then leftover layers weight
            by weight on their paths), instead of in order.
        name_map: `{"saved name": "model name"}` renames applied with `by_name`.
        verbose: print the load report.
        layers: sharded checkpoints only: names of the layers to load.

    Nothing in the model changes unless the whole file fits (validate, then assign).
    """
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        raise FileNotFoundError(f"No file or directory found at '{filepath}'. "
                                f"Received: filepath={filepath!r}")
    if not model.built:
        raise ValueError(f"Model '{model.name}' must be built before `load_weights`, so its "
                         "weights exist: call it on data or `build(input_shape)` first.")
    if is_sharded(filepath):
        report = load_sharded(model, filepath, skip_mismatch, by_name, name_map, layers)
    elif is_keras_zip(filepath):
        with open_keras_zip_weights(filepath) as h5file:
            report = load_from_h5(model, h5file, filepath, skip_mismatch, by_name, name_map)
    else:
        with open_h5(filepath) as h5file:
            report = load_from_h5(model, h5file, filepath, skip_mismatch, by_name, name_map)
    if verbose:
        print(report.summary())
    return report


def load_from_h5(model, h5file, source, skip_mismatch, by_name, name_map):
    """Plans, validates and assigns the weights in an open HDF5 file of any layout."""
    try:
        plan, report = _plan_h5(model, h5file, source, skip_mismatch, by_name, name_map)
    except SavedFileError:
        raise
    except _H5_ERRORS as e:
        raise file_error(source, f"is corrupt ({type(e).__name__}: {e})") from None
    assign(plan, source, report)
    return report


def _plan_h5(model, f, source, skip_mismatch, by_name, name_map):
    if isinstance(f.get("layers"), h5py.Group) or isinstance(f.get("vars"), h5py.Group):
        entries = read_keras3_entries(f, model, source, by_name=by_name)
        plan, report = plan_by_name(model, entries, source, skip_mismatch, name_map,
                                    order=keras3_order)
        if not by_name and not skip_mismatch and (report.missing or report.unexpected):
            raise file_error(source, "does not fit the model's structure (load with "
                                     "by_name=True or skip_mismatch=True to load what "
                                     "fits):\n" + report.summary())
        plan.extend(extra for entry in entries if not entry.skipped for extra in entry.extras)
        plan_optimizer_state(model, read_keras3_optimizer(f, source), source, plan, report)
        return plan, report
    group = f.get("model_weights", f)
    if not isinstance(group, h5py.Group) or not _has_layer_names(group):
        raise file_error(source, "is not a Keras weights file: it has neither "
                                 "'layer_names' (Keras 2's layout) nor 'layers' (Keras 3's)")
    entries = read_weights_group(group, source)
    if by_name:
        return plan_by_name(model, entries, source, skip_mismatch, name_map)
    return plan_topological(model, entries, source, skip_mismatch)


def _has_layer_names(group):
    return "layer_names" in group.attrs or "layer_names0" in group.attrs

