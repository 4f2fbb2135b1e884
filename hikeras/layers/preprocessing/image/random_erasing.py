"""RandomErasing: a random rectangle of randomly chosen images replaced by noise or a colour."""

import numpy as np

from .... import ops
from .base_image_layer import _is_number, _RandomImageLayer, _spatial_axes, _value_range
from .color_augmentation import _channel_axis, _pair

__all__ = ["RandomErasing"]


class RandomErasing(_RandomImageLayer):
    """Erases a random rectangle of each image with a probability drawn from `factor`.

    The rectangle's height and width are `sqrt(s)` of the image's, `s` drawn
    from `scale` for each side, at a uniform random position. It is filled
    with `fill_value` (a number, or one per channel), or, when that is None,
    with Gaussian noise times `value_range`'s upper end, clipped to
    `value_range`. Outside training the layer is the identity.

    Args:
        factor: the erasing probability, a number `f` (draws from `[0, f]`) or a pair.
        scale: the `(low, high)` range of the area share `s`.
        fill_value: None (noise), a number, or three numbers.
        value_range: the `(low, high)` range of the pixel values.
        seed: makes the draws reproducible.
        data_format: `"channels_last"` (default) or `"channels_first"`.
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255),
                 seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = _pair("RandomErasing", "factor", factor, 0.0, 1.0, lambda f: (0.0, f))
        self.scale = _pair("RandomErasing", "scale", scale, 0.0, 1.0, lambda s: (0.0, s))
        if fill_value is not None and not (
                _is_number(fill_value) or (isinstance(fill_value, (list, tuple))
                                           and len(fill_value) == 3
                                           and all(_is_number(v) for v in fill_value))):
            raise ValueError("The `fill_value` argument should be a number (or a list of three "
                             f"numbers). Received: fill_value={fill_value!r}")
        self.fill_value = fill_value
        self.value_range = _value_range("RandomErasing", value_range)

    def _augment(self, images):
        batched = len(images.shape) == 4
        batch = images.shape[0] if batched else 1
        height_axis, width_axis = _spatial_axes(self, images.shape)
        height, width = images.shape[height_axis], images.shape[width_axis]
        ratios = np.sqrt(self._rng.uniform(*self.scale, size=(batch, 2)))
        mask = np.zeros((batch, height, width), dtype=bool)
        for i, (rx, ry) in enumerate(ratios):
            x0 = self._rng.uniform() * (width - rx * width)
            y0 = self._rng.uniform() * (height - ry * height)
            cols = (np.arange(width) >= x0) & (np.arange(width) < x0 + rx * width)
            rows = (np.arange(height) >= y0) & (np.arange(height) < y0 + ry * height)
            mask[i] = rows[:, None] & cols[None, :]
        mask &= (self._rng.uniform(size=batch) < self._rng.uniform(*self.factor, size=batch)
                 )[:, None, None]
        mask = mask[..., None] if self.data_format == "channels_last" else mask[:, None]
        if not batched:
            mask = mask[0]
        low, high = self.value_range
        if self.fill_value is None:
            fill = self._rng.standard_normal(tuple(images.shape)) * high
        else:
            fill = np.broadcast_to(self._fill_per_channel(images), tuple(images.shape))
        fill = np.clip(fill, low, high).astype(self.dtype)
        return ops.where(mask, fill, images)

    def _fill_per_channel(self, images):
        value = np.asarray(self.fill_value, dtype=np.float64)
        if value.ndim == 0:
            return value
        shape = [1] * len(images.shape)
        shape[_channel_axis(self, images)] = 3
        return value.reshape(shape)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "fill_value": self.fill_value, "value_range": self.value_range})
        return config
