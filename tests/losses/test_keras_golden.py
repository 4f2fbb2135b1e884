"""Every loss against values written by real Keras 3 for the same inputs.

The inputs include predictions of exactly 0 and 1, a zero target under MAPE,
a zero sample weight, an ignored class and Dice/Tversky's batch-wide
`axis=None` value; see
`tests/fixtures/keras_training/generate.py`.
"""

import numpy as np
import pytest

from hikeras import losses
from tests.fixtures.keras_training import f32, golden

CASES = golden()["losses"]


def _labels(entry):
    if entry["class_name"] in ("SparseCategoricalCrossentropy",
                               "CategoricalGeneralizedCrossEntropy"):
        return np.asarray(entry["y_true"], dtype="int64")
    return f32(entry["y_true"])


def _check(actual, expected):
    np.testing.assert_allclose(np.asarray(actual, dtype="float64"), expected,
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_matches_keras(name):
    entry = CASES[name]
    cls = getattr(losses, entry["class_name"])
    y_true, y_pred = _labels(entry), f32(entry["y_pred"])
    _check(cls(**entry["config"])(y_true, y_pred), entry["value"])
    _check(cls(reduction="sum", **entry["config"])(y_true, y_pred), entry["value_sum"])
    _check(cls(reduction=None, **entry["config"])(y_true, y_pred), entry["value_none"])
    if "value_weighted" in entry:
        weight = f32(entry["sample_weight"])
        _check(cls(**entry["config"])(y_true, y_pred, weight), entry["value_weighted"])
        _check(cls(reduction="sum", **entry["config"])(y_true, y_pred, weight),
               entry["value_weighted_sum"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_function_matches_keras_per_sample(name):
    """The snake_case function gives the unreduced values too (the `"none"` reduction)."""
    entry = CASES[name]
    cls = getattr(losses, entry["class_name"])
    loss = cls(**entry["config"])
    values = loss.fn(_labels(entry), f32(entry["y_pred"]), **loss._fn_kwargs)
    _check(values, entry["value_none"])
