"""`hikeras.utils.bounding_boxes`: Keras 3's bounding-box helpers, on numpy arrays.

Boxes are arrays whose last axis holds 4 numbers, in one of Keras's formats
(`formats.FORMATS`). The helpers convert between formats, move boxes with the
geometric transforms images go through, encode boxes against anchors, and
measure overlap.
"""

from .deltas import decode_deltas_to_boxes, encode_box_to_deltas
from .formats import convert_format
from .geometry import affine_transform, clip_to_image_size, crop, pad
from .iou import compute_ciou, compute_iou

__all__ = [
    "affine_transform",
    "clip_to_image_size",
    "compute_ciou",
    "compute_iou",
    "convert_format",
    "crop",
    "decode_deltas_to_boxes",
    "encode_box_to_deltas",
    "pad",
]
