"""RandomSharpness: images moved towards or away from a smoothed copy."""

from .... import ops
from .color_augmentation import _ColorLayer, _pair

__all__ = ["RandomSharpness"]

# Keras's smoothing kernel: the centre pixel counts five times its 8 neighbours.
_SIDE, _CENTRE = 1.0 / 13.0, 5.0 / 13.0


def _smoothed(images, height_axis):
    """The 3x3 smoothing of each channel, zero padding at the borders."""
    pad = [[0, 0]] * len(images.shape)
    pad[height_axis] = pad[height_axis + 1] = [1, 1]
    padded = ops.pad(images, pad)
    height, width = images.shape[height_axis], images.shape[height_axis + 1]
    total = None
    for di in range(3):
        for dj in range(3):
            index = [slice(None)] * len(images.shape)
            index[height_axis] = slice(di, di + height)
            index[height_axis + 1] = slice(dj, dj + width)
            term = padded[tuple(index)] * (_CENTRE if (di, dj) == (1, 1) else _SIDE)
            total = term if total is None else total + term
    return total


class RandomSharpness(_ColorLayer):
    """Sharpens or blurs each image by a random amount.

    Per image a factor `f` is drawn from `factor`'s range and the output is
    `image + (1 - 2 f) * (smoothed - image)`, clipped to `value_range`, where
    `smoothed` is a 3x3 smoothing (centre weight 5/13, neighbours 1/13): `f =
    0.5` leaves the image, lower values blur it and higher ones sharpen it.
    Outside training the layer is the identity.

    Args:
        factor: a number `f` (draws from `[0, f]`) or a pair, within `[0, 1]`.
        value_range: the `(low, high)` range of the pixel values.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible.
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, data_format=data_format, **kwargs)
        self.factor = _pair("RandomSharpness", "factor", factor, 0.0, 1.0, lambda f: (0.0, f))

    def _augment(self, images):
        height_axis = len(images.shape) - (2 if self.data_format == "channels_first" else 3)
        factor = self._per_image(images, *self.factor)
        blended = images + (1.0 - 2.0 * factor) * (_smoothed(images, height_axis) - images)
        return ops.clip(blended, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config
