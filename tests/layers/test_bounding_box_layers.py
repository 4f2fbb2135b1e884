"""Bounding boxes through the image layers, against Keras 3.15 and by hand.

Keras's results are in `tests/fixtures/keras_bounding_boxes/layer_cases.npz`
(generator `generate_layers.py` beside it). Where Keras's box arithmetic
disagrees with its own image transform, the tests say so and check the
geometry against the images instead.
"""

import importlib.util
import pathlib

import numpy as np
import pytest

from hikeras import layers
from hikeras.layers.preprocessing.image.base_image_layer import _RandomImageLayer
from hikeras.utils import bounding_boxes as bb
from tests.helpers.layer_test import run_layer_test

HERE = pathlib.Path(__file__).parent.parent / "fixtures" / "keras_bounding_boxes"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_layers", HERE / "generate_layers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
SHAPE, BOXES, LABELS = GEN.inputs()
with np.load(HERE / "layer_cases.npz") as _data:
    KERAS = {key: _data[key] for key in _data.files}


def _check(result, name, atol=1e-3):
    np.testing.assert_allclose(result["boxes"], KERAS[f"{name}/boxes"], atol=atol, err_msg=name)
    np.testing.assert_array_equal(result["labels"], KERAS[f"{name}/labels"], err_msg=name)


@pytest.mark.parametrize("name", sorted(GEN.CALLED))
def test_layer_calls_match_keras(name):
    cls, kwargs, fmt = GEN.CALLED[name]
    layer = getattr(layers, cls)(**kwargs, bounding_box_format=fmt)
    boxes = bb.convert_format(BOXES, "xyxy", fmt, *SHAPE[1:3])
    out = layer({"images": np.zeros(SHAPE, "float32"),
                 "bounding_boxes": {"boxes": boxes, "labels": LABELS},
                 "segmentation_masks": GEN.masks()}, training=True)
    assert out["images"].shape[0] == SHAPE[0]
    _check(out["bounding_boxes"], name)
    np.testing.assert_array_equal(out["segmentation_masks"], KERAS[f"{name}/masks"])


@pytest.mark.parametrize("name", sorted(GEN.GIVEN))
def test_given_transformations_match_keras(name):
    cls, kwargs, given = GEN.GIVEN[name]
    layer = getattr(layers, cls)(**kwargs, bounding_box_format="xyxy")
    size = (GEN.WIDTH, GEN.WIDTH)
    if "flips" in given:
        transformation = {"flips": np.array(given["flips"]), "input_size": size}
    elif "apply_perspective" in given:
        transformation = {"apply_perspective": np.array(given["apply_perspective"]),
                          "start_points": np.array(given["start_points"], "float32"),
                          "end_points": np.array(given["end_points"], "float32"),
                          "input_shape": (2, *size, 3)}
    else:
        transformation = {"transforms": layers.RandomShear._shear_matrix(
            np.array(given["shear"])), "input_size": size}
    _check(layer.transform_bounding_boxes({"boxes": BOXES, "labels": LABELS}, transformation),
           name)


def _blob_image(box, shape=(1, 24, 32, 1)):
    """An image that is 1 inside the xyxy `box` (whole pixels) and 0 elsewhere."""
    image = np.zeros(shape, "float32")
    x1, y1, x2, y2 = box
    image[0, y1:y2, x1:x2] = 1
    return image


def _extent(image):
    """The xyxy box around the pixels above one half."""
    rows, cols = np.nonzero(image[0, :, :, 0] > 0.5)
    return [cols.min(), rows.min(), cols.max() + 1, rows.max() + 1]


