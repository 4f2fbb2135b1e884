"""Layers' stores: how every file format reaches a layer's state.

A format never looks inside a layer. It asks the layer for its state with
Keras 3's `save_own_variables(store)`, which fills a dict with arrays (or
variables) under string keys, and gives the state back with
`load_own_variables(store)`. Sublayers are walked through the public
`layer.layers`; each one saves and loads itself.

A `Slot` is one entry of one layer's store: the layer, the key, and the
value the layer stored (a variable, whose shape the loaders check before
anything is assigned, or a plain array, which is the layer's own to check).
Loading plans `(slot, SavedArray)` pairs; `load_stores` then hands each
layer a `LoadStore` over its saved arrays.
"""

import collections.abc

import numpy as np

from ..backend import Tensor, Variable
from ..layers.layer import Layer
from ..layers.lora import LoraMixin

_NUMERIC_KINDS = "biuf"


class Slot:
    """One entry of a layer's store: `layer`, `key` and the `value` it saved.

    `value` is None for an entry found only in a file: state that a layer
    with its own `load_own_variables` reads without having written it (a
    Keras `IndexLookup`'s `idf_weights`).
    """

    __slots__ = ("key", "layer", "twins", "value")

    def __init__(self, layer, key, value):
        self.layer = layer
        self.key = key
        self.value = value
        self.twins = []  # other slots holding the same variable (a borrowed kernel)

    @property
    def variable(self):
        """The variable this entry saves, or None for a plain array."""
        return self.value if isinstance(self.value, Variable) else None

    @property
    def path(self):
        """`dense/kernel` for a variable (its path); `<layer name>/<key>` otherwise."""
        variable = self.variable
        return variable.path if variable is not None else f"{self.layer.name}/{self.key}"

    @property
    def shape(self):
        return tuple(np.shape(self.array()))

    def array(self):
        """The saved value as a numpy array (a variable's own array, not a copy)."""
        return self.value.value if isinstance(self.value, Tensor) else self.value

    def __repr__(self):
        return f"<Slot {self.layer.name}[{self.key!r}]>"


def own_slots(layer):
    """The `Slot`s of what `layer.save_own_variables` writes, in the store's order."""
    store = {}
    layer.save_own_variables(store)
    return [Slot(layer, key, _checked_value(layer, key, value)) for key, value in store.items()]


def _checked_value(layer, key, value):
    where = f"Layer '{layer.name}' ({type(layer).__name__}).save_own_variables"
    if not isinstance(key, str) or not key or "/" in key or key in (".", ".."):
        raise ValueError(f"{where} must use non-empty string keys without '/' (they name "
                         f"datasets in the file). Received: key={key!r}")
    if isinstance(value, Tensor):
        array = value.value
    else:
        value = array = np.asarray(value)
    if array.dtype.kind not in _NUMERIC_KINDS or array.dtype.fields is not None:
        raise ValueError(f"{where} must store numeric arrays (bool, integer or float). "
                         f"Received: store[{key!r}] of dtype {array.dtype}")
    return value


def sublayers(layer):
    """Every layer nested in `layer` (not itself), depth first, each once."""
    seen, out = {id(layer)}, []

    def walk(parent):
        for child in parent.layers:
            if id(child) not in seen:
                seen.add(id(child))
                out.append(child)
                walk(child)

    walk(layer)
    return out


def legacy_slots(layer):
    """`layer`'s entry in Keras's legacy (Keras 2) weights layout, also used by sharded
    checkpoints: across the layer and its sublayers, the variables each created
    trainable, then the other variables, then plain arrays; each variable once.

    The order does not depend on `trainable` flags, so freezing a layer
    between saving and loading changes nothing. A variable that two layers
    store (a wrapper's borrowed kernel) is listed at its first place; the
    other slots become that slot's `twins`, loaded from the same array.
    """
    stores = []
    for owner in [layer, *sublayers(layer)]:
        trainable = {id(v) for v in owner.own_variables(trainable=True)}
        stores.append([(_legacy_group(slot, trainable), slot) for slot in own_slots(owner)])
    ordered, first = [], {}
    for group in range(3):
        for store in stores:
            for slot_group, slot in store:
                if slot_group != group:
                    continue
                variable = slot.variable
                if variable is not None and id(variable) in first:
                    first[id(variable)].twins.append(slot)
                    continue
                if variable is not None:
                    first[id(variable)] = slot
                ordered.append(slot)
    return ordered


def _legacy_group(slot, trainable):
    variable = slot.variable
    if variable is None:
        return 2
    return 0 if id(variable) in trainable else 1


def overrides_loading(layer):
    """Whether `layer` reads its state itself (overrides `load_own_variables`).

    Such a layer also receives entries of its store in a file that it did not
    write (Keras's own extras, such as a lookup layer's `idf_weights`). A
    layer that could use LoRA loads as a plain layer until LoRA is enabled.
    """
    loader = type(layer).load_own_variables
    if loader is LoraMixin.load_own_variables and not layer.lora_enabled:
        return False
    return loader is not Layer.load_own_variables


class LoadStore(collections.abc.Mapping):
    """What `load_own_variables` receives: a read-only mapping from keys to arrays.

    The arrays are read from the file when asked for; a contiguous dataset is
    memory-mapped, so assigning it to a variable copies the file's bytes
    straight into the variable's array.
    """

    def __init__(self, saved):
        self._saved = dict(saved)  # key -> SavedArray

    def __getitem__(self, key):
        return self._saved[key].array()

    def __contains__(self, key):  # without reading the array, as Mapping's would
        return key in self._saved

    def __iter__(self):
        return iter(self._saved)

    def __len__(self):
        return len(self._saved)

    def __repr__(self):
        return f"<LoadStore {list(self._saved)}>"


def load_stores(pairs, on_error):
    """Calls `load_own_variables` of every layer in `pairs` (`(Slot, SavedArray)`).

    A slot's twins load from the same array. Layers load in the order they
    first appear. `on_error(layer, exception)` returns the exception to
    raise when a layer fails to load.
    """
    stores = {}
    for slot, saved in pairs:
        for target in (slot, *slot.twins):
            stores.setdefault(id(target.layer), (target.layer, {}))[1][target.key] = saved
    for layer, saved in stores.values():
        try:
            layer.load_own_variables(LoadStore(saved))
        except Exception as e:  # noqa: BLE001 (a custom layer may raise anything)
            raise on_error(layer, e) from e
