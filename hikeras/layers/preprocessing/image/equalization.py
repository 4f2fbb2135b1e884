"""Equalization: histogram equalisation of each channel."""

import numpy as np

from .base_image_layer import (
    _ImageLayer,
    _positive_int,
    _spatial_axes,
    _to_float,
    _value_range,
)

__all__ = ["Equalization"]


class Equalization(_ImageLayer):
    """Spreads each channel's values over the whole range by equalising its histogram.

    As in Keras, a channel's histogram (`bins` bins over `value_range`) is
    taken over the whole batch, each value is mapped through the normalised
    cumulative histogram, and a channel with at most one occupied bin is left
    as it is. It applies in training (the default when called directly);
    `training=False` passes images through. It computes on the values, so no
    gradient flows through it.

    Args:
        value_range: the `(low, high)` range of the pixel values.
        bins: the number of histogram bins.
        data_format: `"channels_last"` (default) or `"channels_first"`.
    """

    _keeps_boxes = True  # changes pixel values, not where they are

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = sorted(_value_range("Equalization", value_range))
        self.bins = _positive_int("Equalization", "bins", bins)

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_data(inputs, training=training)
        images = _to_float(self, inputs)
        height_axis, _ = _spatial_axes(self, images.shape)
        if not training:
            return images
        values = np.asarray(getattr(images, "value", images), dtype=np.float64)
        axis = height_axis - 1 if self.data_format == "channels_first" else values.ndim - 1
        channels = [self._equalize(np.take(values, c, axis=axis))
                    for c in range(values.shape[axis])]
        return np.stack(channels, axis=axis).astype(self.dtype)

    def _equalize(self, channel):
        low, high = self.value_range
        channel = (channel - low) * 255.0 / (high - low)  # work on [0, 255]
        indices = np.clip((channel * (self.bins - 1) / 255.0).astype(np.int64), 0,
                          self.bins - 1)
        histogram = np.bincount(indices.ravel(), minlength=self.bins)
        if np.count_nonzero(histogram) <= 1:
            equalized = channel
        else:
            cdf = np.cumsum(histogram)
            cdf_min = cdf[np.nonzero(cdf)[0][0]]
            denominator = (cdf[-1] - cdf_min) or 1
            table = np.clip(np.round((cdf - cdf_min) * 255.0 / denominator), 0, 255)
            lookup = np.clip(channel / 255.0 * (self.bins - 1), 0, self.bins - 1).astype(np.int64)
            equalized = table[lookup]
        return equalized * (high - low) / 255.0 + low

    def get_config(self):
        config = super().get_config()
        config.update({"bins": self.bins, "value_range": self.value_range})
        return config
