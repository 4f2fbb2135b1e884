"""Everything a resumed `fit` needs besides the weights, and how it is stored.

`BackupAndRestore` writes one HDF5 file holding the model's weights, the
optimizer's variables, the metric states, and as a JSON attribute the
counters, the random generators' states and the other callbacks' states.
One file, replaced atomically, means a backup is always whole: a crash never
pairs new weights with old counters.
"""

import json

import numpy as np

from ..random.layer_state import (
    layer_generators,
    layer_random_state,
    restore_layer_random_state,
)
from ..utils.rng import global_generator


def rng_states(model):
    """The global, shuffling and per-layer generator states (JSON-compatible)."""
    return {"global": global_generator().bit_generator.state, **layer_random_state(model)}


def restore_rng_states(model, states, source):
    global_generator().bit_generator.state = states["global"]
    generators = layer_generators(model)
    if sorted(generators) != sorted(states["layers"]):
        raise ValueError(
            f"The backup '{source}' was written for a model whose layers own the random "
            f"generators {sorted(states['layers'])}, but this model's are "
            f"{sorted(generators)}. Resume with the same architecture, or delete the backup. "
            f"Received: {len(generators)} generators"
        )
    restore_layer_random_state(model, states)


def _is_array_list(value):
    return (isinstance(value, (list, tuple)) and value
            and all(isinstance(v, np.ndarray) for v in value))


def _plain(value):
    """JSON's view of numpy scalars."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"Cannot store a {type(value).__name__} in a backup. Received: {value!r}")


def write_arrays(group, arrays):
    """Datasets `0`, `1`, ... holding `arrays`, each with its checksum, as model files."""
    from ..saving.checksums import write_dataset

    for i, array in enumerate(arrays):
        write_dataset(group, str(i), array)


def read_arrays(group):
    """The arrays `write_arrays` stored; a recorded checksum that does not match raises
    `ValueError` naming the dataset."""
    from ..saving.checksums import digest, read_checksum

    arrays = []
    for i in range(len(group)):
        dataset = group[str(i)]
        value = np.asarray(dataset[()])
        checksum = read_checksum(dataset, f"The dataset '{dataset.name}'")
        if checksum is not None and digest(value) != checksum:
            raise ValueError(f"'{dataset.name}' does not match the checksum recorded when the "
                             "backup was written: the file is damaged")
        arrays.append(value)
    return arrays


def write_callback_states(h5file, callbacks):
    """Stores each stateful callback's `_get_state()`; returns the JSON part."""
    entries = []
    for i, cb in enumerate(callbacks):
        if not hasattr(cb, "_get_state"):
            continue
        state, arrays = {}, {}
        for key, value in cb._get_state().items():
            (arrays if _is_array_list(value) else state)[key] = value
        for key, value in arrays.items():
            write_arrays(h5file.create_group(f"callbacks/{i}/{key}"), value)
        entries.append({"index": i, "class": type(cb).__name__, "state": state,
                        "arrays": sorted(arrays)})
    return entries


def restore_callback_states(h5file, callbacks, entries):
    """Gives each saved state back to the callback of the same class and rank."""
    by_class = {}
    for cb in callbacks:
        if hasattr(cb, "_get_state"):
            by_class.setdefault(type(cb).__name__, []).append(cb)
    seen = {}
    for entry in entries:
        rank = seen[entry["class"]] = seen.get(entry["class"], -1) + 1
        candidates = by_class.get(entry["class"], [])
        if rank >= len(candidates):
            continue  # that callback is not part of this run
        state = dict(entry["state"])
        for key in entry["arrays"]:
            state[key] = read_arrays(h5file[f"callbacks/{entry['index']}/{key}"])
        candidates[rank]._set_state(state)


def dumps(state):
    return json.dumps(state, default=_plain)
