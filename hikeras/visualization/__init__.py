"""`hikeras.visualization`: Keras 3's helpers to look at images, boxes and masks.

`draw_bounding_boxes` and `draw_segmentation_masks` return annotated numpy
images and need nothing beyond numpy (Pillow, the `image` extra, only to
write class names). The `plot_*_gallery` functions lay images out in a
matplotlib grid (`pip install "hikeras[plot]"`) and return the figure.
"""

from .draw_bounding_boxes import draw_bounding_boxes
from .draw_segmentation_masks import draw_segmentation_masks
from .plot_bounding_box_gallery import plot_bounding_box_gallery
from .plot_image_gallery import plot_image_gallery
from .plot_segmentation_mask_gallery import plot_segmentation_mask_gallery

__all__ = [
    "draw_bounding_boxes",
    "draw_segmentation_masks",
    "plot_bounding_box_gallery",
    "plot_image_gallery",
    "plot_segmentation_mask_gallery",
]
