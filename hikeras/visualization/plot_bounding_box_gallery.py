"""plot_bounding_box_gallery: images with their true and predicted boxes, in a grid."""

import numpy as np

from .draw_bounding_boxes import draw_bounding_boxes
from .images import batched_images, data_format_of, to_channels_last
from .plot_image_gallery import plot_image_gallery, require_matplotlib


def plot_bounding_box_gallery(images, bounding_box_format, y_true=None, y_pred=None,
                              value_range=(0, 255), true_color=(0, 188, 212),
                              pred_color=(255, 235, 59), line_thickness=2, font_scale=1.0,
                              text_thickness=None, class_mapping=None,
                              ground_truth_mapping=None, prediction_mapping=None,
                              legend=False, legend_handles=None, rows=None, cols=None,
                              data_format=None, **kwargs):
    """Draws `y_true` and `y_pred` boxes on the images and shows them in a grid.

    The boxes are drawn with `draw_bounding_boxes` (true boxes in
    `true_color`, then predicted ones in `pred_color`), and the grid is laid
    out by `plot_image_gallery`, which receives `kwargs`.

    Args:
        images: `(batch, height, width, channels)` images (or channels first).
        bounding_box_format: the boxes' format.
        y_true, y_pred: bounding-box dicts (`"boxes"`, `"labels"`, optionally
            `"confidences"`), or `None`.
        value_range: the images' value range.
        true_color, pred_color: RGB colours of the two kinds of boxes.
        line_thickness, font_scale, text_thickness: as for
            `draw_bounding_boxes`.
        class_mapping: `{label: name}` for both kinds of boxes, unless
            `ground_truth_mapping` or `prediction_mapping` replace it.
        legend: add a legend naming the two colours.
        legend_handles: matplotlib handles for a legend of your own (not with
            `legend=True`).
        rows, cols: the grid's size.
        data_format: `"channels_last"` or `"channels_first"`.

    Returns:
        The matplotlib `Figure`.
    """
    name = "plot_bounding_box_gallery"
    require_matplotlib(name)
    if legend and legend_handles:
        raise ValueError(f"{name}() takes `legend` or `legend_handles`, not both. Received: "
                         f"legend=True, legend_handles={legend_handles!r}")
    images = to_channels_last(batched_images(name, images), data_format_of(name, data_format))
    plotted = images
    draw = {"bounding_box_format": bounding_box_format, "line_thickness": line_thickness,
            "text_thickness": text_thickness, "font_scale": font_scale,
            "data_format": "channels_last"}
    if y_true is not None:
        plotted = draw_bounding_boxes(plotted, y_true, color=true_color,
                                      class_mapping=ground_truth_mapping or class_mapping,
                                      **draw)
    if y_pred is not None:
        plotted = draw_bounding_boxes(plotted, y_pred, color=pred_color,
                                      class_mapping=prediction_mapping or class_mapping, **draw)
    if legend:
        from matplotlib import patches
        legend_handles = [
            patches.Patch(color=np.array(true_color) / 255.0, label="Ground Truth"),
            patches.Patch(color=np.array(pred_color) / 255.0, label="Prediction")]
    if plotted is not images:
        # The drawing read the pixels in Keras's way and returned uint8 in [0, 255].
        value_range = (0, 255)
    return plot_image_gallery(plotted, value_range=value_range, legend_handles=legend_handles,
                              rows=rows, cols=cols, data_format="channels_last", **kwargs)
