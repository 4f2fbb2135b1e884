"""The layers' random state in model files, where Keras's loaders never look.

`model.save` (`.h5`, and the `model.weights.h5` inside a `.keras`) writes a
root group `hikeras_random_state` whose attribute `state` is the JSON of
`hikeras.random.layer_state.layer_random_state`: every layer's numpy
generator (dropout, noise, augmentation) and `SeedGenerator`. `load_model`
puts it back after the weights, so the reloaded model draws the same masks
the original would have drawn next.

Keras 3.15 saves no seed state (a `Dropout(seed=1)` layer's group is empty),
and a layer's group holding it would fail Keras's variable count check; its
loaders open only the groups they know (`model_weights`, `optimizer_weights`,
`layers`, `vars`, `optimizer`), so a separate group keeps the files loadable
by Keras (tests/fixtures/make_keras_fixtures.py checks it). A file without
the group (Keras's) loads with fresh generators, as before.
"""

import json

import h5py

from ..random.layer_state import layer_random_state, restore_layer_random_state
from .file_errors import file_error
from .h5_attributes import parse_json, read_string

GROUP = "hikeras_random_state"


def write_random_state(h5file, model):
    """Adds the model's layer random state to an open HDF5 file (if it has any)."""
    state = layer_random_state(model)
    if state["layers"] or state["seed_generators"]:
        h5file.create_group(GROUP).attrs["state"] = json.dumps(state)


def read_random_state(h5file, model, source):
    """Restores the layer random state the file holds; a file without one changes nothing."""
    group = h5file.get(GROUP)
    if group is None:
        return
    if not isinstance(group, h5py.Group):
        raise file_error(source, f"has a '{GROUP}' that is not a group")
    text = read_string(group.attrs, "state", source)
    if text is None:
        raise file_error(source, f"has a '{GROUP}' group without its 'state' attribute")
    state = parse_json(text, source, f"a '{GROUP}' state")
    try:
        restore_layer_random_state(model, state)
    except (ValueError, AttributeError) as e:
        raise file_error(source, f"has an unusable '{GROUP}': {e}") from None
