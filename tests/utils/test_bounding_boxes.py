"""`hikeras.utils.bounding_boxes` against results recorded from Keras 3.15, and its errors.

The fixture and its generator are in `tests/fixtures/keras_bounding_boxes/`.
"""

import inspect
import math
import pathlib

import numpy as np
import pytest

from hikeras.utils import bounding_boxes as bb
from tests.helpers.keras_names import keras_names

FIXTURE = (pathlib.Path(__file__).parent.parent / "fixtures" / "keras_bounding_boxes"
           / "utils_cases.npz")


def _nest(flat):
    """`{"a/b": x}` -> `{"a": {"b": x}}`, 0-d arrays becoming Python values (as Keras got them)."""
    nested = {}
    for key, value in flat.items():
        *parents, leaf = key.split("/")
        node = nested
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value.item() if value.ndim == 0 else value
    return nested


def _cases():
    with np.load(FIXTURE) as data:
        return _nest({key: data[key] for key in data.files})


CASES = _cases()


def _tuple_image_shape(kwargs):
    if "image_shape" in kwargs:
        kwargs["image_shape"] = tuple(int(v) for v in kwargs["image_shape"])
    return kwargs


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_keras(name):
    case = CASES[name]
    result = getattr(bb, case["function"])(**_tuple_image_shape(dict(case["in"])))
    expected = case["out"]
    if isinstance(expected, dict):
        assert set(result) >= set(expected)
        for key, value in expected.items():
            np.testing.assert_allclose(result[key], value, rtol=1e-6, atol=1e-5, err_msg=key)
            assert np.asarray(result[key]).dtype == value.dtype, key
    else:
        assert result.shape == expected.shape
        assert result.dtype == expected.dtype
        np.testing.assert_allclose(result, expected, rtol=1e-6, atol=2e-5)


def test_signatures_match_keras():
    for name, record in keras_names("keras.utils.bounding_boxes").items():
        assert str(inspect.signature(getattr(bb, name))) == record["signature"], name


def test_conversions_round_trip_through_every_format(rng):
    boxes = np.concatenate([rng.uniform(0, 10, (5, 2)), rng.uniform(10, 20, (5, 2))], -1)
    for target in ("yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx",
                   "rel_xywh", "rel_center_xywh"):
        there = bb.convert_format(boxes, "xyxy", target, height=20, width=25, dtype="float64")
        back = bb.convert_format(there, target.upper(), "xyxy", height=20, width=25,
                                 dtype="float64")
        np.testing.assert_allclose(back, boxes, err_msg=target)


def test_hand_computed_conversions():
    boxes = np.array([[10.0, 20.0, 30.0, 60.0]])
    assert bb.convert_format(boxes, "xyxy", "center_yxhw").tolist() == [[40, 20, 40, 20]]
    relative = bb.convert_format(boxes, "xyxy", "rel_xywh", height=100, width=50)
    assert relative.dtype == np.float32
    np.testing.assert_array_equal(relative, np.float32([[0.2, 0.2, 0.4, 0.4]]))
    out = bb.convert_format({"boxes": boxes, "labels": np.array([7])}, "xyxy", "yxyx")
    assert out["boxes"].tolist() == [[20, 10, 60, 30]] and out["labels"].tolist() == [7]


def test_affine_quarter_turn_about_the_centre_by_hand():
    # A 9 x 9 image turns about (4, 4): the box [0, 0, 2, 1] (left, top) goes to the left
    # bottom corner for +90 degrees, as the image turns counter-clockwise.
    moved = bb.affine_transform(np.array([[0.0, 0.0, 2.0, 1.0]]), 90, 0, 0, 1, 0, 0, 9, 9)
    np.testing.assert_allclose(moved, [[0.0, 6.0, 1.0, 8.0]], atol=1e-5)


def test_iou_and_ciou_by_hand():
    a = np.array([[0.0, 0.0, 2.0, 2.0]])
    b = np.array([[1.0, 0.0, 3.0, 2.0]])
    np.testing.assert_allclose(bb.compute_iou(a, b, "xyxy"), [[2 / 6]], rtol=1e-6)
    # Centres 1 apart along x, enclosing box 3 x 2, same aspect ratio: iou - 1 / 13.
    np.testing.assert_allclose(bb.compute_ciou(a, b, "xyxy"), [2 / 6 - 1 / 13], rtol=1e-5)


