"""draw_segmentation_masks: class masks painted over a batch of images."""

import numpy as np

from .images import batched_images, data_format_of, to_channels_last


def default_colors(num_classes):
    """Keras's palette: class `i` gets `(i * (2**25 - 1, 2**15 - 1, 2**21 - 1)) % 255`."""
    palette = np.array([2 ** 25 - 1, 2 ** 15 - 1, 2 ** 21 - 1])
    return [((i * palette) % 255).tolist() for i in range(num_classes)]


def _masks(function, segmentation_masks, images, data_format):
    masks = np.asarray(segmentation_masks)
    if masks.dtype.kind not in "iu":
        raise TypeError(f"{function}() expects `segmentation_masks` of an integer dtype. "
                        f"Received: segmentation_masks.dtype={masks.dtype}")
    if masks.ndim == 4:
        masks = to_channels_last(masks, data_format)[..., 0]
    if masks.shape != images.shape[:3]:
        raise ValueError(f"{function}() expects one mask value per pixel: masks of shape "
                         f"{images.shape[:3]} (or with a trailing axis of 1). "
                         f"Received: segmentation_masks.shape={np.shape(segmentation_masks)}")
    return masks


def draw_segmentation_masks(images, segmentation_masks, num_classes=None, color_mapping=None,
                            alpha=0.8, blend=True, ignore_index=-1, data_format=None):
    """Paints each pixel of a batch of images with the colour of its mask class.

    Classes are `0, ..., num_classes - 1`; each is painted in its colour
    (`color_mapping[class]`, or Keras's palette), and values outside that
    range are left unpainted. When `num_classes` is inferred it is the
    largest mask value, so that value itself is not painted, as in Keras;
    pass `num_classes=max + 1` to paint it.

    Args:
        images: `(batch, height, width, channels)` images (or channels first).
        segmentation_masks: integer masks `(batch, height, width)` or with a
            channel axis of 1.
        num_classes: the number of classes (default: the largest mask value).
        color_mapping: `{class: (r, g, b)}` for every class, or `None`.
        alpha: the masks' opacity when blending.
        blend: mix `alpha` of the colours into the images and return uint8
            (pixels equal to `ignore_index` keep the image); if False, return
            the painted images as float32.
        ignore_index: the mask value that is never painted.
        data_format: `"channels_last"` or `"channels_first"` (default: the
            configured image data format). The result has the images' layout.

    Returns:
        The painted images as a numpy array.

    >>> import numpy as np
    >>> out = draw_segmentation_masks(np.zeros((1, 1, 2, 3)), np.array([[[0, 1]]]),
    ...                               num_classes=2, color_mapping={0: (10, 20, 30),
    ...                                                             1: (100, 0, 0)}, alpha=0.5)
    >>> out[0, 0].tolist()
    [[5, 10, 15], [50, 0, 0]]
    """
    name = "draw_segmentation_masks"
    images = batched_images(name, images)
    data_format = data_format_of(name, data_format)
    images = to_channels_last(images, data_format).astype("float32")
    masks = _masks(name, segmentation_masks, images, data_format)
    if num_classes is None:
        num_classes = int(masks.max()) if masks.size else 0
    if color_mapping is None:
        colors = default_colors(num_classes)
    else:
        missing = [i for i in range(num_classes) if i not in color_mapping]
        if missing:
            raise ValueError(f"{name}() expects `color_mapping` to give a colour for every "
                             f"class 0..{num_classes - 1}. Missing: {missing}. Received: "
                             f"color_mapping={color_mapping!r}")
        colors = [color_mapping[i] for i in range(num_classes)]
    painted = images.copy()
    for index, color in enumerate(colors):
        painted[masks == index] = np.asarray(color, dtype="float32")
    if blend:
        mixed = images * (1 - alpha) + painted * alpha
        painted = np.where((masks != ignore_index)[..., None], mixed, images)
        painted = painted.astype("uint8")
    return painted.transpose(0, 3, 1, 2) if data_format == "channels_first" else painted
