"""`hikeras.visualization`: masks against Keras 3.15, boxes and galleries by hand.

Keras's mask drawings are in `tests/fixtures/keras_visualization/` (with
their generator). Keras draws boxes with OpenCV, which its test environment
lacks, so the box outlines are checked against hand-drawn expectations.
"""

import importlib.util
import inspect
import pathlib

import numpy as np
import pytest

from hikeras import visualization as vis
from tests.helpers.keras_names import keras_names

HERE = pathlib.Path(__file__).parent / "fixtures" / "keras_visualization"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_visualization",
                                                  HERE / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
IMAGES, MASKS = GEN.inputs()
with np.load(HERE / "masks.npz") as _data:
    KERAS_MASKS = {key: _data[key] for key in _data.files}


def test_signatures_match_keras():
    for name, record in keras_names("keras.visualization").items():
        assert str(inspect.signature(getattr(vis, name))) == record["signature"], name


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_segmentation_masks_match_keras(name):
    kwargs = GEN.CASES[name]
    if kwargs.get("data_format") == "channels_first":
        out = vis.draw_segmentation_masks(IMAGES.transpose(0, 3, 1, 2),
                                          MASKS.transpose(0, 3, 1, 2), **kwargs)
        out = out.transpose(0, 2, 3, 1)  # Keras returns channels last here; we keep the layout
    else:
        out = vis.draw_segmentation_masks(IMAGES, MASKS, **kwargs)
    expected = KERAS_MASKS[name]
    assert out.dtype == expected.dtype
    np.testing.assert_allclose(out.astype("float64"), expected, atol=1e-4 if
                               expected.dtype.kind == "f" else 0)


def test_segmentation_masks_without_a_channel_axis_and_the_palette():
    out = vis.draw_segmentation_masks(IMAGES, MASKS[..., 0], num_classes=4)
    np.testing.assert_array_equal(out, vis.draw_segmentation_masks(IMAGES, MASKS,
                                                                   num_classes=4))
    assert vis.draw_segmentation_masks.__module__.endswith("draw_segmentation_masks")
    from hikeras.visualization.draw_segmentation_masks import default_colors
    # 2**8 = 1 (mod 255), so the multipliers are 2 - 1, 128 - 1 and 32 - 1 modulo 255.
    assert default_colors(3) == [[0, 0, 0], [1, 127, 31], [2, 254, 62]]


def _outline(shape, box, thickness):
    """The expected 0/1 outline, drawn pixel by pixel from its definition."""
    x1, y1, x2, y2 = box
    grow = thickness // 2
    expected = np.zeros(shape, int)
    for y in range(shape[0]):
        for x in range(shape[1]):
            inside_outer = y1 - grow <= y <= y2 + grow and x1 - grow <= x <= x2 + grow
            inside_inner = (y1 - grow + thickness <= y <= y2 + grow - thickness
                            and x1 - grow + thickness <= x <= x2 + grow - thickness)
            expected[y, x] = inside_outer and not inside_inner
    return expected


