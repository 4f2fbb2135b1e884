"""Object-detection data: augment images with their boxes, match anchors, draw the result.

A batch of synthetic images, each holding bright rectangles (the "objects")
with their boxes and class labels, goes through

1. a `Pipeline` of `RandomFlip`, `RandomTranslation`, `RandomBrightness`
   and `MaxNumBoundingBoxes`: the boxes move with the pixels (checked here:
   each augmented box still frames its rectangle) and every image ends with
   the same number of boxes, padded with label -1;
2. anchor matching with `hikeras.utils.bounding_boxes`: the IoU of every box
   with a grid of anchors, the best anchor per box, and the regression
   targets (`encode_box_to_deltas`) that decode back to the boxes;
3. `hikeras.visualization`: the boxes drawn on the images, and a gallery
   saved to a PNG when matplotlib is installed.

    python examples/bounding_boxes.py
"""

import os
import tempfile

import numpy as np

from hikeras import layers, visualization
from hikeras.utils import bounding_boxes

SIZE = 32
CLASSES = {0: "square", 1: "bar"}


def make_scenes(count, rng):
    """`count` dark images with one or two bright rectangles, their xyxy boxes and labels."""
    images = np.full((count, SIZE, SIZE, 3), 20.0, "float32")
    boxes = np.full((count, 2, 4), -1.0, "float32")
    labels = np.full((count, 2), -1, "int32")
    for i in range(count):
        for j in range(rng.integers(1, 3)):
            label = int(rng.integers(0, 2))
            height, width = (8, 8) if label == 0 else (4, 14)
            top, left = (int(v) for v in rng.integers(0, SIZE - 14, 2))
            images[i, top:top + height, left:left + width] = 200.0
            boxes[i, j] = [left, top, left + width, top + height]
            labels[i, j] = label
    return images, {"boxes": boxes, "labels": labels}


def frames_its_object(image, box):
    """Whether `box` is the tight frame of the bright pixels inside it (one pixel of slack)."""
    x1, y1, x2, y2 = np.round(box).astype(int)
    inside = image[y1:y2, x1:x2, 0] > 100
    if not inside.any():
        return False
    rows, cols = np.nonzero(inside)
    return (rows.min() <= 1 and cols.min() <= 1 and rows.max() >= inside.shape[0] - 2
            and cols.max() >= inside.shape[1] - 2)


def anchors_grid(step=8, size=8):
    """Square xyxy anchors of side `size`, every `step` pixels."""
    starts = np.arange(0, SIZE - size + 1, step, dtype="float32")
    return np.array([[x, y, x + size, y + size] for y in starts for x in starts], "float32")


def main(count=8, seed=0, gallery_path=None):
    rng = np.random.default_rng(seed)
    images, boxes = make_scenes(count, rng)
    augment = layers.Pipeline([
        layers.RandomFlip("horizontal", seed=seed, bounding_box_format="xyxy"),
        layers.RandomTranslation((-0.1, 0.1), (-0.1, 0.1), fill_mode="constant",
                                 interpolation="nearest", seed=seed,
                                 bounding_box_format="xyxy"),
        layers.RandomBrightness(0.1, seed=seed, bounding_box_format="xyxy"),
        layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy"),
    ])
    batch = augment({"images": images, "bounding_boxes": boxes})
    images, boxes = batch["images"], batch["bounding_boxes"]
    kept = boxes["labels"] >= 0
    framed = np.mean([frames_its_object(images[i], boxes["boxes"][i, j])
                      for i, j in zip(*np.nonzero(kept))])
    print(f"{kept.sum()} boxes after augmentation, padded to {boxes['boxes'].shape[1]} per "
          f"image; {framed:.0%} still frame their object")

    anchors = anchors_grid()
    iou = bounding_boxes.compute_iou(boxes["boxes"], anchors, "xyxy")  # (batch, 3, anchors)
    best = iou.argmax(axis=-1)
    matched = anchors[best]  # the best anchor of every box
    deltas = bounding_boxes.encode_box_to_deltas(matched[kept], boxes["boxes"][kept], "xyxy",
                                                 "xyxy", variance=[0.1, 0.1, 0.2, 0.2])
    decoded = bounding_boxes.decode_deltas_to_boxes(matched[kept], deltas, "xyxy", "xyxy",
                                                    variance=[0.1, 0.1, 0.2, 0.2])
    round_trip = float(np.abs(decoded - boxes["boxes"][kept]).max())
    print(f"best-anchor IoU {iou.max(axis=-1)[kept].mean():.2f} on average; "
          f"deltas decode back within {round_trip:.1e} pixels")

    drawn = visualization.draw_bounding_boxes(images, boxes, "xyxy", color=(255, 64, 0),
                                              line_thickness=1)
    if gallery_path is not None:
        try:
            visualization.plot_bounding_box_gallery(
                images, "xyxy", y_true=boxes, class_mapping=CLASSES, legend=True,
                line_thickness=1, font_scale=0.4, rows=2, cols=count // 2, path=gallery_path)
            print(f"gallery written to {gallery_path}")
        except ImportError as err:
            print(err)
    return framed, round_trip, drawn


if __name__ == "__main__":
    main(gallery_path=os.path.join(tempfile.gettempdir(), "hikeras_boxes.png"))
