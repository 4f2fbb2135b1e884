"""Every `keras.ops.numpy` name of Keras 3.15 is in `hikeras.ops.numpy` and flat in
`hikeras.ops`, with Keras's argument names and defaults."""

import inspect

import pytest

from hikeras import ops
from tests.helpers.keras_names import keras_names, missing_names

NAMES = keras_names("keras.ops.numpy")


def test_every_keras_numpy_name_is_in_hikeras_ops_numpy():
    assert missing_names("keras.ops.numpy", ops.numpy, {}) == []


def test_every_keras_numpy_name_is_flat_in_hikeras_ops():
    assert sorted(n for n in NAMES if not hasattr(ops, n)) == []


def _parameters(signature):
    """`(name, default)` pairs of a signature string like "(x, axis=None)"."""
    return [(p.name, p.default) for p in inspect.signature(
        eval(f"lambda {signature[1:-1]}: None")).parameters.values()]


@pytest.mark.parametrize("name", sorted(NAMES))
def test_signature_matches_keras(name):
    ours = [(p.name, p.default) for p in inspect.signature(getattr(ops.numpy, name))
            .parameters.values()]
    assert ours == _parameters(NAMES[name]["signature"])
