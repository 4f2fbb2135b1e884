"""Bounding boxes (and masks) through the geometric image layers, as Keras 3 takes them.

A geometric layer called on `{"images": ..., "bounding_boxes": {"boxes": ...,
"labels": ...}}` moves the boxes with the image. Each such layer describes
its change of coordinates as one affine map per image, input pixel ->
output pixel (`box_matrices`); the boxes are taken to `"xyxy"` pixels, their
four corners are mapped, the box around the mapped corners is kept, clipped
to the output image, and converted back to the layer's `bounding_box_format`.
A box left with no area gets label -1, as in Keras. Segmentation masks,
shaped as the images, move as the pixels do with nearest-neighbour sampling.

Boxes are data-pipeline values: they are moved in eager calls on arrays and
carry no gradient. On symbolic inputs a dict's entries keep their shapes (the
images' spec comes from the layer), so a functional model can take one.
"""

import numpy as np

from ....utils import bounding_boxes as bb

_DATA_KEYS = ("images", "bounding_boxes", "labels", "segmentation_masks")


def check_keys(layer, data):
    """Refuses a dict without `images` or with keys Keras's image layers do not take."""
    unknown = sorted(set(data) - set(_DATA_KEYS))
    if "images" not in data or unknown:
        raise ValueError(f"{type(layer).__name__} expects a dict with an 'images' key and "
                         "optionally 'bounding_boxes', 'labels' and 'segmentation_masks'. "
                         f"Received: keys={sorted(data)}")


def check_data(layer, data):
    """The dict's keys checked; returns whether its images are a batch."""
    name = type(layer).__name__
    check_keys(layer, data)
    rank = np.ndim(data["images"])
    if rank not in (3, 4):
        raise ValueError(f"{name} expects a single image (rank 3) or a batch of images "
                         f"(rank 4). Received: images.shape={np.shape(data['images'])}")
    if "bounding_boxes" in data and not layer.bounding_box_format:
        raise ValueError(f"{name} was given 'bounding_boxes' but no bounding box format. "
                         f"Pass `bounding_box_format` (e.g. 'xyxy') to the layer. "
                         f"Received: bounding_box_format={layer.bounding_box_format!r}")
    return rank == 4


def check_masks(layer, masks, images):
    """Segmentation masks must have the images' shape up to the channel count."""
    masks_shape, images_shape = np.shape(masks), np.shape(images)
    channel = -1 if layer.data_format == "channels_last" else -3
    expected = list(images_shape)
    expected[channel] = masks_shape[channel] if len(masks_shape) == len(images_shape) else None
    if list(masks_shape) != expected:
        raise ValueError(f"{type(layer).__name__} expects 'segmentation_masks' shaped as the "
                         f"images (any number of channels). Received: "
                         f"segmentation_masks.shape={masks_shape}, images.shape={images_shape}")


def batched_boxes(layer, bounding_boxes, batched, batch_size):
    """`{"boxes": (batch, N, 4) float32, "labels": (batch, N) or absent}` from the input."""
    name = type(layer).__name__
    if not isinstance(bounding_boxes, dict) or "boxes" not in bounding_boxes:
        raise ValueError(f"{name} expects 'bounding_boxes' to be a dict with keys 'boxes' "
                         f"and 'labels'. Received: bounding_boxes={bounding_boxes!r}")
    boxes = np.asarray(bounding_boxes["boxes"], dtype="float32")
    want = (batch_size, "N", 4) if batched else ("N", 4)
    if boxes.ndim != len(want) or boxes.shape[-1] != 4 or (
            batched and boxes.shape[0] != batch_size):
        raise ValueError(f"{name} expects bounding_boxes['boxes'] of shape {want} for these "
                         f"images. Received: boxes.shape={boxes.shape}")
    result = {"boxes": boxes if batched else boxes[None]}
    if bounding_boxes.get("labels") is not None:
        labels = np.asarray(bounding_boxes["labels"])
        if labels.shape[:boxes.ndim - 1] != boxes.shape[:-1]:
            raise ValueError(f"{name} expects one label per box: bounding_boxes['labels'] of "
                             f"shape {boxes.shape[:-1]}. Received: labels.shape={labels.shape}")
        result["labels"] = labels if batched else labels[None]
    return result


def unbatched(bounding_boxes):
    return {key: value[0] for key, value in bounding_boxes.items()}


def move_boxes(layer, bounding_boxes, matrices, in_size, out_size):
    """Boxes (batched, in the layer's format) through per-image affine maps, then clipped.

    `matrices` is `(batch, 2, 3)` (or `(2, 3)` for all images): output pixel
    `(x', y') = M @ (x, y, 1)` for an input pixel `(x, y)`.
    """
    fmt = layer.bounding_box_format
    boxes = bb.convert_format(bounding_boxes["boxes"], fmt, "xyxy", *in_size)
    x1, y1, x2, y2 = (boxes[..., i] for i in range(4))
    corners = np.stack([np.stack([x1, y1], -1), np.stack([x2, y1], -1),
                        np.stack([x2, y2], -1), np.stack([x1, y2], -1)], axis=-2)
    matrices = np.broadcast_to(np.asarray(matrices, "float64"), (len(boxes), 2, 3))
    moved = (np.einsum("bnkc,bdc->bnkd", corners, matrices[:, :, :2])
             + matrices[:, None, None, :, 2]).astype("float32")
    boxes = np.concatenate([moved.min(axis=2), moved.max(axis=2)], axis=-1)
    clipped = bb.clip_to_image_size(dict(bounding_boxes, boxes=boxes), *out_size)
    return bb.convert_format(clipped, "xyxy", fmt, *out_size)


def invert_transforms(transforms):
    """`(batch, 2, 3)` forward maps from TensorFlow-style `(batch, 8)` sampling transforms.

    A sampling transform reads output pixel `(x, y)` from input point
    `A (x, y) + t`; the boxes need the other way round, `A^-1 ((x, y) - t)`.
    """
    transforms = np.asarray(transforms, "float64")
    linear = transforms[:, [0, 1, 3, 4]].reshape(-1, 2, 2)
    offset = transforms[:, [2, 5]]
    inverse = np.linalg.inv(linear)
    return np.concatenate([inverse, -np.einsum("bij,bj->bi", inverse, offset)[..., None]],
                          axis=-1)


def window_matrix(starts, lengths, size):
    """The map that takes the input window `starts`, `lengths` to an output of `size`.

    All three are `(y, x)` pairs; a negative start is padding before the image.
    """
    scale = [s / length for s, length in zip(size, lengths)]
    return scale_and_shift(scale, [-start * k for start, k in zip(starts, scale)])


def scale_and_shift(scale, shift):
    """The `(2, 3)` map `x' = scale_x x + shift_x`, `y' = scale_y y + shift_y`.

    `scale` and `shift` are `(y, x)` pairs, in the layers' (height, width) order.
    """
    return np.array([[scale[1], 0.0, shift[1]], [0.0, scale[0], shift[0]]])
