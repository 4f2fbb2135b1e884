"""plot_segmentation_mask_gallery: each image beside its true and predicted masks."""

import numpy as np

from .draw_segmentation_masks import draw_segmentation_masks
from .images import batched_images, data_format_of, to_channels_last
from .plot_image_gallery import plot_image_gallery, require_matplotlib


def plot_segmentation_mask_gallery(images, num_classes, value_range=(0, 255), y_true=None,
                                   y_pred=None, color_mapping=None, blend=True, alpha=0.8,
                                   ignore_index=-1, data_format=None, **kwargs):
    """Shows one row per image: the image, then `y_true`'s and `y_pred`'s masks drawn on it.

    The masks are drawn with `draw_segmentation_masks` and the grid laid out
    by `plot_image_gallery`, which receives `kwargs`.

    Args:
        images: `(batch, height, width, channels)` images (or channels first).
        num_classes: the number of classes.
        value_range: the images' value range.
        y_true, y_pred: integer masks `(batch, height, width)` (or with a
            channel axis of 1), or `None`.
        color_mapping, blend, alpha, ignore_index: as for
            `draw_segmentation_masks`.
        data_format: `"channels_last"` or `"channels_first"`.

    Returns:
        The matplotlib `Figure`.
    """
    name = "plot_segmentation_mask_gallery"
    require_matplotlib(name)
    data_format = data_format_of(name, data_format)
    images = to_channels_last(batched_images(name, images), data_format).astype("float32")
    drawn = []
    for masks in (y_true, y_pred):
        if masks is None:
            continue
        masks = np.asarray(masks)
        if masks.ndim == 4:
            masks = to_channels_last(masks, data_format)
        drawn.append(draw_segmentation_masks(
            images, masks.astype("int32"), num_classes=num_classes,
            color_mapping=color_mapping, alpha=alpha, blend=blend, ignore_index=ignore_index,
            data_format="channels_last").astype("float32"))
    gallery = np.stack([column[i] for i in range(len(images))
                        for column in [images, *drawn]], axis=0)
    return plot_image_gallery(gallery, value_range=value_range, rows=len(images),
                              cols=1 + len(drawn), data_format="channels_last", **kwargs)
