"""Convolution and pooling layers against real Keras 3 outputs for the same weights.

`keras_conv_fixtures.npz` was written by `keras_conv_fixtures.py` (run with
TensorFlow installed): Keras's `get_config()`, weights, input and output per
case. Each layer is rebuilt here from Keras's own config, so the test also
checks that hikeras reads Keras 3 layer configs. The initializer entries are
reset to their names first: they do not matter once Keras's weights are
loaded, and Keras 3.15 added `input_axes`/`output_axes` to the variance
scaling initializers' configs, which belongs to the initializers' own tests.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from hikeras import layers

FIXTURES = np.load(Path(__file__).with_name("keras_conv_fixtures.npz"))
CASES = sorted({key.split("/")[0] for key in FIXTURES.files if "/" in key})


def _config(name):
    config = json.loads(str(FIXTURES[f"{name}/config"]))
    for key, value in config["config"].items():
        if key.endswith("_initializer"):
            config["config"][key] = value["class_name"]
    return config


@pytest.mark.parametrize("name", CASES)
def test_matches_keras(name):
    layer = layers.deserialize(_config(name))
    x = FIXTURES[f"{name}/x"]
    layer(x)
    count = len(layer.weights)
    assert sorted(k for k in FIXTURES.files if k.startswith(f"{name}/w")) == \
        [f"{name}/w{i}" for i in range(count)]
    layer.set_weights([FIXTURES[f"{name}/w{i}"] for i in range(count)])
    np.testing.assert_allclose(layer(x), FIXTURES[f"{name}/y"], rtol=1e-4, atol=1e-5)


def test_fixtures_cover_the_tricky_cases():
    assert len(CASES) == 17 and str(FIXTURES["keras_version"]).startswith("3.")
