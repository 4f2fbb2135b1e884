"""RandAugment: a few augmentations picked at random from a fixed set, one after another."""

import numpy as np

from .augmentation_menu import augmentation_layers, child_seeds
from .base_image_layer import (
    _INTERPOLATIONS,
    _one_of,
    _RandomImageLayer,
    _value_range,
)
from .color_augmentation import _pair

__all__ = ["RandAugment"]

# Keras's list, in Keras's order.
OPERATIONS = ("random_shear", "random_translation", "random_rotation", "random_brightness",
              "random_color_degeneration", "random_contrast", "random_sharpness",
              "random_posterization", "solarization", "auto_contrast", "equalization")


class RandAugment(_RandomImageLayer):
    """Applies `num_ops` augmentations, each picked at random, one after the other.

    The RandAugment policy (Cubuk et al., 2019), as Keras 3 runs it: on each
    call, `num_ops` operations are picked uniformly (with repetition) from
    shear, translation, rotation, brightness, colour degeneration, contrast,
    sharpness, posterisation, solarisation, auto-contrast and equalisation,
    and applied in turn to the whole batch; each operation then draws its own
    amounts per image from the strength `factor` (as the layer of that name
    does: `RandomShear(factor, factor)`, `RandomRotation(factor)`, ...,
    `RandomPosterization(max(1, int(8 * upper)))`). Outside training the
    layer is the identity. Outputs are floats.

    Args:
        value_range: the `(low, high)` range of the pixel values.
        num_ops: how many operations to apply.
        factor: the strength: a number `f` in [0, 1] (operations draw from
            `[0, f]`) or a pair `(lower, upper)` in [0, 1].
        interpolation: `"bilinear"` (default) or `"nearest"`, for the
            geometric operations.
        seed: makes the picks and draws reproducible; without it they derive
            from the global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.full((1, 4, 4, 3), 100.0)
    >>> RandAugment(seed=1)(x, training=False).max().item()
    100.0
    """

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear",
                 seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = _value_range("RandAugment", value_range)
        if not isinstance(num_ops, (int, np.integer)) or isinstance(num_ops, bool) or num_ops < 0:
            raise ValueError("RandAugment expects `num_ops` to be a non-negative integer. "
                             f"Received: num_ops={num_ops!r}")
        self.num_ops = int(num_ops)
        self.factor = _pair("RandAugment", "factor", factor, 0, 1, lambda f: (0, f))
        _one_of("RandAugment", "interpolation", interpolation, _INTERPOLATIONS)
        self.interpolation = interpolation
        self.operations = augmentation_layers(self, OPERATIONS, interpolation,
                                              child_seeds(self._rng, seed))

    def _augment(self, images):
        for index in self._rng.integers(0, len(self.operations), size=self.num_ops):
            images = self.operations[index](images, training=True)
        return images

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "num_ops": self.num_ops,
                       "factor": self.factor, "interpolation": self.interpolation})
        return config

