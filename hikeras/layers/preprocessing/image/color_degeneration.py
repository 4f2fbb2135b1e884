"""RandomColorDegeneration: images blended towards their own grey version."""

from .... import ops
from .color_augmentation import _GRAY_WEIGHTS, _channel_axis, _ColorLayer, _pair, _rgb

__all__ = ["RandomColorDegeneration"]


class RandomColorDegeneration(_ColorLayer):
    """Dulls colours by blending each image towards its greyscale version.

    Per image, a factor `f` is drawn and the output is
    `image + f * (grey - image)`, clipped to `value_range`: `f = 0` leaves the
    image, `f = 1` makes it grey (luma `0.2989 R + 0.5870 G + 0.1140 B`, kept
    on all three channels). Outside training the layer is the identity.

    Args:
        factor: a number `f` (draws from `[0, f]`) or a pair `(low, high)`,
            within `[0, 1]`; `(0.5, 0.5)` always uses 0.5.
        value_range: the `(low, high)` range of the pixel values.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        seed: makes the draws reproducible.

    >>> import numpy as np
    >>> out = RandomColorDegeneration((1.0, 1.0))(np.array([[[100.0, 50.0, 200.0]]]))
    >>> [round(float(v), 2) for v in out.ravel()]
    [82.04, 82.04, 82.04]
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(value_range=value_range, seed=seed, data_format=data_format, **kwargs)
        self.factor = _pair("RandomColorDegeneration", "factor", factor, 0.0, 1.0,
                            lambda f: (0.0, f))

    def _augment(self, images):
        axis = _channel_axis(self, images)
        if images.shape[axis] == 1:
            return images
        (red, green, blue), _ = _rgb(self, images)
        grey = red * _GRAY_WEIGHTS[0] + green * _GRAY_WEIGHTS[1] + blue * _GRAY_WEIGHTS[2]
        factor = self._per_image(images, *self.factor)
        blended = images + factor * (grey - images)
        return ops.clip(blended, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config
