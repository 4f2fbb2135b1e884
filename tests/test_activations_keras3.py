"""The activations Keras 3 added: values against Keras itself, gradients, bad input."""

import json
import pathlib

import numpy as np
import pytest

from hikeras import activations, layers
from hikeras.testing import check_gradients

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "keras_surface"
                      / "surface.json").read_text())
X = np.array(FIXTURE["x"])


@pytest.mark.parametrize("label", sorted(FIXTURE["activations"]))
def test_values_match_keras(label):
    case = FIXTURE["activations"][label]
    fn = getattr(activations, case["name"])
    np.testing.assert_allclose(np.asarray(fn(X, **case["kwargs"])), case["value"],
                               rtol=1e-6, atol=1e-7)
    assert activations.get(case["name"]) is fn
    assert activations.serialize(fn) == case["name"]


@pytest.mark.parametrize("name", ["celu", "glu", "log_sigmoid", "squareplus", "tanh_shrink",
                                  "sparsemax", "sparse_plus", "soft_shrink", "hard_shrink",
                                  "hard_tanh", "sparse_sigmoid", "threshold"])
def test_gradients(name, rng):
    # Away from the kinks at +-0.5 and +-1 (and the threshold), where differences disagree.
    x = rng.uniform(0.6, 0.9, (3, 6)) * rng.choice([-1.0, 1.0], (3, 6))
    x[0, :3] = rng.uniform(1.2, 1.6, 3)
    kwargs = {"threshold": {"threshold": 0.0, "default_value": -2.0}}.get(name, {})
    fn = getattr(activations, name)
    check_gradients(lambda t: fn(t, **kwargs), [x])


def test_sparsemax_is_a_distribution_along_any_axis(rng):
    x = rng.standard_normal((4, 5, 3))
    for axis in (-1, 1, 0):
        p = np.asarray(activations.sparsemax(x, axis=axis))
        np.testing.assert_allclose(p.sum(axis=axis), 1.0, rtol=1e-12)
        assert (p >= 0).all()
    np.testing.assert_allclose(np.asarray(activations.sparsemax(x, axis=1)),
                               np.swapaxes(np.asarray(activations.sparsemax(
                                   np.swapaxes(x, 1, 2))), 1, 2), rtol=1e-12)


def test_usable_by_name_in_a_layer():
    out = layers.Dense(2, activation="hard_tanh", kernel_initializer="ones")(np.full((1, 3), 2.0))
    np.testing.assert_array_equal(np.asarray(out), [[1.0, 1.0]])


def test_glu_rejects_an_odd_axis():
    with pytest.raises(ValueError, match=r"glu.*Received: x.shape=\(2, 3\), axis=-1"):
        activations.glu(np.ones((2, 3)))
