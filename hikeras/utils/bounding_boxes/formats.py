"""Keras's bounding-box formats and `convert_format` between them.

Every conversion goes through `xyxy` (`[left, top, right, bottom]` in pixels),
computed in the requested dtype in Keras's order of operations, so float32
results match Keras bit for bit. The `rel_*` formats divide x by the image
width and y by its height.
"""

import numpy as np

FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw",
           "rel_xyxy", "rel_yxyx", "rel_xywh", "rel_center_xywh")


def check_format(function, argument, value, allowed=FORMATS):
    """`value` lower-cased, or a Keras-style error naming the function and argument."""
    if not isinstance(value, str) or value.lower() not in allowed:
        raise ValueError(f"{function}() expects `{argument}` to be one of {allowed}. "
                         f"Received: {argument}={value!r}")
    return value.lower()


def as_boxes(function, boxes, argument="boxes"):
    """`boxes` as an array whose last axis has length 4."""
    boxes = np.asarray(boxes)
    if boxes.ndim < 1 or boxes.shape[-1] != 4:
        raise ValueError(f"{function}() expects `{argument}` to have a last dimension of 4. "
                         f"Received: {argument}.shape={boxes.shape}")
    return boxes


def _columns(boxes):
    return tuple(boxes[..., i:i + 1] for i in range(4))


def _join(*columns):
    return np.concatenate(columns, axis=-1)


def _to_xyxy(boxes, source, height, width):
    a, b, c, d = _columns(boxes)
    if source == "xyxy":
        return boxes
    if source == "yxyx":
        return _join(b, a, d, c)
    if source == "xywh":
        return _join(a, b, a + c, b + d)
    if source in ("center_xywh", "center_yxhw"):
        cx, cy, w, h = (a, b, c, d) if source == "center_xywh" else (b, a, d, c)
        return _join(cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0)
    if source == "rel_xyxy":
        return _join(a * width, b * height, c * width, d * height)
    if source == "rel_yxyx":
        return _join(b * width, a * height, d * width, c * height)
    if source == "rel_xywh":
        return _join(a * width, b * height, (a + c) * width, (b + d) * height)
    # rel_center_xywh
    return _join((a - c / 2.0) * width, (b - d / 2.0) * height,
                 (a + c / 2.0) * width, (b + d / 2.0) * height)


def _from_xyxy(boxes, target, height, width):
    x1, y1, x2, y2 = _columns(boxes)
    if target == "xyxy":
        return boxes
    if target == "yxyx":
        return _join(y1, x1, y2, x2)
    if target == "xywh":
        return _join(x1, y1, x2 - x1, y2 - y1)
    if target in ("center_xywh", "center_yxhw"):
        cx, cy = x1 + (x2 - x1) / 2.0, y1 + (y2 - y1) / 2.0
        w, h = x2 - x1, y2 - y1
        return _join(cx, cy, w, h) if target == "center_xywh" else _join(cy, cx, h, w)
    if target == "rel_xyxy":
        return _join(x1 / width, y1 / height, x2 / width, y2 / height)
    if target == "rel_yxyx":
        return _join(y1 / height, x1 / width, y2 / height, x2 / width)
    if target == "rel_xywh":
        return _join(x1 / width, y1 / height, (x2 - x1) / width, (y2 - y1) / height)
    # rel_center_xywh
    return _join((x1 + (x2 - x1) / 2.0) / width, (y1 + (y2 - y1) / 2.0) / height,
                 (x2 - x1) / width, (y2 - y1) / height)


def convert_format(boxes, source, target, height=None, width=None, dtype="float32"):
    """Converts bounding boxes from one format to another.

    Formats (case-insensitive): `"xyxy"` `[left, top, right, bottom]`,
    `"yxyx"` `[top, left, bottom, right]`, `"xywh"` `[left, top, width,
    height]`, `"center_xywh"` `[center_x, center_y, width, height]`,
    `"center_yxhw"` `[center_y, center_x, height, width]`, and the relative
    `"rel_xyxy"`, `"rel_yxyx"`, `"rel_xywh"`, `"rel_center_xywh"`, whose x
    values are fractions of the image width and y values of its height.

    Args:
        boxes: an array of shape `(..., 4)`, or a dict whose `"boxes"` entry
            is one (the dict's other entries are kept).
        source: the format of `boxes`.
        target: the format to return.
        height, width: the image size; required when either format is relative
            (and only one of them is).
        dtype: the dtype the boxes are converted and computed in.

    Returns:
        The converted array in `dtype` (or a copy of the dict with converted
        `"boxes"`).

    >>> import numpy as np
    >>> convert_format(np.array([[10, 20, 30, 40]]), "xyxy", "xywh").tolist()
    [[10.0, 20.0, 20.0, 20.0]]
    """
    if isinstance(boxes, dict):
        converted = dict(boxes)
        converted["boxes"] = convert_format(boxes["boxes"], source, target, height=height,
                                            width=width, dtype=dtype)
        return converted
    boxes = as_boxes("convert_format", boxes)
    source = check_format("convert_format", "source", source)
    target = check_format("convert_format", "target", target)
    if (source.startswith("rel_") or target.startswith("rel_")) and (
            height is None or width is None):
        raise ValueError("convert_format() needs `height` and `width` to convert between "
                         f"relative and absolute formats. Received: source={source!r}, "
                         f"target={target!r}, height={height}, width={width}")
    boxes = boxes.astype(dtype)
    if source == target:
        return boxes
    if source.startswith("rel_") and target.startswith("rel_"):
        source, target = source[4:], target[4:]
    height = None if height is None else np.asarray(height).astype(dtype)
    width = None if width is None else np.asarray(width).astype(dtype)
    return _from_xyxy(_to_xyxy(boxes, source, height, width), target, height, width)
