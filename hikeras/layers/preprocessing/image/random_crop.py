"""RandomCrop."""

from ....backend import SymbolicTensor
from .base_image_layer import (
    _aspect_window,
    _crop,
    _positive_int,
    _RandomImageLayer,
    _resize,
    _smart_resize,
    _spatial_axes,
    _with_size,
)

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
        axes = _spatial_axes(self, images.shape)
        in_size = tuple(images.shape[a] for a in axes)
        size = (self.height, self.width)
        if in_size[0] > size[0] and in_size[1] > size[1]:
            starts = [int(self._rng.integers(0, have - want + 1))
                      for have, want in zip(in_size, size)]
            return _crop(images, axes, starts, size)
        # Keras slices the target size from where the centred aspect window
        # starts, then resizes whatever that leaves to the target.
        starts, _ = _aspect_window(in_size, size)
        images = _crop(images, axes, starts, size)
        if tuple(images.shape[a] for a in axes) != size:
            images = _resize(images, axes, size, "bilinear")
        return images

    def _infer(self, images):
        return _smart_resize(images, _spatial_axes(self, images.shape),
                             (self.height, self.width))

    def compute_output_spec(self, inputs, training=None):
        axes = _spatial_axes(self, inputs.shape)
        return SymbolicTensor(_with_size(inputs.shape, axes, (self.height, self.width)),
                              self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width})
        return config
