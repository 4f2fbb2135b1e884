"""Every exported layer, called on `Input`s with unknown dimensions, then on data.

The list of layers is generated from `hikeras.layers.__all__`; `symbolic_cases.CASES`
says how each is built and called, with `None` for the batch axis and for every time
or spatial axis the layer accepts at any length. For each layer:

1. the symbolic call gives output specs (the shapes and dtypes real Keras 3.15 gives
   for the same call, recorded in `keras_symbolic_shapes.json` by
   `keras_symbolic_shapes.py`), and a functional model is built from them;
2. the model runs on data of two different sizes for the unknown axes: every output
   has the symbolic rank and dtype, and each known symbolic dimension is the one the
   data gives (a `None` may stand for any length);
3. the same holds when the layer is called with `training=True` (every layer whose
   `call` takes it), and when it sits inside a `Sequential` block that is itself
   called on the `Input`s (augmentation pipelines are written that way).
"""

import inspect
import json
import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.utils import tree

from .symbolic_cases import CASES, NOT_CALLED

CONCRETE_SIZES = ((2, 5), (3, 7))  # (batch, every unknown time/spatial axis)
KERAS = json.loads((pathlib.Path(__file__).parent / "keras_symbolic_shapes.json").read_text())
# Where Keras has no answer: its base `Layer` cannot infer an output, and it has no OpLayer
# (hikeras's layer for an op written on graph tensors).
NO_KERAS_SPEC = {"Layer", "OpLayer"}


def _exported_classes():
    found = {}
    for name in layers.__all__:
        value = getattr(layers, name)
        if inspect.isclass(value) and issubclass(value, layers.Layer):
            found.setdefault(value.__name__, value)
    return found


EXPORTED = _exported_classes()


def test_every_exported_layer_has_a_symbolic_case():
    missing = sorted(set(EXPORTED) - set(CASES) - set(NOT_CALLED))
    assert not missing, (
        "layer classes exported by hikeras.layers without a case in "
        f"tests/layers/symbolic_cases.py: {missing}")
    unknown = sorted((set(CASES) | set(NOT_CALLED)) - set(EXPORTED))
    assert not unknown, f"cases for classes hikeras.layers does not export: {unknown}"


def _inputs(entry):
    return [hikeras.Input(shape, dtype=entry.dtype) for shape in entry.input_shapes]


def _data(entry, rng, batch, length):
    arrays = []
    for shape in entry.input_shapes:
        concrete = (batch,) + tuple(length if d is None else d for d in shape)
        if entry.data is not None:
            arrays.append(entry.data(rng, concrete))
        elif np.issubdtype(np.dtype(entry.dtype), np.integer):
            arrays.append(rng.integers(0, 5, size=concrete).astype(entry.dtype))
        else:
            arrays.append(rng.standard_normal(concrete).astype(entry.dtype))
    return arrays


def _check_against_data(name, symbolic, concrete):
    specs, values = tree.flatten(symbolic), tree.flatten(concrete)
    assert len(specs) == len(values), f"{name}: {len(specs)} specs, {len(values)} outputs"
    for spec, value in zip(specs, values):
        shape = np.shape(value)
        assert len(spec.shape) == len(shape), \
            f"{name}: symbolic shape {spec.shape}, data gives {shape}"
        for known, actual in zip(spec.shape, shape):
            assert known is None or known == actual, \
                f"{name}: symbolic shape {spec.shape}, data gives {shape}"
        assert np.dtype(spec.dtype) == np.asarray(value).dtype, \
            f"{name}: symbolic dtype {spec.dtype}, data gives {np.asarray(value).dtype}"


def _run(name, model, entry, rng):
    for batch, length in CONCRETE_SIZES:
        data = _data(entry, rng, batch, length)
        outputs = model(data if len(data) > 1 else data[0])
        _check_against_data(name, model.outputs, outputs)
        assert all(np.shape(o)[0] == batch for o in tree.flatten(outputs))


@pytest.mark.parametrize("name", sorted(CASES))
def test_symbolic_call_then_data(name, rng):
    entry = CASES[name]
    inputs = _inputs(entry)
    outputs = entry.call(entry.make(), inputs)
    flat = tree.flatten(outputs)
    if name in NO_KERAS_SPEC:
        assert "error" in KERAS["layers"][name]
        assert all(o.shape[0] is None for o in flat)
    else:
        keras = KERAS["layers"][name]
        assert [list(o.shape) for o in flat] == keras["shapes"], name
        assert [np.dtype(o.dtype).name for o in flat] == keras["dtypes"], name
    model = hikeras.Model(inputs, outputs)
    _run(name, model, entry, rng)


def _takes_training(name):
    return "training" in inspect.signature(EXPORTED[name].call).parameters


@pytest.mark.parametrize("name", sorted(n for n in CASES if _takes_training(n)))
def test_symbolic_call_in_training_mode(name, rng):
    # `layer(inputs, training=True)` on graph tensors: noise and augmentation layers are
    # traced in the mode that draws random numbers, for a batch of unknown size.
    entry = CASES[name]
    inputs = _inputs(entry)
    outputs = entry.call(entry.make(), inputs, training=True)
    if name not in NO_KERAS_SPEC:
        assert [list(o.shape) for o in tree.flatten(outputs)] == KERAS["layers"][name]["shapes"]
    _run(name, hikeras.Model(inputs, outputs), entry, rng)


@pytest.mark.parametrize("name", sorted(n for n in CASES if len(CASES[n].input_shapes) == 1))
def test_inside_a_sequential_block(name, rng):
    entry = CASES[name]
    block = hikeras.Sequential([entry.make()])
    inputs = _inputs(entry)
    outputs = block(inputs[0])
    model = hikeras.Model(inputs, outputs)
    _run(name, model, entry, rng)