@pytest.mark.parametrize("make", [
    lambda: layers.Resizing(16, 16, crop_to_aspect_ratio=True, bounding_box_format="xyxy",
                            interpolation="nearest"),
    lambda: layers.CenterCrop(30, 30, bounding_box_format="xyxy"),
    lambda: layers.RandomCrop(12, 20, seed=3, bounding_box_format="xyxy"),
    lambda: layers.RandomFlip(seed=5, bounding_box_format="xyxy"),
    lambda: layers.RandomTranslation((0.25, 0.25), (-0.125, -0.125), interpolation="nearest",
                                     fill_mode="constant", bounding_box_format="xyxy"),
    lambda: layers.RandomPerspective(factor=(1, 1), scale=0.6, seed=4, interpolation="nearest",
                                     bounding_box_format="xyxy"),
])
def test_boxes_follow_the_pixels(make):
    # Keras's crop_to_aspect_ratio boxes are offset from its own image crop (it floors the
    # offset after scaling), so the geometry is checked here against the pixels.
    box = [8, 4, 20, 12]
    out = make()({"images": _blob_image(box),
                  "bounding_boxes": {"boxes": np.array([[box]], "float32"),
                                     "labels": np.array([[1]])}}, training=True)
    np.testing.assert_allclose(out["bounding_boxes"]["boxes"][0, 0], _extent(out["images"]),
                               atol=1.0)


def test_integer_masks_keep_their_dtype_and_follow_the_image():
    masks = GEN.masks().astype("int32")
    layer = layers.RandomRotation((0.25, 0.25), interpolation="nearest", fill_mode="constant")
    out = layer({"images": masks.astype("float32"), "segmentation_masks": masks})
    assert out["segmentation_masks"].dtype == np.int32
    np.testing.assert_array_equal(out["segmentation_masks"], out["images"])
    for layer in (layers.RandomBrightness(0.2), layers.Equalization(), layers.AutoContrast(),
                  layers.RandomColorJitter(contrast_factor=0.5)):
        kept = layer({"images": masks * 50.0, "segmentation_masks": masks})
        np.testing.assert_array_equal(kept["segmentation_masks"], masks)
    for layer in (layers.Equalization(), layers.AutoContrast()):  # not random
        np.testing.assert_array_equal(layer({"images": masks * 50.0})["images"],
                                      layer(masks * 50.0))


def test_single_images_and_other_formats():
    layer = layers.Resizing(12, 16, bounding_box_format="rel_yxyx")
    boxes = bb.convert_format(BOXES[0], "xyxy", "rel_yxyx", *SHAPE[1:3])
    out = layer({"images": np.zeros(SHAPE[1:], "float32"),
                 "bounding_boxes": {"boxes": boxes, "labels": LABELS[0]}})
    assert out["images"].shape == (12, 16, 3)
    np.testing.assert_allclose(out["bounding_boxes"]["boxes"], boxes, atol=1e-6)  # relative
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"], LABELS[0])


def test_inference_leaves_random_layers_boxes_alone():
    data = {"images": np.zeros(SHAPE, "float32"),
            "bounding_boxes": {"boxes": BOXES, "labels": LABELS}}
    out = layers.RandomRotation(0.3, bounding_box_format="xyxy")(data, training=False)
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"], BOXES)


class _Warp(_RandomImageLayer):
    """A made-up layer that would move pixels without saying how boxes follow."""

    def _augment(self, images):
        return images


def test_value_layers_keep_boxes_and_pipelines_pass_dicts():
    images = np.full(SHAPE, 100.0, "float32")
    data = {"images": images, "bounding_boxes": {"boxes": BOXES, "labels": LABELS},
            "labels": np.array([0, 1])}
    out = layers.RandomBrightness((0.5, 0.5), bounding_box_format="xyxy")(data)
    np.testing.assert_allclose(out["images"], 100.0 + 0.5 * 255)
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"], BOXES)
    pipeline = layers.Pipeline([
        layers.RandomTranslation(0, (0.25, 0.25), bounding_box_format="xyxy"),
        layers.RandomContrast(0.2, bounding_box_format="xyxy"),
        layers.MaxNumBoundingBoxes(4, bounding_box_format="xyxy")])
    out = pipeline(data)
    np.testing.assert_array_equal(out["labels"], [0, 1])
    np.testing.assert_allclose(out["bounding_boxes"]["boxes"][0, 0], [10, 3, 18, 9])
    assert out["bounding_boxes"]["boxes"].shape == (2, 4, 4)


