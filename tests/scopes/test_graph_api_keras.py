"""Keras 3's graph API in hikeras gives real Keras's answers (`keras_graph_api.json`).

The scenarios live in `graph_api_scenarios.py`, shared with the generator
`keras_graph_api.py`, which ran them on Keras 3.15.1 (TensorFlow).
"""

import json
import pathlib

import numpy as np
import pytest

import hikeras
from tests.scopes.graph_api_scenarios import SCENARIOS

RECORDED = json.loads((pathlib.Path(__file__).parent / "keras_graph_api.json").read_text())


def assert_matches(ours, keras, where=""):
    if isinstance(keras, dict):
        assert sorted(ours) == sorted(keras), where
        for key in keras:
            assert_matches(ours[key], keras[key], f"{where}/{key}")
    elif isinstance(keras, list) and keras and isinstance(keras[0], (list, dict, str)):
        assert len(ours) == len(keras), where
        for i, (a, b) in enumerate(zip(ours, keras)):
            assert_matches(a, b, f"{where}[{i}]")
    elif isinstance(keras, (list, float)) and not isinstance(keras, bool):
        np.testing.assert_allclose(np.asarray(ours, "float64"), np.asarray(keras, "float64"),
                                   rtol=1e-5, atol=1e-5, err_msg=where)
    else:
        assert ours == keras, where


def test_every_scenario_was_recorded():
    assert set(SCENARIOS) <= set(RECORDED)
    assert RECORDED["keras_version"].startswith("3.15")


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_keras(name):
    assert_matches(SCENARIOS[name](hikeras), RECORDED[name], name)