def test_deltas_round_trip(rng):
    anchors = np.concatenate([rng.uniform(0, 10, (6, 2)), rng.uniform(12, 20, (6, 2))], -1)
    boxes = np.concatenate([rng.uniform(0, 10, (2, 6, 2)), rng.uniform(12, 20, (2, 6, 2))], -1)
    deltas = bb.encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", variance=[1, 1, 2, 2])
    back = bb.decode_deltas_to_boxes({"p3": anchors}, {"p3": deltas}, "xyxy", "xyxy",
                                     variance=[1, 1, 2, 2])
    np.testing.assert_allclose(back["p3"], boxes, rtol=1e-5)
    assert math.isclose(float(deltas[0, 0, 2]), math.log(
        (boxes[0, 0, 3] - boxes[0, 0, 1]) / (anchors[0, 3] - anchors[0, 1])) / 2, rel_tol=1e-5)


@pytest.mark.parametrize("call, message", [
    (lambda: bb.convert_format(np.zeros((2, 3)), "xyxy", "xywh"),
     r"last dimension of 4. Received: boxes.shape=\(2, 3\)"),
    (lambda: bb.convert_format(np.zeros((2, 4)), "xyxy", "corners"),
     r"`target` to be one of .* Received: target='corners'"),
    (lambda: bb.convert_format(np.zeros((2, 4)), "xyxy", "rel_xyxy", height=3),
     r"needs `height` and `width`.* height=3, width=None"),
    (lambda: bb.clip_to_image_size({"boxes": np.zeros((1, 4))}),
     r"needs `height` and `width`.* Received: height=None"),
    (lambda: bb.clip_to_image_size(np.zeros((1, 4)), 3, 3),
     r"expects a dict with keys 'boxes'"),
    (lambda: bb.encode_box_to_deltas(np.zeros((1, 4)), np.zeros((1, 4)), "xyxy", "xyxy",
                                     variance=[1, 2]),
     r"`variance` to have 4 values. Received: variance=\[1.0, 2.0\]"),
    (lambda: bb.decode_deltas_to_boxes(np.zeros((1, 4)), np.zeros((1, 4)), "xyxy", "xyxy",
                                       encoded_format="xyxy"),
     r"`encoded_format` to be one of \('center_xywh', 'center_yxhw'\)"),
    (lambda: bb.compute_iou(np.zeros((1, 1, 1, 4)), np.zeros((1, 4)), "xyxy"),
     r"Received: boxes1.shape=\(1, 1, 1, 4\)"),
    (lambda: bb.compute_iou(np.zeros((1, 4)), np.zeros((1, 4)), "rel_xyxy"),
     r"needs `image_shape`"),
    (lambda: bb.compute_ciou(np.zeros((1, 4)), np.zeros((1, 4)), "rel_xyxy"),
     r"does not take relative.* Received: bounding_box_format='rel_xyxy'"),
    (lambda: bb.affine_transform(np.zeros((2, 1, 4)), [1, 2, 3], 0, 0, 1, 0, 0, 5, 5),
     r"`angle` to be a number or one value per image \(2\). Received: angle.shape=\(3,\)"),
])
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("function", [
    lambda: bb.crop(np.zeros((1, 4)), 0, 0, 3, 3, bounding_box_format="yxyx"),
    lambda: bb.pad(np.zeros((1, 4)), 0, 0, bounding_box_format="xywh"),
    lambda: bb.affine_transform(np.zeros((1, 1, 4)), 0, 0, 0, 1, 0, 0, 5, 5,
                                bounding_box_format="center_xywh"),
    lambda: bb.clip_to_image_size({"boxes": np.zeros((1, 4))}, 3, 3, "xywh"),
])
def test_other_formats_are_refused_as_in_keras(function):
    with pytest.raises(NotImplementedError, match="Received: bounding_box_format="):
        function()