def test_max_num_bounding_boxes_passes_images_and_harness():
    x = np.arange(12.0).reshape(1, 2, 2, 3)
    np.testing.assert_array_equal(layers.MaxNumBoundingBoxes(2)(x), x)
    run_layer_test(layers.MaxNumBoundingBoxes, {"max_number": 3}, input_shape=(2, 4, 5, 3),
                   expected_output_shape=(2, 4, 5, 3), expected_num_trainable_weights=0,
                   check_gradients=False)
    config = layers.MaxNumBoundingBoxes(4, fill_value=-2).get_config()
    assert (config["max_number"], config["fill_value"]) == (4, -2)


@pytest.mark.parametrize("call, error, message", [
    (lambda: layers.RandomFlip()({"images": np.zeros(SHAPE),
                                  "bounding_boxes": {"boxes": BOXES, "labels": LABELS}}),
     ValueError, "no bounding box format"),
    (lambda: layers.RandomFlip(bounding_box_format="xyxy")(
        {"images": np.zeros(SHAPE), "bounding_boxes": {"boxes": BOXES[:1], "labels": LABELS}}),
     ValueError, r"Received: boxes.shape=\(1, 3, 4\)"),
    (lambda: layers.RandomFlip(bounding_box_format="xyxy")({"pictures": np.zeros(SHAPE)}),
     ValueError, r"'images' key.*Received: keys=\['pictures'\]"),
    (lambda: _Warp(bounding_box_format="xyxy")(
        {"images": np.zeros(SHAPE), "bounding_boxes": {"boxes": BOXES, "labels": LABELS}}),
     NotImplementedError, r"_Warp does not transform \['bounding_boxes'\]"),
    (lambda: layers.RandomFlip(bounding_box_format="xyxy")(
        {"images": np.zeros(SHAPE), "segmentation_masks": np.zeros(SHAPE[:3])}),
     ValueError, r"Received: segmentation_masks.shape=\(2, 24, 32\)"),
    (lambda: layers.Resizing(3, 3, bounding_box_format="corners"),
     ValueError, "Received: bounding_box_format='corners'"),
    (lambda: layers.MaxNumBoundingBoxes(0), ValueError, "Received: max_number=0"),
    (lambda: layers.MaxNumBoundingBoxes(2, fill_value="x"), ValueError,
     "Received: fill_value='x'"),
])
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


# Written by Keras 3.15's `get_config()` (dtype policies left out).
KERAS_CONFIGS = {
    "MaxNumBoundingBoxes": {"name": "max_num_bounding_boxes", "trainable": True,
                            "data_format": "channels_last", "bounding_box_format": "xyxy",
                            "max_number": 3},
    "RandomFlip": {"name": "random_flip", "trainable": True, "data_format": "channels_last",
                   "bounding_box_format": "xywh", "seed": None,
                   "mode": "horizontal_and_vertical"},
}


@pytest.mark.parametrize("name", sorted(KERAS_CONFIGS))
def test_keras_configs_load_with_their_box_format(name):
    layer = getattr(layers, name).from_config(dict(KERAS_CONFIGS[name]))
    config = layer.get_config()
    for key, value in KERAS_CONFIGS[name].items():
        assert config[key] == value, key


def test_perspective_boxes_come_back_in_the_layer_format():
    given = GEN.GIVEN["perspective_strong"][2]
    size = (GEN.WIDTH, GEN.WIDTH)
    transformation = {"apply_perspective": np.array(given["apply_perspective"]),
                      "start_points": np.array(given["start_points"], "float32"),
                      "end_points": np.array(given["end_points"], "float32"),
                      "input_shape": (2, *size, 3)}
    layer = layers.RandomPerspective(bounding_box_format="rel_yxyx")
    boxes = bb.convert_format(BOXES, "xyxy", "rel_yxyx", *size)
    out = layer.transform_bounding_boxes({"boxes": boxes, "labels": LABELS}, transformation)
    np.testing.assert_allclose(bb.convert_format(out["boxes"], "rel_yxyx", "xyxy", *size),
                               KERAS["perspective_strong/boxes"], atol=1e-4)
