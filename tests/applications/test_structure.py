"""Every architecture, layer for layer, against Keras 3 (fixtures from generate_fixtures.py).

No forward pass: the models are only built. Layer names, classes and order,
every weight's path and shape, and the parameter counts must be Keras's, which
is what loading Keras's published files by topology and by name needs.
"""

import gc

import pytest

from tests.applications.keras_fixtures import build, describe, structures

CASES = [(arch, label) for arch, cases in sorted(structures().items()) for label in cases]
# The 224x224 VGG tops hold 120M+ parameters: built once each, kept out of quick runs.
HEAVY = {("VGG16", "default"), ("VGG19", "default")}


def _params(cases):
    return [pytest.param(*case, marks=pytest.mark.slow) if case in HEAVY else case
            for case in cases]


@pytest.mark.parametrize("arch, label", _params(CASES))
def test_structure_matches_keras(arch, label):
    expected = structures()[arch][label]
    model = build(arch, expected["kwargs"])
    actual = describe(model)
    del model
    gc.collect()
    assert actual["name"] == expected["name"]
    assert actual["output_shape"] == expected["output_shape"]
    ours = [layer[0] for layer in actual["layers"]]
    theirs = [layer[0] for layer in expected["layers"]]
    assert ours == theirs
    for mine, keras in zip(actual["layers"], expected["layers"]):
        assert mine == keras
    assert actual["params"] == expected["params"]


def test_every_architecture_in_scope_is_covered():
    from hikeras import applications

    constructors = {name for name in applications.__all__ if name[0].isupper()}
    assert constructors == set(structures())
