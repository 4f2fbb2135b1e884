"""The operations RandAugment and AugMix choose from, built as Keras builds them.

Both layers turn one strength `factor = (lower, upper)` into a set of
augmentation layers: the geometric ones draw their shear, translation and
rotation from `factor`, the colour ones their amounts, posterisation gets the
factor `max(1, int(8 upper))` (its bits), and auto-contrast and equalisation
take no strength. The names are Keras's attribute names for them.
"""

from .color_augmentation import AutoContrast, RandomPosterization, Solarization
from .color_degeneration import RandomColorDegeneration
from .equalization import Equalization
from .geometric_augmentation import RandomRotation, RandomTranslation
from .random_brightness import RandomBrightness
from .random_contrast import RandomContrast
from .random_sharpness import RandomSharpness
from .random_shear import RandomShear


def _makers(factor, value_range, interpolation, data_format, dtype):
    """`{name: make(seed)}` for every operation, in no particular order."""
    colour = {"value_range": value_range, "data_format": data_format, "dtype": dtype}
    geometry = {"interpolation": interpolation, "data_format": data_format, "dtype": dtype}
    return {
        "random_shear": lambda seed: RandomShear(x_factor=factor, y_factor=factor,
                                                 seed=seed, **geometry),
        "random_translation": lambda seed: RandomTranslation(
            height_factor=factor, width_factor=factor, seed=seed, **geometry),
        "random_rotation": lambda seed: RandomRotation(factor=factor, seed=seed, **geometry),
        "random_brightness": lambda seed: RandomBrightness(factor=factor, seed=seed, **colour),
        "random_color_degeneration": lambda seed: RandomColorDegeneration(
            factor=factor, seed=seed, **colour),
        "random_contrast": lambda seed: RandomContrast(factor=factor, seed=seed, **colour),
        "random_sharpness": lambda seed: RandomSharpness(factor=factor, seed=seed, **colour),
        "random_posterization": lambda seed: RandomPosterization(
            factor=max(1, int(8 * factor[1])), seed=seed, **colour),
        "solarization": lambda seed: Solarization(addition_factor=factor,
                                                  threshold_factor=factor, seed=seed,
                                                  **colour),
        "auto_contrast": lambda seed: AutoContrast(**colour),
        "equalization": lambda seed: Equalization(**colour),
    }


def augmentation_layers(layer, names, interpolation, seeds):
    """The layers `names`, in that order, for `layer` (its `factor`, `value_range`,
    `data_format` and dtype); `seeds()` gives each random one its seed."""
    makers = _makers(layer.factor, layer.value_range, interpolation, layer.data_format,
                     layer.dtype)
    return [makers[name](seeds()) for name in names]


def child_seeds(rng, seed):
    """Seeds for the sub-layers: drawn from the parent's generator when it has a seed
    (so a seeded parent is reproducible and its sub-layers' draws independent), else
    None (each sub-layer spawns from the global generator)."""
    return (lambda: int(rng.integers(2**31))) if seed is not None else (lambda: None)
