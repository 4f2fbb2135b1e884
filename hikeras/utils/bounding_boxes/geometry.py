"""Moving boxes with their images: `affine_transform`, `clip_to_image_size`, `crop`, `pad`.

Like Keras, these take boxes in `"xyxy"` (and `clip_to_image_size` also in
`"rel_xyxy"`); other formats raise `NotImplementedError`, so convert first
with `convert_format`.
"""

import math

import numpy as np

from .formats import as_boxes


def _require_xyxy(function, bounding_box_format, allowed=("xyxy",)):
    if bounding_box_format not in allowed:
        raise NotImplementedError(
            f"{function}() handles boxes in {allowed} only; convert them first with "
            f"convert_format(). Received: bounding_box_format={bounding_box_format!r}")


def _corners(boxes):
    return tuple(boxes[..., i:i + 1] for i in range(4))


def clip_to_image_size(bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """Clips boxes to the image, and marks the boxes left empty with label -1.

    Args:
        bounding_boxes: a dict with `"boxes"` of shape `(N, 4)` or
            `(batch, N, 4)` and optionally `"labels"` of shape `(N,)` or
            `(batch, N)`.
        height, width: the image size, required for `"xyxy"` boxes.
        bounding_box_format: `"xyxy"` (default) or `"rel_xyxy"` (clipped to
            [0, 1]).

    Returns:
        A copy of the dict with clipped `"boxes"` and, where there are labels,
        -1 for every box whose clipped area is not positive.

    >>> import numpy as np
    >>> out = clip_to_image_size({"boxes": np.array([[-10., -20., 150., 160.]]),
    ...                           "labels": np.array([3])}, height=100, width=120)
    >>> out["boxes"].tolist(), out["labels"].tolist()
    ([[0.0, 0.0, 120.0, 100.0]], [3])
    """
    _require_xyxy("clip_to_image_size", bounding_box_format, ("xyxy", "rel_xyxy"))
    if not isinstance(bounding_boxes, dict) or "boxes" not in bounding_boxes:
        raise ValueError("clip_to_image_size() expects a dict with keys 'boxes' and "
                         f"(optionally) 'labels'. Received: bounding_boxes={bounding_boxes!r}")
    if bounding_box_format == "xyxy" and (height is None or width is None):
        raise ValueError("clip_to_image_size() needs `height` and `width` for 'xyxy' boxes. "
                         f"Received: height={height}, width={width}")
    boxes = as_boxes("clip_to_image_size", bounding_boxes["boxes"])
    if bounding_box_format == "rel_xyxy":
        height = width = 1.0
    height = np.asarray(height).astype(boxes.dtype)
    width = np.asarray(width).astype(boxes.dtype)
    x1, y1, x2, y2 = _corners(boxes)
    boxes = np.concatenate([np.clip(x1, 0, width), np.clip(y1, 0, height),
                            np.clip(x2, 0, width), np.clip(y2, 0, height)], axis=-1)
    result = dict(bounding_boxes)
    result["boxes"] = boxes
    labels = bounding_boxes.get("labels")
    if labels is not None:
        areas = (boxes[..., 2] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 1])
        result["labels"] = np.where(areas > 0, labels, -1)
    return result


def crop(boxes, top, left, height, width, bounding_box_format="xyxy"):
    """The boxes in the coordinates of a cropped window of the image, clipped to it.

    Args:
        boxes: `"xyxy"` boxes of shape `(N, 4)` or `(batch, N, 4)`.
        top, left: the window's top-left corner in the image.
        height, width: the window's size (`None`: no clipping on that side).
        bounding_box_format: must be `"xyxy"`.

    >>> import numpy as np
    >>> crop(np.array([[10, 20, 50, 60]]), top=10, left=20, height=40, width=30).tolist()
    [[0, 10, 30, 40]]
    """
    _require_xyxy("crop", bounding_box_format)
    x1, y1, x2, y2 = _corners(as_boxes("crop", boxes))
    return np.concatenate([np.clip(x1 - left, 0, width), np.clip(y1 - top, 0, height),
                           np.clip(x2 - left, 0, width), np.clip(y2 - top, 0, height)],
                          axis=-1)


def pad(boxes, top, left, height=None, width=None, bounding_box_format="xyxy"):
    """The boxes in the coordinates of the image padded by `top` rows and `left` columns.

    `height` and `width` are accepted for Keras's signature and not used.

    >>> import numpy as np
    >>> pad(np.array([[1, 2, 3, 4]]), top=10, left=5).tolist()
    [[6, 12, 8, 14]]
    """
    _require_xyxy("pad", bounding_box_format)
    x1, y1, x2, y2 = _corners(as_boxes("pad", boxes))
    return np.concatenate([x1 + left, y1 + top, x2 + left, y2 + top], axis=-1)


