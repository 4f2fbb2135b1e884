"""Overlap between boxes: `compute_iou` (pairwise) and `compute_ciou` (elementwise)."""

import math

import numpy as np

from ... import config
from .formats import as_boxes, convert_format


def _image_size(function, bounding_box_format, image_shape):
    if isinstance(bounding_box_format, str) and "rel" in bounding_box_format.lower() and (
            image_shape is None):
        raise ValueError(f"{function}() needs `image_shape` for relative bounding box "
                         f"formats. Received: bounding_box_format={bounding_box_format!r}, "
                         f"image_shape={image_shape}")
    if image_shape is None:
        return None, None
    if not isinstance(image_shape, (tuple, list)) or len(image_shape) != 3:
        raise ValueError(f"{function}() expects `image_shape` to be (height, width, "
                         f"channels). Received: image_shape={image_shape!r}")
    return image_shape[0], image_shape[1]


def compute_iou(boxes1, boxes2, bounding_box_format, use_masking=False, mask_val=-1,
                image_shape=None):
    """The intersection over union of every box of `boxes1` with every box of `boxes2`.

    Args:
        boxes1: `(M, 4)` or `(batch, M, 4)` boxes.
        boxes2: `(N, 4)` or `(batch, N, 4)` boxes.
        bounding_box_format: the boxes' format (see `convert_format`).
        use_masking: when True, pairs where either box has all four values
            below 0 (padding) get `mask_val`.
        mask_val: the value of masked pairs.
        image_shape: `(height, width, channels)`, needed for relative formats.

    Returns:
        `(M, N)`, or `(batch, M, N)` when either input is batched, float32.

    >>> import numpy as np
    >>> compute_iou(np.array([[0, 0, 2, 2]]), np.array([[1, 0, 3, 2]]), "xyxy").round(4)
    array([[0.3333]], dtype=float32)
    """
    boxes1 = as_boxes("compute_iou", boxes1, "boxes1")
    boxes2 = as_boxes("compute_iou", boxes2, "boxes2")
    for name, boxes in (("boxes1", boxes1), ("boxes2", boxes2)):
        if boxes.ndim not in (2, 3):
            raise ValueError(f"compute_iou() expects `{name}` of shape (N, 4) or "
                             f"(batch, N, 4). Received: {name}.shape={boxes.shape}")
    height, width = _image_size("compute_iou", bounding_box_format, image_shape)
    boxes1 = convert_format(boxes1, bounding_box_format, "yxyx", height, width)
    boxes2 = convert_format(boxes2, bounding_box_format, "yxyx", height, width)
    # boxes1 along rows, boxes2 along columns: (..., M, 1) against (..., 1, N).
    first = boxes1[..., :, None, :]
    second = np.expand_dims(boxes2, -3)
    zero = np.float32(0)
    overlap_h = np.maximum(zero, np.minimum(first[..., 2], second[..., 2])
                           - np.maximum(first[..., 0], second[..., 0]))
    overlap_w = np.maximum(zero, np.minimum(first[..., 3], second[..., 3])
                           - np.maximum(first[..., 1], second[..., 1]))
    intersection = overlap_h * overlap_w
    area1 = (first[..., 2] - first[..., 0]) * (first[..., 3] - first[..., 1])
    area2 = (second[..., 2] - second[..., 0]) * (second[..., 3] - second[..., 1])
    iou = intersection / (area1 + area2 - intersection + np.float32(config.epsilon()))
    if not use_masking:
        return iou
    padding = (boxes1.max(axis=-1) < 0)[..., :, None] | np.expand_dims(
        boxes2.max(axis=-1) < 0, -2)
    return np.where(padding, np.asarray(mask_val).astype(iou.dtype), iou)


def compute_ciou(boxes1, boxes2, bounding_box_format, image_shape=None):
    """The complete IoU of each box in `boxes1` with the box at the same place in `boxes2`.

    CIoU is IoU less two penalties: the squared distance between the centres
    over the squared diagonal of the smallest box enclosing both, and a term
    for the difference of aspect ratios. It is 1 for identical boxes and
    falls below 0 for distant ones.

    Args:
        boxes1, boxes2: boxes of shape `(..., 4)` that broadcast together.
        bounding_box_format: the boxes' format; relative formats are refused,
            as in Keras.
        image_shape: accepted for Keras's signature.

    Returns:
        The CIoU of each pair, shaped as the broadcast boxes less the last axis.

    >>> import numpy as np
    >>> float(compute_ciou(np.array([0, 0, 2, 2]), np.array([0, 0, 2, 2]), "xyxy").round(4))
    1.0
    """
    if isinstance(bounding_box_format, str) and "rel" in bounding_box_format.lower():
        raise ValueError("compute_ciou() does not take relative bounding box formats. "
                         f"Received: bounding_box_format={bounding_box_format!r}")
    height, width = _image_size("compute_ciou", bounding_box_format, image_shape)
    boxes1 = convert_format(as_boxes("compute_ciou", boxes1, "boxes1"), bounding_box_format,
                            "xyxy", height, width)
    boxes2 = convert_format(as_boxes("compute_ciou", boxes2, "boxes2"), bounding_box_format,
                            "xyxy", height, width)
    eps = np.float32(config.epsilon())
    x1a, y1a, x2a, y2a = (boxes1[..., i] for i in range(4))
    x1b, y1b, x2b, y2b = (boxes2[..., i] for i in range(4))
    width_a, height_a = x2a - x1a, y2a - y1a + eps
    width_b, height_b = x2b - x1b, y2b - y1b + eps
    intersection = (np.maximum(np.minimum(x2a, x2b) - np.maximum(x1a, x1b), 0)
                    * np.maximum(np.minimum(y2a, y2b) - np.maximum(y1a, y1b), 0))
    union = width_a * height_a + width_b * height_b - intersection + eps
    iou = intersection / (union + eps)
    enclosing_w = np.maximum(x2a, x2b) - np.minimum(x1a, x1b)
    enclosing_h = np.maximum(y2a, y2b) - np.minimum(y1a, y1b)
    diagonal = enclosing_w ** 2 + enclosing_h ** 2 + eps
    centres = ((x1a + x2a) / 2 - (x1b + x2b) / 2) ** 2 + ((y1a + y2a) / 2 - (y1b + y2b) / 2) ** 2
    aspect = np.float32(4 / math.pi ** 2) * (
        np.arctan(width_b / height_b) - np.arctan(width_a / height_a)) ** 2
    alpha = aspect / (aspect - iou + (1 + eps))
    return iou - (centres / diagonal + aspect * alpha)
