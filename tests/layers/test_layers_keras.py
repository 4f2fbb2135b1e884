"""Layers against real Keras 3 outputs for the same weights and inputs.

`keras_layer_fixtures.npz` was written by `keras_layer_fixtures.py` (run with
TensorFlow installed): per case, Keras's `get_config()`, the call's keyword
arguments, the weights before and after the call, the inputs and Keras's
outputs (and output mask, where the layer makes one). Each layer is rebuilt
here from Keras's own config, so the test also checks that hikeras reads
Keras 3 layer configs, nested ones included (`Bidirectional`,
`TimeDistributed`). The initializer entries are reset to their names first:
they do not matter once Keras's weights are loaded, and Keras 3.15 added
`input_axes`/`output_axes` to the variance scaling initializers' configs,
which belongs to the initializers' own tests.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from hikeras import layers
from tests.layers.keras_layer_fixtures import CASES as GENERATED

FIXTURES = np.load(Path(__file__).with_name("keras_layer_fixtures.npz"))
CASES = sorted({key.split("/")[0] for key in FIXTURES.files if "/" in key})


def _without_initializers(config):
    for key, value in config.items():
        if key.endswith("_initializer"):
            config[key] = value["class_name"]
        elif isinstance(value, dict) and "config" in value:  # a wrapped layer
            _without_initializers(value["config"])
    return config


def _arrays(name, group):
    values = []
    while f"{name}/{group}{len(values)}" in FIXTURES.files:
        values.append(FIXTURES[f"{name}/{group}{len(values)}"])
    return values


def _call(layer, name):
    xs = _arrays(name, "x")
    kwargs = json.loads(str(FIXTURES[f"{name}/call"]))
    if "mask" in kwargs:
        kwargs["mask"] = np.array(kwargs["mask"])
    states = _arrays(name, "state")
    if states:
        kwargs["initial_state"] = states
    if bool(FIXTURES[f"{name}/args"]):
        return layer(*xs, **kwargs)
    return layer(xs if bool(FIXTURES[f"{name}/list"]) else xs[0], **kwargs)


def _built(name):
    config = json.loads(str(FIXTURES[f"{name}/config"]))
    _without_initializers(config["config"])
    layer = layers.deserialize(config)
    inference = {key: value for key, value in json.loads(str(FIXTURES[f"{name}/call"])).items()
                 if key != "training"}
    xs = _arrays(name, "x")
    if bool(FIXTURES[f"{name}/args"]):
        layer(*xs, **{k: v for k, v in inference.items() if k != "mask"})
    else:
        layer(xs if bool(FIXTURES[f"{name}/list"]) else xs[0])
    weights = _arrays(name, "w")
    assert [tuple(w.shape) for w in layer.get_weights()] == [w.shape for w in weights]
    layer.set_weights(weights)
    return layer


@pytest.mark.parametrize("name", CASES)
def test_outputs_match_keras(name):
    layer = _built(name)
    outputs = _call(layer, name)
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    expected = _arrays(name, "y")
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        if want.dtype.kind == "U":  # StringLookup(invert=True)
            np.testing.assert_array_equal(np.asarray(got), want)
        else:
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", CASES)
def test_weights_after_the_call_match_keras(name):
    """Only training-mode batch normalisation changes weights (its moving statistics)."""
    layer = _built(name)
    _call(layer, name)
    for got, want in zip(layer.get_weights(), _arrays(name, "after"), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", [n for n in CASES if f"{n}/mask_out" in FIXTURES.files])
def test_output_masks_match_keras(name):
    layer = _built(name)
    mask = json.loads(str(FIXTURES[f"{name}/call"])).get("mask")
    got = layer.compute_mask(FIXTURES[f"{name}/x0"], None if mask is None else np.array(mask))
    np.testing.assert_array_equal(np.asarray(got), FIXTURES[f"{name}/mask_out"])


def test_fixtures_cover_every_layer_family():
    classes = {json.loads(str(FIXTURES[f"{n}/config"]))["class_name"] for n in CASES}
    assert {"Conv2DTranspose", "MaxPooling3D", "LSTM", "GRU", "SimpleRNN", "Bidirectional",
            "BatchNormalization", "GroupNormalization", "Embedding", "Dot", "UpSampling2D",
            "PReLU", "MultiHeadAttention", "AdditiveAttention", "Normalization",
            "RMSNormalization", "UpSampling3D", "ZeroPadding3D", "Cropping3D",
            "SpatialDropout2D", "AlphaDropout", "ActivityRegularization", "Resizing",
            "CenterCrop", "RandomFlip", "RandomCrop", "RandomBrightness",
            "RandomContrast", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D", "RandomRotation",
            "RandomTranslation", "RandomZoom", "TextVectorization", "RandomGrayscale",
            "RandomInvert", "Solarization", "RandomPosterization", "AutoContrast",
            "RandomSaturation", "RandomHue", "AdaptiveAveragePooling1D",
            "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D", "AdaptiveMaxPooling1D",
            "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D", "SpectralNormalization",
            "ReversibleEmbedding"} <= classes
    assert str(FIXTURES["keras_version"]).startswith("3.")


def test_fixture_file_holds_every_case_of_its_generator():
    """A case added to `keras_layer_fixtures.py` needs the file regenerated."""
    assert CASES == sorted(spec["name"] for spec in GENERATED)
