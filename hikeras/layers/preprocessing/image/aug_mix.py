"""AugMix: each image blended with a random mixture of augmented copies of itself."""

import numpy as np

from .... import ops
from .augmentation_menu import augmentation_layers, child_seeds
from .base_image_layer import (
    _INTERPOLATIONS,
    _is_number,
    _one_of,
    _positive_int,
    _RandomImageLayer,
    _value_range,
)
from .color_augmentation import _pair

__all__ = ["AugMix"]

# Keras's lists, in Keras's order: without `all_ops`, only the operations that do not
# overlap with common test-time corruptions (brightness, contrast, ...).
BASE_OPERATIONS = ("random_shear", "random_translation", "random_rotation",
                   "random_posterization", "solarization", "auto_contrast", "equalization")
ALL_OPERATIONS = BASE_OPERATIONS + ("random_brightness", "random_color_degeneration",
                                    "random_contrast", "random_sharpness")


class AugMix(_RandomImageLayer):
    """Mixes each image with augmented versions of itself (Hendrycks et al., 2020).

    As Keras 3 does it, per call: `num_chains` chains each apply up to
    `chain_depth` operations to a copy of the images, one after another; each
    step picks an operation uniformly from the set (or, with the same chance
    as any one operation, none). The chains' results are averaged with
    weights drawn from a Dirichlet distribution of concentration `alpha`, and
    the images become `w * images + (1 - w) * mixture` with `w ~ Beta(alpha,
    alpha)`, clipped to `value_range`. Each operation draws its own amounts
    per image from the strength `factor`, as `RandAugment`'s do. Keras picks
    the operations with Python's unseeded `random`; here the layer's
    generator picks them, so a seed makes the whole layer reproducible.
    Outside training the layer is the identity. Outputs are floats.

    Args:
        value_range: the `(low, high)` range of the pixel values.
        num_chains: how many augmentation chains are mixed.
        chain_depth: the number of steps in each chain.
        factor: the strength: a number `f` in [0, 1] (operations draw from
            `[0, f]`) or a pair `(lower, upper)` in [0, 1].
        alpha: the concentration of the Dirichlet and Beta distributions.
        all_ops: whether to add brightness, colour degeneration, contrast and
            sharpness to the shear, translation, rotation, posterisation,
            solarisation, auto-contrast and equalisation.
        interpolation: `"bilinear"` (default) or `"nearest"`, for the
            geometric operations.
        seed: makes the picks and draws reproducible; without it they derive
            from the global seed (`hikeras.utils.set_random_seed`).
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.full((2, 4, 4, 3), 100.0)
    >>> out = AugMix(value_range=(0, 255), seed=1)(x)
    >>> out.shape, bool(out.min() >= 0 and out.max() <= 255)
    ((2, 4, 4, 3), True)
    """

    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3,
                 alpha=1.0, all_ops=True, interpolation="bilinear", seed=None,
                 data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = _value_range("AugMix", value_range)
        self.num_chains = _positive_int("AugMix", "num_chains", num_chains)
        self.chain_depth = _positive_int("AugMix", "chain_depth", chain_depth)
        self.factor = _pair("AugMix", "factor", factor, 0, 1, lambda f: (0, f))
        if not _is_number(alpha) or alpha <= 0:
            raise ValueError("AugMix expects `alpha` to be a positive number. "
                             f"Received: alpha={alpha!r}")
        _one_of("AugMix", "interpolation", interpolation, _INTERPOLATIONS)
        self.alpha = alpha
        self.all_ops = bool(all_ops)
        self.interpolation = interpolation
        names = ALL_OPERATIONS if self.all_ops else BASE_OPERATIONS
        self.operations = augmentation_layers(self, names, interpolation,
                                              child_seeds(self._rng, seed))

    def _augment(self, images):
        dtype = np.dtype(self.dtype)
        chain_weights = self._rng.dirichlet([self.alpha] * self.num_chains).astype(dtype)
        keep = dtype.type(self._rng.beta(self.alpha, self.alpha))
        mixture = 0.0
        for chain_weight in chain_weights:
            chain = images
            # Each step picks an operation, or none (index len(operations)).
            for index in self._rng.integers(0, len(self.operations) + 1, size=self.chain_depth):
                if index < len(self.operations):
                    chain = self.operations[index](chain, training=True)
            mixture = mixture + chain * chain_weight
        mixed = images * keep + mixture * (dtype.type(1) - keep)
        return ops.clip(mixed, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "num_chains": self.num_chains,
                       "chain_depth": self.chain_depth, "factor": self.factor,
                       "alpha": self.alpha, "all_ops": self.all_ops,
                       "interpolation": self.interpolation})
        return config
