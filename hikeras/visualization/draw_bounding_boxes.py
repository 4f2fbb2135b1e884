"""draw_bounding_boxes: box outlines (and class names) drawn onto a batch of images."""

import numpy as np

from ..utils.bounding_boxes import convert_format
from .images import batched_images, data_format_of, to_channels_last


def _as_uint8(images):
    """Keras's reading of pixel values: floats up to 1 are scaled by 255, others clipped."""
    if images.dtype.kind == "f" and images.size > 0:
        images = np.clip(images, 0, 1) * 255 if images.max() <= 1.0 else np.clip(images, 0, 255)
    return images.astype("uint8")


def _paint(image, y, x, colour):
    """Sets the pixels at the (clipped) row and column ranges `y`, `x` to `colour`."""
    height, width = image.shape[:2]
    y0, y1 = max(y[0], 0), min(y[1], height)
    x0, x1 = max(x[0], 0), min(x[1], width)
    if y0 < y1 and x0 < x1:
        image[y0:y1, x0:x1] = colour


def _outline(image, box, colour, thickness):
    """A rectangle outline `thickness` pixels wide, centred on the box's edges.

    Pixel rows `y1` and `y2` and columns `x1` and `x2` are on the outline (a
    1-pixel outline is exactly those, as OpenCV draws it); a thicker outline
    grows `thickness // 2` pixels outwards and the rest inwards.
    """
    x1, y1, x2, y2 = box
    out = thickness // 2
    top, bottom, left, right = y1 - out, y2 + out + 1, x1 - out, x2 + out + 1
    _paint(image, (top, top + thickness), (left, right), colour)
    _paint(image, (bottom - thickness, bottom), (left, right), colour)
    _paint(image, (top, bottom), (left, left + thickness), colour)
    _paint(image, (top, bottom), (right - thickness, right), colour)


def _label_position(x, y, font_scale, thickness):
    """Where the label's text starts: above the box when it fits, else inside it (Keras's rule)."""
    font_height = int(font_scale * 12)
    if y - 8 - 2 * font_height > 0:
        return x, y - 8
    return x + 3, y + 2 * font_height + thickness + 3


