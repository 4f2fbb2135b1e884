"""`hikeras.distillation` trains as Keras 3.15 does (`keras_distillation.json`).

The runs live in `distillation_scenarios.py`, shared with the generator
`keras_distillation.py`, which ran them on Keras 3.15.1 (TensorFlow): the
per-epoch logs of two epochs of `fit`, `evaluate`, `predict` and the
student's final weights.
"""

import inspect
import json
import pathlib

import numpy as np
import pytest

import hikeras
from tests.distillation.distillation_scenarios import SCENARIOS

RECORDED = json.loads((pathlib.Path(__file__).parent / "keras_distillation.json").read_text())


def test_names_and_signatures_match_keras():
    ours = {name: str(inspect.signature(getattr(hikeras.distillation, name)))
            for name in hikeras.distillation.__all__}
    assert ours == RECORDED["names"]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_training_matches_keras(name):
    ours, keras = SCENARIOS[name](hikeras), RECORDED[name]
    assert sorted(ours["history"]) == sorted(keras["history"])
    for key, values in keras["history"].items():
        np.testing.assert_allclose(ours["history"][key], values, rtol=1e-5, atol=1e-6,
                                   err_msg=key)
    assert sorted(ours["evaluate"]) == sorted(keras["evaluate"])
    for key, value in keras["evaluate"].items():
        np.testing.assert_allclose(ours["evaluate"][key], value, rtol=1e-5, atol=1e-6,
                                   err_msg=key)
    for ours_w, keras_w in zip(ours["student_weights"], keras["student_weights"], strict=True):
        np.testing.assert_allclose(ours_w, keras_w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ours["predict"], keras["predict"], rtol=1e-4, atol=1e-5)
