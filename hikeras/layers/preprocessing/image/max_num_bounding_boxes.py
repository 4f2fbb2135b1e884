"""MaxNumBoundingBoxes: a fixed number of boxes per image, so box batches stack."""

import numpy as np

from .base_image_layer import _ImageLayer, _is_number, _positive_int
from .bounding_box_inputs import batched_boxes, check_data, unbatched

__all__ = ["MaxNumBoundingBoxes"]


class MaxNumBoundingBoxes(_ImageLayer):
    """Pads or truncates each image's bounding boxes to `max_number`.

    Called on `{"images": ..., "bounding_boxes": {"boxes": ..., "labels":
    ...}}`, it keeps the first `max_number` boxes and labels of every image
    and pads the rest with `fill_value`, so images with different numbers of
    boxes give arrays of one shape. The images (and any other entry) pass
    through unchanged, and so does an input that is not a dict. Like Keras,
    it asks for a `bounding_box_format` with boxes, though it reads no
    coordinate.

    Args:
        max_number: the number of boxes per image in the output.
        fill_value: the value of the padding boxes' coordinates and labels
            (default -1).

    >>> import numpy as np
    >>> out = MaxNumBoundingBoxes(3, bounding_box_format="xyxy")({
    ...     "images": np.zeros((1, 8, 8, 3)),
    ...     "bounding_boxes": {"boxes": np.array([[[0, 0, 4, 4]]]), "labels": np.array([[2]])}})
    >>> out["bounding_boxes"]["labels"].tolist()
    [[2, -1, -1]]
    """

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        self.max_number = _positive_int("MaxNumBoundingBoxes", "max_number", max_number)
        if not _is_number(fill_value):
            raise ValueError("MaxNumBoundingBoxes expects `fill_value` to be a number. "
                             f"Received: fill_value={fill_value!r}")
        self.fill_value = int(fill_value)

    def call(self, inputs):
        if not isinstance(inputs, dict):
            return inputs
        batched = check_data(self, inputs)
        if "bounding_boxes" not in inputs:
            return dict(inputs)
        batch = np.shape(inputs["images"])[0] if batched else 1
        boxes = batched_boxes(self, inputs["bounding_boxes"], batched, batch)
        fitted = {key: self._fit(value) for key, value in boxes.items()}
        return dict(inputs, bounding_boxes=fitted if batched else unbatched(fitted))

    def _fit(self, values):
        """`values` (batch, N, ...) cut or padded along N to `max_number`."""
        values = values[:, :self.max_number]
        missing = self.max_number - values.shape[1]
        if missing:
            widths = [(0, 0), (0, missing)] + [(0, 0)] * (values.ndim - 2)
            values = np.pad(values, widths, constant_values=self.fill_value)
        return values

    def get_config(self):
        config = super().get_config()
        config.update({"max_number": self.max_number, "fill_value": self.fill_value})
        return config
