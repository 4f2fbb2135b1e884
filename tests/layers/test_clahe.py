"""ContrastLimitedAdaptiveHistogramEqualization against Keras's outputs
(fixtures/keras_augment), plus inference, models, pipelines and errors."""

import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

FIXTURE = np.load(pathlib.Path(__file__).parents[1] / "fixtures" / "keras_augment"
                  / "augment.npz")
CLAHE = layers.ContrastLimitedAdaptiveHistogramEqualization

CASES = {
    "clahe_default": {},
    "clahe_smooth_default": {},
    "clahe_tiles_2x3": {"tile_grid_size": (2, 3)},
    "clahe_smooth_tiles_3x2_clip_1": {"tile_grid_size": (3, 2), "clip_limit": 1.0},
    "clahe_tiles_4x4_clip_0": {"tile_grid_size": (4, 4), "clip_limit": 0.0},
    "clahe_tiles_1x1_clip_40": {"tile_grid_size": (1, 1), "clip_limit": 40.0},
    "clahe_exact_tiles": {"tile_grid_size": (4, 2)},
    "clahe_range_0_1": {"value_range": (0, 1), "tile_grid_size": (2, 2)},
    "clahe_range_neg": {"value_range": (-1, 1), "tile_grid_size": (3, 3)},
    "clahe_channels_first": {"data_format": "channels_first", "tile_grid_size": (2, 3)},
    "clahe_unbatched": {"tile_grid_size": (2, 2)},
    "clahe_int32": {"tile_grid_size": (2, 2)},
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_matches_keras(key):
    images, expected = FIXTURE[key + "__input"], FIXTURE[key]
    out = np.asarray(CLAHE(**CASES[key])(images))
    assert out.dtype == expected.dtype and out.shape == expected.shape
    np.testing.assert_allclose(out, expected, atol=1e-4)


def test_applies_in_inference_and_inside_a_model():
    images = FIXTURE["clahe_default__input"]
    expected = FIXTURE["clahe_default"]
    np.testing.assert_allclose(CLAHE()(images, training=False), expected, atol=1e-3)
    inputs = hikeras.Input((None, None, 3))
    model = hikeras.Model(inputs, CLAHE()(inputs))
    np.testing.assert_allclose(model.predict(images, verbose=0), expected, atol=1e-3)


def test_in_a_data_pipeline():
    images = FIXTURE["clahe_default__input"]
    dataset = hikeras.data.Dataset.from_tensor_slices(images).batch(2).map(
        CLAHE(tile_grid_size=(2, 2)))
    (batch,) = list(dataset)
    np.testing.assert_allclose(batch, CLAHE(tile_grid_size=(2, 2))(images), atol=1e-6)


def test_flat_image_stays_flat_and_output_spans_the_range():
    flat = np.full((1, 8, 8, 1), 90.0, "float32")
    out = np.asarray(CLAHE(tile_grid_size=(2, 2))(flat))
    assert np.ptp(out) == 0
    # Without a clip limit, one tile is plain histogram equalisation: its levels spread to 255.
    ramp = np.arange(64, dtype="float32").reshape(1, 8, 8, 1)
    out = np.asarray(CLAHE(clip_limit=0, tile_grid_size=(1, 1))(ramp))
    assert out.min() == 0.0 and out.max() == 255.0
    assert np.all(np.diff(out.ravel()) > 0)  # a monotone mapping of distinct levels


def test_harness_and_config():
    run_layer_test(CLAHE, {"clip_limit": 2.0, "tile_grid_size": (2, 2)},
                   input_shape=(2, 6, 7, 3), expected_output_shape=(2, 6, 7, 3),
                   expected_num_trainable_weights=0, check_gradients=False)
    config = CLAHE(value_range=(0, 1), clip_limit=3.0, tile_grid_size=(2, 4)).get_config()
    assert {k: config[k] for k in ("value_range", "clip_limit", "tile_grid_size")} == {
        "value_range": (0, 1), "clip_limit": 3.0, "tile_grid_size": (2, 4)}


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"Received: tile_grid_size=\(0, 2\)"):
        CLAHE(tile_grid_size=(0, 2))
    with pytest.raises(ValueError, match="Received: tile_grid_size=8"):
        CLAHE(tile_grid_size=8)
    with pytest.raises(TypeError, match="Received: clip_limit='high'"):
        CLAHE(clip_limit="high")
    with pytest.raises(ValueError, match="Received: value_range=1"):
        CLAHE(value_range=1)
    with pytest.raises(ValueError, match=r"Received: input_shape=\(4, 4\)"):
        CLAHE()(np.zeros((4, 4), "float32"))
