"""RandomColorJitter: random brightness, contrast, saturation and hue, one after the other."""

from .base_image_layer import _ImageLayer, _spatial_axes, _to_float, _value_range
from .color_augmentation import RandomHue, RandomSaturation
from .random_brightness import RandomBrightness
from .random_contrast import RandomContrast

__all__ = ["RandomColorJitter"]


class RandomColorJitter(_ImageLayer):
    """Applies, in this order, whichever of RandomBrightness, RandomContrast,
    RandomSaturation and RandomHue is given a factor.

    Each step draws its own random amount per image, as the layer of that
    name does with the same factor. Outside training the layer is the identity.

    Args:
        value_range: the `(low, high)` range of the pixel values.
        brightness_factor, contrast_factor, saturation_factor, hue_factor:
            the `factor` of each step, or None to skip it.
        seed: makes the draws reproducible.
        data_format: `"channels_last"` (default) or `"channels_first"`.
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None,
                 saturation_factor=None, hue_factor=None, seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = _value_range("RandomColorJitter", value_range)
        self.brightness_factor = brightness_factor
        self.contrast_factor = contrast_factor
        self.saturation_factor = saturation_factor
        self.hue_factor = hue_factor
        self.seed = seed
        steps = []
        if brightness_factor is not None:
            steps.append(RandomBrightness(brightness_factor, value_range=value_range, seed=seed))
        if contrast_factor is not None:
            steps.append(RandomContrast(contrast_factor, value_range=value_range, seed=seed))
        if saturation_factor is not None:
            steps.append(RandomSaturation(saturation_factor, value_range=value_range,
                                          data_format=data_format, seed=seed))
        if hue_factor is not None:
            steps.append(RandomHue(hue_factor, value_range=value_range, data_format=data_format,
                                   seed=seed))
        self.steps = steps

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_data(inputs, training=training)
        images = _to_float(self, inputs)
        _spatial_axes(self, images.shape)
        if not training:
            return images
        for step in self.steps:
            images = step(images, training=True)
        return images

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range,
                       "brightness_factor": self.brightness_factor,
                       "contrast_factor": self.contrast_factor,
                       "saturation_factor": self.saturation_factor,
                       "hue_factor": self.hue_factor, "seed": self.seed})
        return config
