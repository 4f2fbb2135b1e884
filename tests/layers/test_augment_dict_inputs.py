"""The five augmentation layers of issue #18 take Keras's dict inputs: images transformed,
labels passed through; boxes need a format: CLAHE (which moves no pixel) passes them
through, RandomPerspective moves them, the others refuse them (as AugMix, RandAugment and
RandomElasticTransform cannot split a call into Keras's transformation pair)."""

import numpy as np
import pytest

import hikeras
from hikeras import layers

LAYERS = {
    "AugMix": lambda: layers.AugMix(seed=1),
    "RandAugment": lambda: layers.RandAugment(seed=1),
    "RandomPerspective": lambda: layers.RandomPerspective(seed=1),
    "RandomElasticTransform": lambda: layers.RandomElasticTransform(seed=1),
    "ContrastLimitedAdaptiveHistogramEqualization":
        lambda: layers.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2)),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_dict_images_are_transformed_as_plain_images_and_labels_pass(name, rng):
    images = rng.uniform(0, 255, (3, 8, 8, 3)).astype("float32")
    labels = np.eye(3, dtype="float32")
    out = LAYERS[name]()({"images": images, "labels": labels})
    assert sorted(out) == ["images", "labels"]
    np.testing.assert_array_equal(out["images"], LAYERS[name]()(images))
    np.testing.assert_array_equal(out["labels"], labels)
    dataset = hikeras.data.Dataset.from_tensor_slices({"images": images, "labels": labels})
    (batch,) = list(dataset.batch(3).map(LAYERS[name]()))
    np.testing.assert_array_equal(batch["images"], out["images"])


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_symbolic_dicts_and_refused_keys(name, rng):
    inputs = {"images": hikeras.Input((None, None, 3)), "labels": hikeras.Input((4,))}
    out = LAYERS[name]()(inputs)
    assert out["images"].shape == (None, None, None, 3) and out["labels"].shape == (None, 4)
    images = rng.uniform(0, 255, (2, 8, 8, 3)).astype("float32")
    with pytest.raises(ValueError, match="no bounding box format"):
        LAYERS[name]()({"images": images, "bounding_boxes": np.zeros((2, 1, 4))})
    with pytest.raises(ValueError, match=r"Received: keys=\['labels'\]"):
        LAYERS[name]()({"labels": np.zeros((2, 4))})
    with pytest.raises(ValueError, match=r"Received: keys=\['images', 'masks'\]"):
        LAYERS[name]()({"images": images, "masks": images})


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_boxes_pass_clahe_move_with_perspective_and_are_refused_by_the_others(name, rng):
    images = rng.uniform(0, 255, (2, 8, 8, 3)).astype("float32")
    boxes = {"boxes": np.array([[[1.0, 1.0, 5.0, 6.0]]] * 2, "float32"),
             "labels": np.ones((2, 1), "float32")}
    config = {**LAYERS[name]().get_config(), "bounding_box_format": "xyxy"}
    layer = type(LAYERS[name]()).from_config(config)
    data = {"images": images, "bounding_boxes": boxes}
    if name == "ContrastLimitedAdaptiveHistogramEqualization":
        out = layer(data)
        np.testing.assert_array_equal(out["bounding_boxes"]["boxes"], boxes["boxes"])
        np.testing.assert_array_equal(out["images"], layer(images))
    elif name == "RandomPerspective":   # checked against Keras in test_bounding_box_layers
        out = layer(data)
        assert out["bounding_boxes"]["boxes"].shape == (2, 1, 4)
        np.testing.assert_array_equal(out["bounding_boxes"]["labels"], boxes["labels"])
    else:
        with pytest.raises(NotImplementedError, match="bounding_boxes"):
            layer(data)
