"""Reading the fixtures that generate_fixtures.py recorded with real Keras."""

import functools
import gzip
import json
from pathlib import Path

import numpy as np

from hikeras import applications

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@functools.lru_cache(maxsize=None)
def structures():
    with gzip.open(FIXTURES / "keras_structures.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def numerics():
    with open(FIXTURES / "keras_numerics.json", encoding="utf-8") as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def outputs():
    with np.load(FIXTURES / "keras_outputs.npz", allow_pickle=False) as data:
        return {key: data[key] for key in data.files}


def constructor_kwargs(kwargs):
    """JSON kwargs as the constructor takes them (shapes as tuples)."""
    return {key: tuple(value) if isinstance(value, list) else value
            for key, value in kwargs.items()}


def build(arch, kwargs, **extra):
    return getattr(applications, arch)(weights=None, **constructor_kwargs(kwargs), **extra)


def describe(model):
    """The hikeras model in generate_fixtures.describe's form (op layers left out, as Keras 3)."""
    layers = []
    for layer in model.layers:
        if type(layer).__name__ == "OpLayer":  # Keras 3 records tensor arithmetic as ops
            continue
        weights = [[w.path, list(w.shape)] for w in layer.weights]
        layers.append([layer.name, type(layer).__name__, weights, int(layer.count_params())])
    trainable = int(sum(np.prod(w.shape) for w in model.trainable_weights))
    total = int(model.count_params())
    return {"name": model.name, "output_shape": list(model.outputs[0].shape),
            "params": [total, trainable, total - trainable], "layers": layers}
