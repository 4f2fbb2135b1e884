"""Access to the Keras-written scenario fixtures (tests/fixtures/keras_scenarios)."""

import json
import os

import numpy as np

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "keras_scenarios")
with open(os.path.join(FIXTURES, "expected.json")) as _f:
    EXPECTED = json.load(_f)
DATA = dict(np.load(os.path.join(FIXTURES, "data.npz")))
TARGETS = {"classifier": DATA["sparse"], "binary": DATA["binary"], "custom": DATA["price"],
           "multi": {"price": DATA["price"], "kind": DATA["sparse"]}}


def path(name, ext):
    return os.path.join(FIXTURES, f"{name}.{ext}")
