"""CenterCrop."""

from ....backend import SymbolicTensor
from .base_image_layer import (
    _aspect_window,
    _crop,
    _FixedGeometryLayer,
    _positive_int,
    _resize,
    _spatial_axes,
    _to_float,
    _with_size,
)
from .bounding_box_inputs import window_matrix

__all__ = ["CenterCrop"]


class CenterCrop(_FixedGeometryLayer):
    """Crops the centre `(height, width)` of images.

    The window starts at half the excess, rounded down. An image smaller than
    the target along either side is instead cropped to the largest centred
    window with the target's aspect ratio and resized bilinearly to the
    target, as Keras does. Outputs are floats.

    Args:
        height, width: the output size.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> CenterCrop(1, 2)(np.arange(9.0).reshape(3, 3, 1)).ravel().tolist()
    [3.0, 4.0]
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = _positive_int("CenterCrop", "height", height)
        self.width = _positive_int("CenterCrop", "width", width)

    def transform_images(self, images, transformation, training=True):
        return self._move_pixels(_to_float(self, images), transformation, "bilinear")

    def _move_pixels(self, images, transformation, interpolation):
        axes = _spatial_axes(self, images.shape)
        size = (self.height, self.width)
        excess = [images.shape[a] - s for a, s in zip(axes, size)]
        if min(excess) >= 0:
            return _crop(images, axes, [e // 2 for e in excess], size)
        starts, lengths = _aspect_window(tuple(images.shape[a] for a in axes), size)
        return _resize(_crop(images, axes, starts, lengths), axes, size, interpolation)

    def _box_matrices(self, transformation):
        in_size, size = transformation["input_size"], (self.height, self.width)
        if min(have - want for have, want in zip(in_size, size)) >= 0:
            return window_matrix([(h - s) // 2 for h, s in zip(in_size, size)], size, size)
        return window_matrix(*_aspect_window(in_size, size), size)

    def _output_size(self, in_size):
        return (self.height, self.width)

    def compute_output_spec(self, inputs):
        axes = _spatial_axes(self, inputs.shape)
        return SymbolicTensor(_with_size(inputs.shape, axes, (self.height, self.width)),
                              self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width})
        return config
