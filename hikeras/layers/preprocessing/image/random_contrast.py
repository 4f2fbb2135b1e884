"""RandomContrast."""

from .... import ops
from .base_image_layer import (
    _factor_range,
    _per_image_shape,
    _RandomImageLayer,
    _spatial_axes,
    _value_range,
)

__all__ = ["RandomContrast"]


class RandomContrast(_RandomImageLayer):
    """Scales each image's contrast by a random factor in training.

    Each image and channel becomes `(x - mean) * c + mean`, where `mean` is
    that image's mean over its pixels and `c` is drawn per image uniformly
    from `[1 - lower, 1 + upper]`; the result is clipped to `value_range`.
    As in Keras 3, a single number `f` gives `(lower, upper) = (0, f)`, so
    contrast is only ever raised; pass a pair to lower it too. Outputs are
    floats; outside training the layer is the identity.

    Args:
        factor: a number `f` in [0, 1], or a pair `(lower, upper)` in [0, 1].
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the factors reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.array([[[0.25], [0.75]]])
    >>> out = RandomContrast(0.5, value_range=(0, 1), seed=0)(x, training=True)
    >>> bool(out[0, 0, 0] <= 0.25 and out[0, 1, 0] >= 0.75), round(float(out.mean()), 6)
    (True, 0.5)
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = _factor_range("RandomContrast", factor, 0, 1)
        self.value_range = _value_range("RandomContrast", value_range)

    def _augment(self, images):
        lower, upper = self.factor
        contrast = self._rng.uniform(1.0 - lower, 1.0 + upper, size=_per_image_shape(images))
        mean = ops.mean(images, axis=_spatial_axes(self, images.shape), keepdims=True)
        scaled = ops.add(ops.multiply(ops.subtract(images, mean), contrast.astype(self.dtype)),
                         mean)
        return ops.clip(scaled, *sorted(self.value_range))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range})
        return config