@pytest.mark.parametrize("thickness", [1, 2, 3])
def test_box_outlines_by_hand(thickness):
    images = np.zeros((2, 12, 14, 3), "float32")
    boxes = {"boxes": np.array([[[2, 3, 9, 8], [0, 0, 1, 1]], [[4.7, 1.2, 12.9, 10.5],
                                                                 [1, 1, 5, 5]]]),
             "labels": np.array([[0, -1], [1, 2]])}
    out = vis.draw_bounding_boxes(images, boxes, "xyxy", color=(10, 200, 30),
                                  line_thickness=thickness)
    assert out.dtype == np.uint8 and out.shape == images.shape
    np.testing.assert_array_equal(out[0, :, :, 1] // 200, _outline((12, 14), (2, 3, 9, 8),
                                                                   thickness))  # -1 skipped
    both = _outline((12, 14), (4, 1, 12, 10), thickness) | _outline((12, 14), (1, 1, 5, 5),
                                                                    thickness)
    np.testing.assert_array_equal(out[1, :, :, 1] // 200, both)
    np.testing.assert_array_equal(out[1][both == 1], np.tile([10, 200, 30], (both.sum(), 1)))


def test_boxes_in_other_formats_and_layouts_and_pixel_scaling():
    images = np.full((1, 3, 10, 12), 0.5, "float32")  # channels first, values up to 1
    boxes = {"boxes": np.array([[[5.0, 4.5, 6.0, 5.0]]]), "labels": np.array([[3]])}
    out = vis.draw_bounding_boxes(images, boxes, "center_xywh", color=(255, 0, 0),
                                  line_thickness=1, data_format="channels_first")
    assert out.shape == images.shape
    expected = np.where(_outline((10, 12), (2, 2, 8, 7), 1) == 1, 255, 127)
    np.testing.assert_array_equal(out[0, 0], expected)


def test_class_names_are_written_above_the_box():
    pytest.importorskip("PIL")
    images = np.zeros((1, 60, 80, 3), "uint8")
    boxes = {"boxes": np.array([[[5, 40, 50, 55]]]), "labels": np.array([[7]])}
    plain = vis.draw_bounding_boxes(images, boxes, "xyxy", line_thickness=1)
    named = vis.draw_bounding_boxes(images, boxes, "xyxy", class_mapping={7: "cat"},
                                    line_thickness=1)
    written = np.nonzero((named != plain).any(axis=-1))
    assert written[0].size > 0 and written[0].max() < 40  # all of it above the box's top


def test_galleries_render_on_an_agg_figure(tmp_path, rng):
    pytest.importorskip("matplotlib")
    images = rng.uniform(0, 1, (5, 6, 7, 3)).astype("float32")
    figure = vis.plot_image_gallery(images, y_true=[0, 1, 0, 1], label_map={0: "a", 1: "b"},
                                    value_range=(0, 1), show=False)
    assert len(figure.axes) == 3 * 1  # Keras's grid: ceil(sqrt(5)) rows, 5 // 3 columns
    assert figure.axes[1].get_title() == "Label: b"
    shown = figure.axes[0].get_images()[0].get_array()
    np.testing.assert_array_equal(shown, (images[0] * 255).astype("uint8"))
    path = tmp_path / "gallery.png"
    vis.plot_image_gallery(images[:4], path=path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    boxes = {"boxes": np.tile([[[1.0, 1.0, 4.0, 4.0]]], (4, 1, 1)), "labels": np.zeros((4, 1))}
    figure = vis.plot_bounding_box_gallery(images[:4] * 255, "xyxy", y_true=boxes, legend=True,
                                           line_thickness=1, show=False)
    assert len(figure.axes) == 4 and len(figure.legends) == 1
    drawn = figure.axes[0].get_images()[0].get_array()
    np.testing.assert_array_equal(drawn[1, 1], [0, 188, 212])

    figure = vis.plot_segmentation_mask_gallery(IMAGES, 4, y_true=MASKS, y_pred=MASKS[..., 0],
                                                show=False)
    assert len(figure.axes) == 2 * 3
    np.testing.assert_array_equal(figure.axes[1].get_images()[0].get_array(),
                                  vis.draw_segmentation_masks(IMAGES, MASKS, num_classes=4)[0])


@pytest.mark.parametrize("call, error, message", [
    (lambda: vis.draw_bounding_boxes(np.zeros((4, 4, 3)), {}, "xyxy"), ValueError,
     r"rank 4\). Received: images.shape=\(4, 4, 3\)"),
    (lambda: vis.draw_bounding_boxes(np.zeros((1, 4, 4, 3)), [], "xyxy"), TypeError,
     "bounding_boxes` to be a dict"),
    (lambda: vis.draw_bounding_boxes(np.zeros((1, 4, 4, 3)), {"boxes": np.zeros((1, 1, 4))},
                                     "xyxy"), ValueError, r"Received: keys=\['boxes'\]"),
    (lambda: vis.draw_bounding_boxes(np.zeros((1, 4, 4, 3)), {"boxes": np.zeros((2, 1, 4)),
                                                              "labels": np.zeros((2, 1))},
                                     "xyxy"), ValueError, r"boxes.shape=\(2, 1, 4\)"),
    (lambda: vis.draw_bounding_boxes(np.zeros((1, 4, 4, 3)), {"boxes": np.zeros((1, 1, 4)),
                                                              "labels": np.zeros((1, 1))},
                                     "xyxy", color=(300, 0, 0)), ValueError,
     r"Received: color=\(300, 0, 0\)"),
    (lambda: vis.draw_segmentation_masks(IMAGES, MASKS.astype("float32")), TypeError,
     "Received: segmentation_masks.dtype=float32"),
    (lambda: vis.draw_segmentation_masks(IMAGES, MASKS[:1]), ValueError,
     r"Received: segmentation_masks.shape=\(1, 5, 6, 1\)"),
    (lambda: vis.draw_segmentation_masks(IMAGES, MASKS, num_classes=2,
                                         color_mapping={0: (1, 2, 3)}), ValueError,
     r"Missing: \[1\]"),
    (lambda: vis.plot_image_gallery(IMAGES, path="x.png", show=True), ValueError,
     "not both"),
    (lambda: vis.plot_image_gallery(IMAGES, y_true=[0, 1]), ValueError, "needs `label_map`"),
    (lambda: vis.plot_image_gallery(IMAGES, rows=2, cols=2, show=False), ValueError,
     "2 images for a grid of rows=2 x cols=2"),
])
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_missing_matplotlib_names_the_extra(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(ImportError, match=r'pip install "hikeras\[plot\]"'):
        vis.plot_image_gallery(IMAGES, show=False)
