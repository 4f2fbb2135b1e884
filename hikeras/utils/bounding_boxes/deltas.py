"""Boxes as offsets from anchors: `encode_box_to_deltas` and its inverse.

A box is encoded against its anchor in a centre format: the centre's offset
divided by the anchor's size, then the log of the size ratio, each optionally
divided by a `variance`. This is the regression target of SSD/RetinaNet-style
detection heads.
"""

import numpy as np

from ... import config
from .formats import check_format, convert_format

_ENCODINGS = ("center_xywh", "center_yxhw")


def _variance(function, variance):
    if variance is None:
        return None
    variance = np.asarray(variance, dtype="float32")
    if variance.ndim < 1 or variance.shape[-1] != 4:
        raise ValueError(f"{function}() expects `variance` to have 4 values. "
                         f"Received: variance={variance.tolist()}")
    return variance


def _image_size(function, image_shape):
    if image_shape is None:
        return None, None
    if not isinstance(image_shape, (tuple, list)) or len(image_shape) != 3:
        raise ValueError(f"{function}() expects `image_shape` to be (height, width, "
                         f"channels). Received: image_shape={image_shape!r}")
    return image_shape[0], image_shape[1]


def encode_box_to_deltas(anchors, boxes, anchor_format, box_format,
                         encoding_format="center_yxhw", variance=None, image_shape=None):
    """Encodes boxes as deltas from their anchors.

    Args:
        anchors: `(N, 4)` anchor boxes in `anchor_format`.
        boxes: `(N, 4)` or `(batch, N, 4)` boxes in `box_format`.
        anchor_format, box_format: bounding-box formats (see `convert_format`).
        encoding_format: `"center_yxhw"` (default) or `"center_xywh"`: the
            order of the deltas.
        variance: 4 numbers the deltas are divided by, or `None`.
        image_shape: `(height, width, channels)`, needed for relative formats.

    Returns:
        Float32 deltas shaped as `boxes`.

    >>> import numpy as np
    >>> anchors = np.array([[0.0, 0.0, 10.0, 10.0]])
    >>> encode_box_to_deltas(anchors, np.array([[5.0, 0.0, 15.0, 10.0]]), "xyxy", "xyxy",
    ...                      encoding_format="center_xywh").tolist()
    [[0.5, 0.0, 0.0, 0.0]]
    """
    variance = _variance("encode_box_to_deltas", variance)
    check_format("encode_box_to_deltas", "encoding_format", encoding_format, _ENCODINGS)
    height, width = _image_size("encode_box_to_deltas", image_shape)
    anchors = convert_format(anchors, anchor_format, encoding_format, height, width)
    boxes = convert_format(boxes, box_format, encoding_format, height, width)
    epsilon = np.float32(config.epsilon())
    anchor_size = np.maximum(anchors[..., 2:], epsilon)
    box_size = np.maximum(boxes[..., 2:], epsilon)
    deltas = np.concatenate([(boxes[..., :2] - anchors[..., :2]) / anchor_size,
                             np.log(box_size / anchor_size)], axis=-1)
    return deltas if variance is None else deltas / variance


def decode_deltas_to_boxes(anchors, boxes_delta, anchor_format, box_format,
                           encoded_format="center_yxhw", variance=None, image_shape=None):
    """Turns deltas back into boxes, undoing `encode_box_to_deltas`.

    Args:
        anchors: `(N, 4)` anchors in `anchor_format`, or a dict of them per
            feature level.
        boxes_delta: `(N, 4)` or `(batch, N, 4)` deltas, or a dict with the
            same keys as `anchors`.
        anchor_format: the anchors' format.
        box_format: the format of the returned boxes.
        encoded_format: `"center_yxhw"` (default) or `"center_xywh"`: the
            order of the deltas.
        variance: 4 numbers the deltas are multiplied by, or `None`.
        image_shape: `(height, width, channels)`, needed for relative formats.

    Returns:
        Float32 boxes in `box_format` (a dict per level for dict inputs).

    >>> import numpy as np
    >>> anchors = np.array([[0.0, 0.0, 10.0, 10.0]])
    >>> decode_deltas_to_boxes(anchors, np.array([[0.5, 0.0, 0.0, 0.0]]), "xyxy", "xyxy",
    ...                        encoded_format="center_xywh").tolist()
    [[5.0, 0.0, 15.0, 10.0]]
    """
    variance = _variance("decode_deltas_to_boxes", variance)
    check_format("decode_deltas_to_boxes", "encoded_format", encoded_format, _ENCODINGS)
    height, width = _image_size("decode_deltas_to_boxes", image_shape)

    def decode(anchor, delta):
        anchor = convert_format(anchor, anchor_format, encoded_format, height, width)
        delta = np.asarray(delta)
        if variance is not None:
            delta = delta * variance
        boxes = np.concatenate([delta[..., :2] * anchor[..., 2:] + anchor[..., :2],
                                np.exp(delta[..., 2:]) * anchor[..., 2:]], axis=-1)
        return convert_format(boxes, encoded_format, box_format, height, width)

    if isinstance(anchors, dict) and isinstance(boxes_delta, dict):
        return {level: decode(anchor, boxes_delta[level]) for level, anchor in anchors.items()}
    return decode(anchors, boxes_delta)
