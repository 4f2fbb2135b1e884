"""Resizing: images to a fixed size, optionally cropping or padding to keep the aspect ratio."""

import numpy as np

from .... import ops
from ....backend import SymbolicTensor
from .base_image_layer import (
    _INTERPOLATIONS,
    _aspect_padding,
    _aspect_window,
    _crop,
    _FixedGeometryLayer,
    _is_number,
    _pad_to_aspect,
    _positive_int,
    _resize,
    _spatial_axes,
    _with_size,
)
from .bounding_box_inputs import window_matrix

__all__ = ["Resizing"]


# ------------------------------------------------------------- deterministic
class Resizing(_FixedGeometryLayer):
    """Resizes images to `(height, width)`.

    Sampling uses half-pixel centres with edges clamped (TensorFlow's
    `tf.image.resize`, which Keras 3 calls). Integer images are rounded back
    to their dtype, as in Keras.

    Args:
        height, width: the output size.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        crop_to_aspect_ratio: first crop the largest centred window with the
            output's aspect ratio, so the image is not distorted.
        pad_to_aspect_ratio: instead pad the short side evenly with
            `fill_value` to the output's aspect ratio.
        fill_mode: `"constant"`, the only mode (as in Keras).
        fill_value: the padding value for `pad_to_aspect_ratio`.
        antialias: must be False; anti-aliased downsampling is not supported.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> Resizing(1, 4)(np.array([[[1.0], [3.0]]])).ravel().tolist()
    [1.0, 1.5, 2.5, 3.0]
    """

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = _positive_int("Resizing", "height", height)
        self.width = _positive_int("Resizing", "width", width)
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(f"Resizing supports interpolation {_INTERPOLATIONS} "
                             f"('bicubic' and 'lanczos' are not implemented). "
                             f"Received: interpolation={interpolation!r}")
        if fill_mode != "constant":
            raise ValueError("Resizing supports only fill_mode='constant'. "
                             f"Received: fill_mode={fill_mode!r}")
        if crop_to_aspect_ratio and pad_to_aspect_ratio:
            raise ValueError("Resizing takes at most one of `crop_to_aspect_ratio` and "
                             "`pad_to_aspect_ratio`. Received: crop_to_aspect_ratio=True, "
                             "pad_to_aspect_ratio=True")
        if antialias:
            raise ValueError("Resizing does not implement anti-aliased resizing. "
                             f"Received: antialias={antialias!r}")
        if not _is_number(fill_value):
            raise ValueError(f"Resizing expects `fill_value` to be a number. "
                             f"Received: fill_value={fill_value!r}")
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = bool(crop_to_aspect_ratio)
        self.pad_to_aspect_ratio = bool(pad_to_aspect_ratio)
        self.fill_mode = fill_mode
        self.fill_value = fill_value
        self.antialias = False

    def transform_images(self, inputs, transformation, training=True):
        resized = self._move_pixels(inputs, transformation, self.interpolation)
        dtype = np.dtype(inputs.dtype)
        if np.issubdtype(dtype, np.integer) and np.dtype(resized.dtype) != dtype:
            info = np.iinfo(dtype)  # rounded and saturated back, as Keras does
            resized = ops.cast(ops.clip(ops.round(resized), info.min, info.max), dtype)
        return resized

    def _move_pixels(self, images, transformation, interpolation):
        axes = _spatial_axes(self, images.shape)
        size = (self.height, self.width)
        if self.crop_to_aspect_ratio:
            starts, lengths = _aspect_window(tuple(images.shape[a] for a in axes), size,
                                             np.float32)
            images = _crop(images, axes, starts, lengths)
        elif self.pad_to_aspect_ratio:
            images = _pad_to_aspect(images, axes, size, self.fill_value)
        return _resize(images, axes, size, interpolation)

    def _box_matrices(self, transformation):
        in_size, size = transformation["input_size"], (self.height, self.width)
        if self.crop_to_aspect_ratio:
            return window_matrix(*_aspect_window(in_size, size, np.float32), size)
        if self.pad_to_aspect_ratio:
            pads = _aspect_padding(in_size, size)
            return window_matrix([-p for p in pads],
                                 [have + 2 * p for have, p in zip(in_size, pads)], size)
        return window_matrix((0, 0), in_size, size)

    def _output_size(self, in_size):
        return (self.height, self.width)

    def compute_output_spec(self, inputs):
        axes = _spatial_axes(self, inputs.shape)
        return SymbolicTensor(_with_size(inputs.shape, axes, (self.height, self.width)),
                              inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width,
                       "interpolation": self.interpolation,
                       "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                       "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
                       "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                       "antialias": self.antialias})
        return config
