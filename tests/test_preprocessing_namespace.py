"""`hikeras.preprocessing`: Keras's names, and `smart_resize` against Keras's values."""

import json
import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import preprocessing

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["smart_resize"]


def test_smart_resize_matches_keras():
    image = np.arange(24, dtype="float32").reshape(4, 6, 1)
    resize = preprocessing.image.smart_resize
    np.testing.assert_allclose(resize(image, (2, 2)), FIXTURE["bilinear_2x2"], rtol=1e-6)
    np.testing.assert_allclose(resize(image, (2, 3), interpolation="nearest"),
                               FIXTURE["nearest_2x3"])
    assert list(resize(np.stack([image, image]), (3, 2)).shape) == FIXTURE["batch_3x2_shape"]


def test_smart_resize_bad_input():
    with pytest.raises(ValueError, match=r"Received: x.shape=\(4, 6\)"):
        preprocessing.image.smart_resize(np.ones((4, 6)), (2, 2))
    with pytest.raises(ValueError, match="Received: size=3"):
        preprocessing.image.smart_resize(np.ones((4, 6, 1)), 3)


def test_names_are_the_utils_ones():
    assert preprocessing.sequence.pad_sequences is hikeras.utils.pad_sequences
    assert preprocessing.image_dataset_from_directory is hikeras.utils.image_dataset_from_directory
    assert preprocessing.image.load_img is hikeras.utils.load_img
