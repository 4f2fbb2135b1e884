"""The random state a model's layers own, read out and put back.

Layers draw their dropout masks, noise and augmentations from numpy
`Generator`s (`make_generator(seed)`) or from a `SeedGenerator`. Both kinds of
state travel with a model so that a reloaded model (from a `.keras`/`.h5`
model file, or `BackupAndRestore`'s backup) continues the same random stream
the original would have.

Keys combine the position in the layer tree, the layer's name and the
attribute (`"3/dropout/_rng"`), so the same architecture built again (from its
config) gives the same keys.
"""

import numpy as np

from .seed_generator import SeedGenerator


def _owned(model, kind):
    found = {}
    for i, layer in enumerate([model, *model._flatten_layers()]):
        for attr, value in sorted(vars(layer).items()):
            if isinstance(value, kind):
                found[f"{i}/{layer.name}/{attr}"] = value
    return found


def layer_generators(model):
    """`{key: numpy Generator}` owned by the model's layers (dropout masks, noise, ...)."""
    return _owned(model, np.random.Generator)


def layer_seed_generators(model):
    """`{key: SeedGenerator}` owned by the model's layers, keyed like `layer_generators`."""
    return _owned(model, SeedGenerator)


def layer_random_state(model):
    """The layers' generator states, JSON-compatible: `{"layers": ..., "seed_generators": ...}`."""
    return {
        "layers": {k: g.bit_generator.state for k, g in layer_generators(model).items()},
        "seed_generators": {k: g.state.value.tolist()
                            for k, g in layer_seed_generators(model).items()},
    }


def restore_layer_random_state(model, state):
    """Puts back the states `layer_random_state` gave, for the keys this model has.

    Raises `ValueError` (naming the key) for a state numpy or a `SeedGenerator`
    cannot take; the model's generators are only changed once all are valid.
    """
    if not isinstance(state.get("layers", {}), dict) or \
            not isinstance(state.get("seed_generators", {}), dict):
        raise ValueError("the random state must map keys to states")  # noqa: TRY004 (a bad file)
    updates = []
    saved = state.get("layers", {})
    for key, generator in layer_generators(model).items():
        if key in saved:
            probe = np.random.Generator(type(generator.bit_generator)())
            try:
                probe.bit_generator.state = saved[key]
            except (TypeError, ValueError, KeyError) as e:
                raise ValueError(f"the random state of '{key}' is invalid ({e})") from None
            updates.append((generator, probe.bit_generator.state))
    saved = state.get("seed_generators", {})
    seeds = []
    for key, seed_generator in layer_seed_generators(model).items():
        if key in saved:
            value = saved[key]
            if not (isinstance(value, list) and len(value) == 2 and all(
                    isinstance(v, int) and 0 <= v < 2**32 for v in value)):
                raise ValueError(f"the seed state of '{key}' must be two integers in "
                                 f"[0, 2**32). Received: {value!r:.80}")
            seeds.append((seed_generator, value))
    for generator, value in updates:
        generator.bit_generator.state = value
    for seed_generator, value in seeds:
        seed_generator.state.assign(np.asarray(value, np.uint32))
