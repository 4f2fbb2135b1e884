"""RandomFlip: images (and their bounding boxes) flipped at random."""

import numpy as np

from .... import ops
from ....ops import kernels
from .base_image_layer import (
    _per_image_shape,
    _RandomImageLayer,
    _spatial_axes,
    _to_float,
)
from .bounding_box_inputs import scale_and_shift

__all__ = ["RandomFlip"]


_FLIP_MODES = ("horizontal", "vertical", "horizontal_and_vertical")


class RandomFlip(_RandomImageLayer):
    """Randomly flips images in training: each with probability 1/2.

    In `"horizontal_and_vertical"` mode one draw per image decides both
    flips, as in Keras: an image is either left alone or flipped both ways.
    Outputs are floats; with `training=False` the layer is the identity.

    Args:
        mode: `"horizontal"` (left-right), `"vertical"` (top-bottom) or
            `"horizontal_and_vertical"` (default).
        seed: makes the flips reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.arange(4.0).reshape(1, 1, 4, 1)
    >>> RandomFlip("horizontal", seed=1)(x, training=False).ravel().tolist()
    [0.0, 1.0, 2.0, 3.0]
    """

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if mode not in _FLIP_MODES:
            raise ValueError(f"RandomFlip expects `mode` to be one of {_FLIP_MODES}. "
                             f"Received: mode={mode!r}")
        self.mode = mode

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images))

    def get_random_transformation(self, data, training=True, seed=None):
        """`{"flips": (batch,) bool, "input_size": (h, w)}`: which images flip; `None`
        outside training. `seed` is accepted for Keras's signature."""
        if not training:
            return None
        images = data["images"] if isinstance(data, dict) else data
        flips = self._rng.uniform(size=_per_image_shape(images)) <= 0.5
        return {"flips": flips.reshape(-1), "input_size": self._image_size(images)}

    def transform_images(self, images, transformation, training=True):
        images = _to_float(self, images)
        if not training or transformation is None:
            return images
        return self._move_pixels(images, transformation, None)

    def _move_pixels(self, images, transformation, interpolation):
        height_axis, width_axis = _spatial_axes(self, images.shape)
        key = [slice(None)] * len(images.shape)
        if self.mode != "vertical":
            key[width_axis] = slice(None, None, -1)
        if self.mode != "horizontal":
            key[height_axis] = slice(None, None, -1)
        flipped = kernels.getitem(images, tuple(key))
        flips = transformation["flips"].reshape(_per_image_shape(images))
        return ops.where(flips, flipped, images)

    def _box_matrices(self, transformation):
        height, width = transformation["input_size"]
        sign_x = -1.0 if self.mode != "vertical" else 1.0
        sign_y = -1.0 if self.mode != "horizontal" else 1.0
        flip = scale_and_shift((sign_y, sign_x), (height if sign_y < 0 else 0.0,
                                                  width if sign_x < 0 else 0.0))
        keep = scale_and_shift((1.0, 1.0), (0.0, 0.0))
        return np.where(transformation["flips"][:, None, None], flip, keep)

    def get_config(self):
        config = super().get_config()
        config["mode"] = self.mode
        return config
