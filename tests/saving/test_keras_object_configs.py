"""Every built-in object Keras 3.15 serialises, rebuilt by hikeras from Keras's own dict.

`tests/fixtures/keras_objects/configs.json` is written by its `generate.py`
with real Keras: one default-constructed instance per public class. These
dicts are what `.keras` archives and compile configs carry, including the
keys newer Keras releases add.
"""

import json
from pathlib import Path

import pytest

from hikeras import constraints, initializers, losses, metrics, optimizers, regularizers
from hikeras.optimizers import schedules
from hikeras.serialization.config_dialect import normalize_config

FIXTURE = json.loads((Path(__file__).parents[1] / "fixtures" / "keras_objects"
                      / "configs.json").read_text())
FAMILIES = {"optimizers": optimizers, "schedules": schedules, "losses": losses,
            "metrics": metrics, "initializers": initializers, "regularizers": regularizers,
            "constraints": constraints}
# Keras classes hikeras does not implement; anything else Keras has must load.
NOT_IMPLEMENTED = {
    "losses": {"Circle"},
}
CASES = [(family, name) for family in FAMILIES for name in FIXTURE[family]
         if name not in NOT_IMPLEMENTED.get(family, ())]


@pytest.mark.parametrize("family, name", CASES)
def test_keras_config_rebuilds_the_same_object(family, name):
    keras_entry = FIXTURE[family][name]
    obj = FAMILIES[family].deserialize(keras_entry)
    assert type(obj).__name__ == name
    expected = normalize_config(keras_entry)["config"]
    ours = obj.get_config()
    differing = {key: (ours[key], value) for key, value in expected.items()
                 if key in ours and not _same(ours[key], value)}
    assert not differing


def _same(ours, keras_value):
    """Equal, floats to float32 precision: Keras reads hyperparameters back from
    float32 variables (a learning rate of 0.001 comes out as 0.0010000000474974513)."""
    if isinstance(keras_value, float) and isinstance(ours, (int, float)):
        return ours == pytest.approx(keras_value, rel=1e-6)
    return ours == keras_value


def test_the_fixture_is_from_keras_3_and_covers_every_family():
    assert FIXTURE["keras_version"].startswith("3.")
    assert all(len(FIXTURE[family]) >= 4 for family in FAMILIES)
    assert len(CASES) >= 90
