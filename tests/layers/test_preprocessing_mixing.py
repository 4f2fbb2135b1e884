"""RandomColorDegeneration (against Keras), MixUp and CutMix (mixing proportions)."""

import json
import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["color_degeneration"]


@pytest.mark.parametrize("layer_cls, kwargs", [
    (layers.RandomColorDegeneration, {"factor": 0.5, "seed": 1}),
    (layers.MixUp, {"seed": 1}),
    (layers.CutMix, {"seed": 1}),
])
def test_harness(layer_cls, kwargs):
    run_layer_test(layer_cls, kwargs, input_shape=(2, 4, 5, 3), expected_output_shape=(2, 4, 5, 3),
                   expected_num_trainable_weights=0)


def test_color_degeneration_matches_keras():
    images = np.array(FIXTURE["images"], "float32")
    out = layers.RandomColorDegeneration((0.6, 0.6))(images)
    np.testing.assert_allclose(out, FIXTURE["factor_0.6"], rtol=1e-5, atol=1e-3)
    np.testing.assert_array_equal(layers.RandomColorDegeneration(0.9)(images, training=False),
                                  images)


def test_color_degeneration_bad_factor():
    with pytest.raises(ValueError, match=r"Received: factor=1.5"):
        layers.RandomColorDegeneration(1.5)


def constant_images(batch, size=6, channels_first=False):
    """Image i is filled with the value i, so a pixel tells which image it came from."""
    shape = (1, size, size) if channels_first else (size, size, 1)
    return np.stack([np.full(shape, float(i)) for i in range(batch)]).astype("float32")


@pytest.mark.parametrize("layer_cls, kwargs", [(layers.MixUp, {"alpha": 1.0}),
                                                (layers.CutMix, {"factor": 1.0})])
@pytest.mark.parametrize("channels_first", [False, True])
def test_images_and_labels_mix_in_the_same_proportions(layer_cls, kwargs, channels_first):
    batch = 8
    data_format = "channels_first" if channels_first else "channels_last"
    layer = layer_cls(seed=3, data_format=data_format, **kwargs)
    mixed_any = False
    for _ in range(5):
        out = layer({"images": constant_images(batch, channels_first=channels_first),
                     "labels": np.eye(batch)})
        labels = np.asarray(out["labels"])
        np.testing.assert_allclose(labels.sum(axis=1), 1.0, rtol=1e-6)
        # Each image's mean value is its label-weighted image index.
        means = np.asarray(out["images"]).reshape(batch, -1).mean(axis=1)
        np.testing.assert_allclose(means, labels @ np.arange(batch), rtol=1e-5, atol=1e-5)
        mixed_any |= not np.allclose(labels, np.eye(batch))
    assert mixed_any


def test_cutmix_pastes_a_box():
    out = np.asarray(layers.CutMix(seed=5)(constant_images(4, size=8)))[..., 0]
    for i, image in enumerate(out):
        foreign = image != i
        if foreign.any():
            rows, cols = np.nonzero(foreign)
            box = foreign[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
            assert box.all()  # one rectangle


def test_mixing_layers_leave_inference_and_single_images_alone():
    images = constant_images(4)
    for layer in (layers.MixUp(seed=1), layers.CutMix(seed=1)):
        np.testing.assert_array_equal(layer(images, training=False), images)
        np.testing.assert_array_equal(layer(images[0]), images[0])


def test_mixing_in_a_model_and_bad_arguments():
    model = hikeras.Sequential([hikeras.Input((6, 6, 1)), layers.MixUp(), layers.Flatten(),
                                layers.Dense(2)])
    assert model.predict(constant_images(4), verbose=0).shape == (4, 2)
    with pytest.raises(ValueError, match="Received: alpha=0"):
        layers.MixUp(alpha=0)
    with pytest.raises(ValueError, match="Received: factor=-1"):
        layers.CutMix(factor=-1)
