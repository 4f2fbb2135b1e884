"""Every optimizer and option against 5-step trajectories written by real Keras 3.

Each case starts two float32 variables from the same values, applies the
same five gradients, and compares the variables after every step (and, for
`use_ema`, after `finalize_variable_values`). See
`tests/fixtures/keras_training/generate.py` for the cases.
"""

import numpy as np
import pytest

from hikeras import optimizers
from hikeras.backend import Variable
from tests.fixtures.keras_training import f32, golden

CASES = golden()["optimizers"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_trajectory_matches_keras(name):
    entry = CASES[name]
    optimizer = optimizers.deserialize({"class_name": entry["class_name"],
                                        "config": entry["config"]})
    variables = [Variable(f32(w), name=f"w{i}", path=f"dense/w{i}")
                 for i, w in enumerate(entry["init"])]
    for step, (grads, expected) in enumerate(zip(entry["grads"], entry["trajectory"])):
        optimizer.apply_gradients(zip([f32(g) for g in grads], variables))
        for variable, want in zip(variables, expected):
            assert variable.value.dtype == np.float32
            np.testing.assert_allclose(variable.value, want, rtol=1e-5, atol=1e-6,
                                       err_msg=f"{name}, step {step + 1}")
    assert int(optimizer.iterations) == entry["iterations"]
    if "finalized" in entry:
        optimizer.finalize_variable_values(variables)
        for variable, want in zip(variables, entry["finalized"]):
            np.testing.assert_allclose(variable.value, want, rtol=1e-5, atol=1e-6)
