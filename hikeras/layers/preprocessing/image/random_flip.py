"""RandomFlip."""

from .... import ops
from ....ops import kernels
from .base_image_layer import _per_image_shape, _RandomImageLayer, _spatial_axes

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
        height_axis, width_axis = _spatial_axes(self, images.shape)
        key = [slice(None)] * len(images.shape)
        if self.mode != "vertical":
            key[width_axis] = slice(None, None, -1)
        if self.mode != "horizontal":
            key[height_axis] = slice(None, None, -1)
        flipped = kernels.getitem(images, tuple(key))
        flips = self._rng.uniform(size=_per_image_shape(images)) <= 0.5
        return ops.where(flips, flipped, images)

    def get_config(self):
        config = super().get_config()
        config["mode"] = self.mode
        return config
