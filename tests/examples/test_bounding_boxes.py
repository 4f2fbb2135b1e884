"""examples/bounding_boxes.py: augmented boxes still frame their objects, anchors round-trip."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bounding_boxes.py"


def _load():
    spec = importlib.util.spec_from_file_location("bounding_boxes_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_boxes_follow_their_objects_and_the_gallery_is_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "gallery.png"
    framed, round_trip, drawn = _load().main(count=6, seed=3, gallery_path=str(path))
    assert framed == 1.0
    assert round_trip < 1e-4
    assert drawn.dtype == np.uint8 and drawn.shape == (6, 32, 32, 3)
    assert (drawn == [255, 64, 0]).all(axis=-1).any()
    assert path.read_bytes()[:4] == b"\x89PNG"
    assert "still frame their object" in capsys.readouterr().out


def test_scenes_hold_their_boxes():
    module = _load()
    images, boxes = module.make_scenes(5, np.random.default_rng(1))
    for image, image_boxes, labels in zip(images, boxes["boxes"], boxes["labels"]):
        for box in image_boxes[labels >= 0]:
            assert module.frames_its_object(image, box)