def _per_image(name, value, batch, dtype):
    value = np.asarray(value, dtype=dtype)
    if value.ndim > 1 or (value.ndim == 1 and value.shape[0] not in (1, batch)):
        raise ValueError(f"affine_transform() expects `{name}` to be a number or one value "
                         f"per image ({batch}). Received: {name}.shape={value.shape}")
    return np.broadcast_to(value, (batch,))


def _inverse_affine(center_x, center_y, angle, translate_x, translate_y, scale, shear_x,
                    shear_y, height, width):
    """The `(batch, 2, 3)` matrix that maps a point of the input to the output image.

    This is the inverse of the image transform: rotation and shears are
    undone about the centre, in Keras's (TorchVision's) parametrisation.
    """
    degree = np.asarray(math.pi / 180.0, angle.dtype)
    cx, cy = center_x * (width - 1), center_y * (height - 1)
    rot = -angle * degree
    tx, ty = -translate_x * (width - 1), -translate_y * (height - 1)
    sx, sy = -shear_x * degree, -shear_y * degree
    cos_sy, tan_sx = np.cos(sy), np.tan(sx)
    a = np.cos(rot - sy) / cos_sy
    b = a * tan_sx + np.sin(rot)
    c = -np.sin(rot - sy) / cos_sy
    d = np.cos(rot) - c * tan_sx
    a0, a1, b0, b1 = d * scale, -b * scale, -c * scale, a * scale
    a2 = cx - a0 * (cx + tx) - a1 * (cy + ty)
    b2 = cy - b0 * (cx + tx) - b1 * (cy + ty)
    return np.stack([np.stack([a0, a1, a2], -1), np.stack([b0, b1, b2], -1)], axis=1)


def affine_transform(boxes, angle, translate_x, translate_y, scale, shear_x, shear_y, height,
                     width, center_x=None, center_y=None, bounding_box_format="xyxy"):
    """Moves boxes through a rotation, translation, scaling and shear of their image.

    Each box's four corners are transformed and the result is their bounding
    box, so a rotated box grows to contain the rotated one.

    Args:
        boxes: `"xyxy"` boxes of shape `(batch, N, 4)` (or `(N, 4)` for one
            image).
        angle: rotation in degrees, one value per image (or one number).
        translate_x, translate_y: shifts as fractions of `width - 1` and
            `height - 1`.
        scale: the scaling factor.
        shear_x, shear_y: shear angles in degrees.
        height, width: the image size.
        center_x, center_y: the transform's centre as fractions of the image
            (default 0.5).
        bounding_box_format: must be `"xyxy"`.

    Returns:
        The transformed boxes, shaped as `boxes`, in the dtype of `angle`
        (float32 for Python numbers).

    >>> import numpy as np
    >>> boxes = np.array([[[2.0, 2.0, 4.0, 4.0]]])
    >>> affine_transform(boxes, 0, 0.5, 0, 1, 0, 0, height=9, width=9).tolist()
    [[[6.0, 2.0, 8.0, 4.0]]]
    """
    _require_xyxy("affine_transform", bounding_box_format)
    boxes = as_boxes("affine_transform", boxes)
    if boxes.ndim not in (2, 3):
        raise ValueError("affine_transform() expects `boxes` of shape (N, 4) or "
                         f"(batch, N, 4). Received: boxes.shape={boxes.shape}")
    single = boxes.ndim == 2
    if single:
        boxes = boxes[None]
    angle_dtype = np.asarray(angle).dtype
    dtype = angle_dtype if angle_dtype.kind == "f" else np.dtype("float32")
    batch = boxes.shape[0]
    values = {name: _per_image(name, value, batch, dtype) for name, value in (
        ("angle", angle), ("translate_x", translate_x), ("translate_y", translate_y),
        ("scale", scale), ("shear_x", shear_x), ("shear_y", shear_y),
        ("center_x", 0.5 if center_x is None else center_x),
        ("center_y", 0.5 if center_y is None else center_y))}
    matrix = _inverse_affine(height=np.asarray(height, dtype), width=np.asarray(width, dtype),
                             **values)
    boxes = boxes.astype(dtype)
    x1, y1, x2, y2 = (boxes[..., i] for i in range(4))
    # The four corners (x, y, 1) of each box: (batch, N, 4 corners, 3).
    corners = np.stack([np.stack([x1, y1], -1), np.stack([x2, y1], -1),
                        np.stack([x2, y2], -1), np.stack([x1, y2], -1)], axis=2)
    corners = np.concatenate([corners, np.ones(corners.shape[:-1] + (1,), dtype)], axis=-1)
    moved = np.einsum("bnkc,bdc->bnkd", corners, matrix)
    out = np.concatenate([moved.min(axis=2), moved.max(axis=2)], axis=-1)
    return out[0] if single else out