def _write(image, text, position, colour, font_scale):
    """Writes `text` with its baseline at `position` (needs Pillow, the `image` extra)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as err:
        raise ImportError("draw_bounding_boxes() needs Pillow to write class names "
                          '(`class_mapping`). Install it with: pip install "hikeras[image]"'
                          ) from err
    channels = image.shape[-1]
    canvas = Image.fromarray(image[..., 0] if channels == 1 else image[..., :3])
    try:
        font = ImageFont.load_default(size=max(round(20 * font_scale), 1))
    except TypeError:  # Pillow before 10.1 has one fixed-size bitmap font
        font = ImageFont.load_default()
    ImageDraw.Draw(canvas).text(position, text, fill=tuple(colour[:3]) if channels > 1
                                else int(colour[0]), font=font, anchor="ls")
    drawn = np.asarray(canvas)
    if channels == 1:
        image[..., 0] = drawn
    else:
        image[..., :3] = drawn


def _colour(function, color, channels):
    colour = np.asarray(color, dtype="float64").reshape(-1)
    if colour.size not in (1, 3, 4) or np.any(colour < 0) or np.any(colour > 255):
        raise ValueError(f"{function}() expects `color` to be 1, 3 or 4 values in [0, 255]. "
                         f"Received: color={color!r}")
    if colour.size < channels:
        colour = np.concatenate([colour, np.full(channels - colour.size, 255.0)])
    return colour[:channels].astype("uint8")


def draw_bounding_boxes(images, bounding_boxes, bounding_box_format, class_mapping=None,
                        color=(128, 128, 128), line_thickness=2, text_thickness=1,
                        font_scale=1.0, data_format=None):
    """Draws bounding boxes on a batch of images.

    Pixel values are read as Keras reads them: float images whose largest
    value is at most 1 are scaled by 255, others clipped to [0, 255]; the
    result is uint8. Each box with a label other than -1 is outlined; when
    `class_mapping` names its label, the name (and its confidence, if given)
    is written above the box. Keras draws with OpenCV; here outlines are
    drawn in numpy (a 1-pixel outline is OpenCV's; thicker ones are square
    cornered) and text with Pillow, so text pixels differ from Keras's.

    Args:
        images: `(batch, height, width, channels)` images (or channels first).
        bounding_boxes: a dict with `"boxes"` `(batch, num_boxes, 4)`,
            `"labels"` `(batch, num_boxes)` and optionally `"confidences"`.
        bounding_box_format: the boxes' format (see
            `hikeras.utils.bounding_boxes.convert_format`).
        class_mapping: `{label: name}` for the names to write.
        color: the RGB outline and text colour.
        line_thickness: the outline's width in pixels.
        text_thickness: the text's stroke width (`None`: `line_thickness`).
        font_scale: the text size relative to the default.
        data_format: `"channels_last"` or `"channels_first"` (default: the
            configured image data format).

    Returns:
        The annotated images, a uint8 array shaped as `images`.

    >>> import numpy as np
    >>> out = draw_bounding_boxes(np.zeros((1, 6, 6, 3)),
    ...                           {"boxes": np.array([[[1, 1, 4, 4]]]), "labels": np.array([[0]])},
    ...                           "xyxy", color=(255, 0, 0), line_thickness=1)
    >>> out[0, :, :, 0].tolist()[1]
    [0, 255, 255, 255, 255, 0]
    """
    name = "draw_bounding_boxes"
    images = batched_images(name, images)
    data_format = data_format_of(name, data_format)
    if not isinstance(bounding_boxes, dict):
        raise TypeError(f"{name}() expects `bounding_boxes` to be a dict. "
                        f"Received: bounding_boxes of type {type(bounding_boxes).__name__}")
    if "boxes" not in bounding_boxes or "labels" not in bounding_boxes:
        raise ValueError(f"{name}() expects `bounding_boxes` to have keys 'boxes' and 'labels'."
                         f" Received: keys={sorted(bounding_boxes)}")
    if not isinstance(line_thickness, (int, np.integer)) or line_thickness < 1:
        raise ValueError(f"{name}() expects `line_thickness` to be a positive integer. "
                         f"Received: line_thickness={line_thickness!r}")
    class_mapping = class_mapping or {}
    text_thickness = text_thickness or line_thickness
    pixels = _as_uint8(to_channels_last(images, data_format)).copy()
    height, width = pixels.shape[1:3]
    boxes = convert_format(bounding_boxes["boxes"], bounding_box_format, "xyxy", height, width)
    labels = np.asarray(bounding_boxes["labels"])
    confidences = bounding_boxes.get("confidences")
    if boxes.shape[:2] != (len(pixels), labels.shape[1] if labels.ndim == 2 else -1):
        raise ValueError(f"{name}() expects boxes of shape (batch, num_boxes, 4) and labels of "
                         f"shape (batch, num_boxes) for {len(pixels)} images. Received: "
                         f"boxes.shape={boxes.shape}, labels.shape={labels.shape}")
    colour = _colour(name, color, pixels.shape[-1])
    for image, image_boxes, image_labels, index in zip(pixels, boxes, labels,
                                                       range(len(pixels))):
        for box_index, (box, label) in enumerate(zip(image_boxes.astype("int32"),
                                                     image_labels.astype("int32"))):
            if label == -1:
                continue
            _outline(image, box, colour, int(line_thickness))
            if int(label) in class_mapping:
                text = str(class_mapping[int(label)])
                if confidences is not None:
                    text = f"{text} | {float(np.asarray(confidences)[index][box_index]):.2f}"
                position = _label_position(int(box[0]), int(box[1]), font_scale, text_thickness)
                _write(image, text, position, colour, font_scale)
    return pixels.transpose(0, 3, 1, 2) if data_format == "channels_first" else pixels
