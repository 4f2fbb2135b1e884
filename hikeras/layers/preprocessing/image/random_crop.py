"""RandomCrop: a random window of images (and their bounding boxes)."""

from ....backend import SymbolicTensor
from .base_image_layer import (
    _aspect_window,
    _crop,
    _positive_int,
    _RandomImageLayer,
    _resize,
    _spatial_axes,
    _to_float,
    _with_size,
)
from .bounding_box_inputs import window_matrix

__all__ = ["RandomCrop"]


class RandomCrop(_RandomImageLayer):
    """Crops a random `(height, width)` window of images in training.

    In training, one window position is drawn per batch, uniformly among all
    positions, and every image in the batch is cropped there. An input not
    larger than the target on both sides is instead cropped centrally (and
    resized where it is too small), as Keras does. Outside training the layer
    does what Keras documents (and Keras 2 did): the largest centred window
    with the target's aspect ratio, resized bilinearly to `(height, width)`.
    Outputs are floats.

    Args:
        height, width: the output size.
        seed: makes the windows reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> RandomCrop(2, 2, seed=0)(np.zeros((3, 5, 4, 1)), training=True).shape
    (3, 2, 2, 1)
    """

    def __init__(self, height, width, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.height = _positive_int("RandomCrop", "height", height)
        self.width = _positive_int("RandomCrop", "width", width)

    def _augment(self, images):
        return self.transform_images(images, self.get_random_transformation(images))

    def _infer(self, images):
        return self.transform_images(images, self.get_random_transformation(images, False))

    def get_random_transformation(self, data, training=True, seed=None):
        """`{"starts": (y, x), "lengths": (h, w), "input_size": (h, w)}`: the input window
        that becomes the output (Keras's centred aspect window outside training)."""
        images = data["images"] if isinstance(data, dict) else data
        in_size, size = self._image_size(images), (self.height, self.width)
        if not training:
            starts, lengths = _aspect_window(in_size, size)
        elif in_size[0] > size[0] and in_size[1] > size[1]:
            starts = [int(self._rng.integers(0, have - want + 1))
                      for have, want in zip(in_size, size)]
            lengths = size
        else:
            # Keras slices the target size from where the centred aspect window
            # starts (as far as the image goes), then resizes it to the target.
            starts, _ = _aspect_window(in_size, size)
            lengths = [min(want, have - start)
                       for want, have, start in zip(size, in_size, starts)]
        return {"starts": tuple(starts), "lengths": tuple(lengths), "input_size": in_size}

    def transform_images(self, images, transformation, training=True):
        return self._move_pixels(_to_float(self, images), transformation, "bilinear")

    def _move_pixels(self, images, transformation, interpolation):
        axes = _spatial_axes(self, images.shape)
        images = _crop(images, axes, transformation["starts"], transformation["lengths"])
        if tuple(transformation["lengths"]) != (self.height, self.width):
            images = _resize(images, axes, (self.height, self.width), interpolation)
        return images

    def _box_matrices(self, transformation):
        return window_matrix(transformation["starts"], transformation["lengths"],
                             (self.height, self.width))

    def _output_size(self, in_size):
        return (self.height, self.width)

    def compute_output_spec(self, inputs, training=None):
        axes = _spatial_axes(self, inputs.shape)
        return SymbolicTensor(_with_size(inputs.shape, axes, (self.height, self.width)),
                              self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width})
        return config
