"""RandomBrightness."""

from .... import ops
from .base_image_layer import (
    _factor_range,
    _per_image_shape,
    _RandomImageLayer,
    _value_range,
)

__all__ = ["RandomBrightness"]


class RandomBrightness(_RandomImageLayer):
    """Adds a random brightness offset to each image in training.

    Each image gets `delta * (high - low)` added to every pixel and channel,
    with `delta` drawn uniformly from the factor's range, and the result is
    clipped to `value_range = (low, high)`. Outputs are floats; outside
    training the layer is the identity.

    Args:
        factor: a number `f` in [0, 1] for the range `[-f, f]`, or a pair
            `(lower, upper)` within [-1, 1].
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the offsets reproducible; without it they derive from the
            global seed (`hikeras.utils.set_random_seed`).

    >>> import numpy as np
    >>> out = RandomBrightness((0.5, 0.5), value_range=(0, 1))(
    ...     np.full((1, 2, 2, 1), 0.25), training=True)
    >>> out.ravel().tolist()
    [0.75, 0.75, 0.75, 0.75]
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = _factor_range("RandomBrightness", factor, -1, 1)
        self.value_range = sorted(_value_range("RandomBrightness", value_range))

    def _augment(self, images):
        low, high = self.value_range
        delta = self._rng.uniform(*self.factor, size=_per_image_shape(images)) * (high - low)
        return ops.clip(ops.add(images, delta.astype(self.dtype)), low, high)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range})
        return config
